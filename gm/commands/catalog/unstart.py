"""UNSTART (GM): take a started game back to forming, before its first phase is processed
(njudge's UNSTART). The first phase and its orders are removed (kept in the audit log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_control import gm_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import game_life

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Unstart(Command):
    """`UNSTART`."""


def read_unstart(c: list[Token]) -> Draft:
    return Draft(Unstart)


def handle(ctx: Context, command: Unstart) -> None:
    game = gm_game(ctx, "UNSTART")
    if game is None:
        return
    done = game_life.unstart(ctx.session, game, now=ctx.now, actor=ctx.sender,
                             service=ctx.service, inbound_id=ctx.inbound_id)
    match done:
        case game_life.WrongStatus(status=status):
            ctx.results.add(f"UNSTART: refused, {game.name} is {status.value}; only a "
                            "started game goes back to forming.")
        case game_life.UnstartRefusal.PROCESSED:
            ctx.results.add(f"UNSTART: refused, a phase of {game.name} has been processed "
                            "already; only a game whose first phase is still open goes back "
                            "to forming (ROLLBACK goes back to an earlier phase).")
        case game_life.Changed(after=after, mail=mail):
            if ctx.signed is not None:
                ctx.signed.game = after
            ctx.results.add(f"{game.name} is forming again: its first phase and the orders "
                            "given for it are gone (kept in the audit log). START (or FORCE "
                            "BEGIN) starts it anew. Every player was told.")
            ctx.results.mail.extend(mail)


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
