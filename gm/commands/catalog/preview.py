"""PREVIEW (GM): what processing now would give, without doing it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Preview

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_preview(c: list[Token]) -> Draft:
    return Draft(Preview)


def handle(ctx: Context, command: Preview) -> None:
    from gm.commands.handlers.gm_control import preview

    preview(ctx, command)


COMMAND = CommandSpec(
    value=Preview,
    keywords=("PREVIEW",),
    rules={"preview": read_preview},
    handle=handle,
    usage={
        "PREVIEW": "PREVIEW takes nothing after it",
    },
)
