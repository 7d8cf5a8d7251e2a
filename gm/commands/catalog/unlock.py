"""UNLOCK <power> | GM | ALL (GM): forget the wrong passwords counted against sign-ons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Unlock

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_unlock(c: list[Token]) -> Draft:
    return Draft(lambda line: Unlock(line, joined(c)))


def handle(ctx: Context, command: Unlock) -> None:
    from gm.commands.handlers.seats import unlock

    unlock(ctx, command)


COMMAND = CommandSpec(
    value=Unlock,
    keywords=("UNLOCK",),
    rules={"unlock": read_unlock},
    handle=handle,
    usage={
        "UNLOCK": "UNLOCK needs a power, GM or ALL: UNLOCK France",
    },
)
