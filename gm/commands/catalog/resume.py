"""RESUME (GM): start the deadlines again; the phase gets back the time it had left."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Resume

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_resume(c: list[Token]) -> Draft:
    return Draft(Resume)


def handle(ctx: Context, command: Resume) -> None:
    from gm.commands.handlers.gm_control import resume

    resume(ctx, command)


COMMAND = CommandSpec(
    value=Resume,
    keywords=("RESUME",),
    rules={"resume": read_resume},
    handle=handle,
    usage={
        "RESUME": "RESUME takes nothing after it",
    },
)
