"""SET ADDRESS <address>: move to a new address in every game, once confirmed from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec
from gm.commands.values import SetAddress

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_address(c: list[Token]) -> Draft:
    address = bare_address(c[0])
    return Draft(lambda line: SetAddress(line, address))


def handle(ctx: Context, command: SetAddress) -> None:
    from gm.commands.handlers.address import set_address

    set_address(ctx, command)


COMMAND = CommandSpec(
    value=SetAddress,
    keywords=("SET",),
    rules={"set_address": read_set_address},
    handle=handle,
    set_usage={
        "ADDRESS": (
            "SET ADDRESS needs your new e-mail address: SET ADDRESS new@example.org; from the new"
            " address, SET ADDRESS CONFIRM and the code mailed to it"
        ),
    },
)
