"""ORDERS: the signed-on power's orders for the open phase as they stand, in words and drawn
on the board, nothing changed (order taking: gm.commands.handlers.order_taking)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.order_taking import OrderTaking
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import ListOrders

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_list_orders(c: list[Token]) -> Draft:
    return Draft(ListOrders)


def handle(ctx: Context, command: ListOrders) -> None:
    """ORDERS: the power's orders listed and drawn (OrderTaking.listing)."""
    OrderTaking.of(ctx).listing(command)


COMMAND = CommandSpec(
    value=ListOrders,
    keywords=("ORDERS",),
    rules={"list_orders": read_list_orders},
    handle=handle,
    usage={
        "ORDERS": "ORDERS takes nothing after it",
    },
    answers_only=True,
    help=(
        HelpLines("ORDERS", 25, """\
    ORDERS                     list your orders for the current phase and draw
                               them on the map (nothing is changed)
"""),
    ),
)
