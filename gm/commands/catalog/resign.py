"""RESIGN: leave the game for good."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Resign

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_resign(c: list[Token]) -> Draft:
    return Draft(Resign)


def handle(ctx: Context, command: Resign) -> None:
    from gm.commands.handlers.player_settings import resign

    resign(ctx, command)


COMMAND = CommandSpec(
    value=Resign,
    keywords=("RESIGN",),
    rules={"resign": read_resign},
    handle=handle,
    usage={
        "RESIGN": "RESIGN takes nothing after it",
    },
)
