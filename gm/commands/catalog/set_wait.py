"""SET WAIT / SET NO WAIT: wait for the deadline even when every power has ordered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import SetWait

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_wait(c: list[Token]) -> Draft:
    return Draft(lambda line: SetWait(line, True))


def read_set_no_wait(c: list[Token]) -> Draft:
    return Draft(lambda line: SetWait(line, False))


def handle(ctx: Context, command: SetWait) -> None:
    from gm.commands.handlers.player_settings import set_wait

    set_wait(ctx, command)


COMMAND = CommandSpec(
    value=SetWait,
    keywords=("SET",),
    rules={"set_wait": read_set_wait, "set_no_wait": read_set_no_wait},
    handle=handle,
    set_usage={
        "WAIT": "SET WAIT takes nothing after it (SET NO WAIT undoes it)",
        "NOWAIT": "SET NO WAIT takes nothing after it",
    },
)
