"""SET EARLY ON|OFF (GM): process as soon as every power has ordered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import SetEarly

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_early(c: list[Token]) -> Draft:
    early = str(c[0]).lower() == "on"
    return Draft(lambda line: SetEarly(line, early))


def handle(ctx: Context, command: SetEarly) -> None:
    from gm.commands.handlers.gm_settings import set_early

    set_early(ctx, command)


COMMAND = CommandSpec(
    value=SetEarly,
    keywords=("SET",),
    rules={"set_early": read_set_early},
    handle=handle,
    set_usage={
        "EARLY": "SET EARLY needs ON or OFF: SET EARLY ON",
    },
)
