"""SET MULTIPLE ON|OFF (GM): whether one address may JOIN more than one power of the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import game_switches
from gm.play.game_settings import SettingsRefusal

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
    done = game_switches.set_switch(ctx.session, game, game_switches.Switch.MULTIPLE,
                                    command.allowed, now=ctx.now, actor=ctx.sender,
                                    inbound_id=ctx.inbound_id)
    if done is SettingsRefusal.FINISHED:
        ctx.results.add(f"SET MULTIPLE: refused, {game.name} is finished.")
        return
    signed.game = done
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
