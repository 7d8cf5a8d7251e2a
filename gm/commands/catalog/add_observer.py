"""ADD OBSERVER <address> (GM): one more address for the observers' report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec
from gm.commands.values import AddObserver

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_add_observer(c: list[Token]) -> Draft:
    address = bare_address(c[0])
    return Draft(lambda line: AddObserver(line, address))


def handle(ctx: Context, command: AddObserver) -> None:
    from gm.commands.handlers.gm_settings import add_observer

    add_observer(ctx, command)


COMMAND = CommandSpec(
    value=AddObserver,
    keywords=("ADD",),
    rules={"add_observer": read_add_observer},
    handle=handle,
)
