"""UNSTART (GM): take a started game back to forming, before its first phase is processed
(njudge's UNSTART). The first phase and its orders are removed (kept in the audit log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.statuses import GameStatus, PowerStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Unstart(Command):
    """`UNSTART`."""


def read_unstart(c: list[Token]) -> Draft:
    return Draft(Unstart)


def handle(ctx: Context, command: Unstart) -> None:
    signed = as_master(ctx, "UNSTART")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        ctx.results.add(f"UNSTART: refused, {game.name} is {game.status.value}; only a "
                        "started game goes back to forming.")
        return
    phases = phases_repo.history(ctx.session, game.id)
    if len(phases) != 1 or phases[0].adjudicated:
        ctx.results.add(f"UNSTART: refused, a phase of {game.name} has been processed "
                        "already; only a game whose first phase is still open goes back to "
                        "forming (ROLLBACK goes back to an earlier phase).")
        return
    phases_repo.unstart(ctx.session, game.id, actor=ctx.sender, now=ctx.now,
                        inbound_id=ctx.inbound_id)
    for power in powers_repo.list_powers(ctx.session, game.id):
        if power.status is PowerStatus.CIVIL_DISORDER:  # FORCE BEGIN's empty powers
            powers_repo.set_power_status(ctx.session, game.id, power.name,
                                         PowerStatus.PLAYING, now=ctx.now)
    signed.game = games_repo.get_game(ctx.session, game.id)
    ctx.results.add(f"{game.name} is forming again: its first phase and the orders given "
                    "for it are gone (kept in the audit log). START (or FORCE BEGIN) starts "
                    "it anew. Every player was told.")
    tell_game(ctx, game, "the game is forming again", (
        f"The GM of {game.name} has taken the game back to forming: it starts again when the "
        "GM sends START. The orders given for its first phase are gone; you keep your power "
        f"and your password.\n\n-- \n{ctx.service}\n"))


COMMAND = CommandSpec(
    value=Unstart,
    keywords=("UNSTART",),
    rules={"unstart": read_unstart},
    handle=handle,
    usage={
        "UNSTART": "UNSTART takes nothing after it",
    },
    help=(
        HelpLines("GM", 64, """\
    UNSTART                                take a started game back to forming, before
                                           its first phase is processed
"""),
    ),
)
