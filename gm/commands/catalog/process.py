"""PROCESS (GM): adjudicate the current phase now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Process

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_process(c: list[Token]) -> Draft:
    return Draft(Process)


def handle(ctx: Context, command: Process) -> None:
    from gm.commands.handlers.gm_control import process

    process(ctx, command)


COMMAND = CommandSpec(
    value=Process,
    keywords=("PROCESS",),
    rules={"process": read_process},
    handle=handle,
    usage={
        "PROCESS": "PROCESS takes nothing after it",
    },
)
