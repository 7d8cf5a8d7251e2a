"""SET PRESS NONE|WHITE|GREY|ALL (GM): what press is allowed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import PressPolicy, SetPress

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_press(c: list[Token]) -> Draft:
    word = str(c[0]).lower().replace("gray", "grey")
    policy = PressPolicy(word)
    return Draft(lambda line: SetPress(line, policy))


def handle(ctx: Context, command: SetPress) -> None:
    from gm.commands.handlers.gm_settings import set_press

    set_press(ctx, command)


COMMAND = CommandSpec(
    value=SetPress,
    keywords=("SET",),
    rules={"set_press": read_set_press},
    handle=handle,
    set_usage={
        "PRESS": (
            "SET PRESS needs NONE, WHITE (signed press only), GREY (anonymous press only) or ALL"
            " (both): SET PRESS WHITE"
        ),
    },
)
