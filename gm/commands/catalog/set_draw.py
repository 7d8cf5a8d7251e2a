"""SET DRAW / SET NO DRAW: the power's vote for a draw."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import SetDraw

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_draw(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDraw(line, True))


def read_set_no_draw(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDraw(line, False))


def handle(ctx: Context, command: SetDraw) -> None:
    from gm.commands.handlers.player_settings import set_draw

    set_draw(ctx, command)


COMMAND = CommandSpec(
    value=SetDraw,
    keywords=("SET",),
    rules={"set_draw": read_set_draw, "set_no_draw": read_set_no_draw},
    handle=handle,
    set_usage={
        "DRAW": "SET DRAW takes nothing after it (SET NO DRAW takes your vote back)",
        "NODRAW": "SET NO DRAW takes nothing after it",
    },
)
