"""SET ADDRESS CONFIRM <code>: the move to a new address, confirmed from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import ConfirmAddress, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_confirm_address(c: list[Token]) -> Draft:
    (code,) = c
    secret = Secret(str(code))
    return Draft(lambda line: ConfirmAddress(line, secret), (code,))


def handle(ctx: Context, command: ConfirmAddress) -> None:
    from gm.commands.handlers.address import confirm_address

    confirm_address(ctx, command)


COMMAND = CommandSpec(
    value=ConfirmAddress,
    keywords=("SET",),
    rules={"confirm_address": read_confirm_address},
    handle=handle,
    without_signon=True,
)
