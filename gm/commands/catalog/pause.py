"""PAUSE (GM): stop the deadlines; no orders are taken until RESUME."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Pause

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_pause(c: list[Token]) -> Draft:
    return Draft(Pause)


def handle(ctx: Context, command: Pause) -> None:
    from gm.commands.handlers.gm_control import pause

    pause(ctx, command)


COMMAND = CommandSpec(
    value=Pause,
    keywords=("PAUSE",),
    rules={"pause": read_pause},
    handle=handle,
    usage={
        "PAUSE": "PAUSE takes nothing after it",
    },
)
