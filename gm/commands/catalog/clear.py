"""CLEAR: remove the power's orders for the current phase (order taking:
gm.commands.handlers.order_taking)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.order_taking import OrderTaking
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Clear

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_clear(c: list[Token]) -> Draft:
    return Draft(Clear)


def handle(ctx: Context, command: Clear) -> None:
    """CLEAR: the power's orders for the phase withdrawn (OrderTaking.clear)."""
    OrderTaking.of(ctx).clear(command)


COMMAND = CommandSpec(
    value=Clear,
    keywords=("CLEAR",),
    rules={"clear": read_clear},
    handle=handle,
    usage={
        "CLEAR": "CLEAR takes nothing after it",
    },
    help=(
        HelpLines("ORDERS", 20, """\
    CLEAR                      remove all your orders for the current phase
"""),
    ),
)
