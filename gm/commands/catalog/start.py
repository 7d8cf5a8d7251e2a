"""START (GM): start the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Start

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_start_game(c: list[Token]) -> Draft:
    return Draft(Start)


def handle(ctx: Context, command: Start) -> None:
    from gm.commands.handlers.create import start

    start(ctx, command)


COMMAND = CommandSpec(
    value=Start,
    keywords=("START",),
    rules={"start_game": read_start_game},
    handle=handle,
    usage={
        "START": "START takes nothing after it",
    },
)
