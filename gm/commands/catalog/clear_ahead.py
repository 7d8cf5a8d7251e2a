"""AHEAD CLEAR: withdraw the orders sent ahead."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import ClearAhead

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_clear_ahead(c: list[Token]) -> Draft:
    return Draft(ClearAhead)


def handle(ctx: Context, command: ClearAhead) -> None:
    from gm.commands.handlers.ahead import clear_ahead

    clear_ahead(ctx, command)


COMMAND = CommandSpec(
    value=ClearAhead,
    keywords=("AHEAD",),
    rules={"clear_ahead": read_clear_ahead},
    handle=handle,
)
