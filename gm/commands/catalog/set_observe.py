"""SET OBSERVE ON|OFF (GM): whether anyone may OBSERVE the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import SetObserve

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_observe(c: list[Token]) -> Draft:
    allowed = str(c[0]).lower() == "on"
    return Draft(lambda line: SetObserve(line, allowed))


def handle(ctx: Context, command: SetObserve) -> None:
    from gm.commands.handlers.observing import set_observe

    set_observe(ctx, command)


COMMAND = CommandSpec(
    value=SetObserve,
    keywords=("SET",),
    rules={"set_observe": read_set_observe},
    handle=handle,
    set_usage={
        "OBSERVE": (
            "SET OBSERVE needs ON or OFF (whether anyone may OBSERVE the game): SET OBSERVE OFF"
        ),
    },
)
