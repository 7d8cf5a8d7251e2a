"""TERMINATE (GM): end the game; everyone is told."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Terminate

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_terminate(c: list[Token]) -> Draft:
    return Draft(Terminate)


def handle(ctx: Context, command: Terminate) -> None:
    from gm.commands.handlers.gm_control import terminate

    terminate(ctx, command)


COMMAND = CommandSpec(
    value=Terminate,
    keywords=("TERMINATE",),
    rules={"terminate": read_terminate},
    handle=handle,
    usage={
        "TERMINATE": "TERMINATE takes nothing after it",
    },
)
