"""SET MULTIPLE ON|OFF (GM): whether one address may JOIN more than one power of the game."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.joining import MULTIPLE_KEY
from gm.store import audit
from gm.store import games as games_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetMultiple(Command):
    """`SET MULTIPLE ON|OFF` (GM): whether one address may JOIN more than one power."""

    allowed: bool


def read_set_multiple(c: list[Token]) -> Draft:
    allowed = str(c[0]).lower() == "on"
    return Draft(lambda line: SetMultiple(line, allowed))


def handle(ctx: Context, command: SetMultiple) -> None:
    signed = as_master(ctx, "SET MULTIPLE")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"SET MULTIPLE: refused, {game.name} is finished.")
        return
    extra = {**game.settings.extra, MULTIPLE_KEY: command.allowed}
    signed.game = games_repo.set_game_settings(
        ctx.session, game.id, dataclasses.replace(game.settings, extra=extra), now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="set", now=ctx.now,
                        game_id=game.id,
                        details={"setting": "SET MULTIPLE", "allowed": command.allowed},
                        inbound_id=ctx.inbound_id)
    if command.allowed:
        ctx.results.add(f"One address may JOIN more than one power of {game.name} now (you "
                        "are told each time).")
    else:
        ctx.results.add(f"One address may JOIN one power of {game.name} from now on; seats "
                        "already taken stay.")


COMMAND = CommandSpec(
    value=SetMultiple,
    keywords=("SET",),
    set_words=("MULTIPLE",),
    rules={"set_multiple": read_set_multiple},
    handle=handle,
    set_usage={
        "MULTIPLE": (
            "SET MULTIPLE needs ON or OFF (whether one address may JOIN more than one power):"
            " SET MULTIPLE ON"
        ),
    },
    help=(
        HelpLines("DEADLINES", 111, """\
    SET MULTIPLE ON|OFF            whether one address may JOIN more than one power of
                                   the game (OFF unless set)
"""),
    ),
)
