"""AHEAD <phase kind> <order>: an order for the next phase of that kind, checked when it
opens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, joined, kind_of_phase
from gm.commands.spec import CommandSpec
from gm.commands.values import Ahead

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_ahead(c: list[Token]) -> Draft:
    kind, *words = c
    phase_type, text = kind_of_phase(str(kind)), joined(words)
    return Draft(lambda line: Ahead(line, phase_type, text))


def handle(ctx: Context, command: Ahead) -> None:
    from gm.commands.handlers.ahead import ahead

    ahead(ctx, command)


COMMAND = CommandSpec(
    value=Ahead,
    keywords=("AHEAD",),
    rules={"ahead": read_ahead},
    handle=handle,
    usage={
        "AHEAD": (
            "AHEAD needs the kind of phase (MOVEMENT, RETREAT or ADJUSTMENT) and an order, or"
            " CLEAR: AHEAD RETREAT A Bur-Par, AHEAD ADJUSTMENT Build A Par or AHEAD CLEAR"
        ),
    },
)
