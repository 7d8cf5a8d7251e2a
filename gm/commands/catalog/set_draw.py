"""SET DRAW / SET NO DRAW: the power's vote for a draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetDraw(Command):
    """`SET DRAW` (draw: True) or `SET NO DRAW` (False): the power's vote for a draw."""

    draw: bool


def read_set_draw(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDraw(line, True))


def read_set_no_draw(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDraw(line, False))


def handle(ctx: Context, command: SetDraw) -> None:
    from gm.commands.handlers.common import as_player
    from gm.commands.handlers.draws import settle_draw
    from gm.store import powers as powers_repo

    signed = as_player(ctx, "SET DRAW")
    if signed is None or signed.power is None:
        return
    powers_repo.set_power_flags(ctx.session, signed.game.id, signed.power, now=ctx.now,
                                draw_vote=command.draw)
    ctx.results.add(f"{signed.power} " + ("votes for a draw." if command.draw
                                          else "does not vote for a draw."))
    if command.draw:
        settle_draw(ctx, signed.game.id)


COMMAND = CommandSpec(
    value=SetDraw,
    keywords=("SET",),
    rules={"set_draw": read_set_draw, "set_no_draw": read_set_no_draw},
    handle=handle,
    set_usage={
        "DRAW": "SET DRAW takes nothing after it (SET NO DRAW takes your vote back)",
        "NODRAW": "SET NO DRAW takes nothing after it",
    },
    help=(
        HelpLines("SET", 30, """\
    SET DRAW                   vote for a draw among the powers still in the game
    SET NO DRAW                take your draw vote back
"""),
    ),
)
