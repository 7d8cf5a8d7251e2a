"""The acknowledgement's picture is drawn once for the same orders on the same board
(gm.play.order_picture_memo): the same orders again give the picture drawn before, the same
as drawing it anew; other orders, another power or a board that changed are drawn anew."""

from __future__ import annotations

import dataclasses

import pytest

from gm.engine.game import start_state
from gm.engine.orders import AnyOrder
from gm.engine.phase import PhaseType
from gm.engine.state import GameState
from gm.notation import parse_order
from gm.play import order_picture_memo
from gm.play.order_picture_memo import orders_picture
from gm.play.order_pictures import power_orders_picture
from gm.variants import Variant, get_variant


@pytest.fixture(autouse=True)
def _fresh() -> None:
    order_picture_memo.forget()


def _orders(variant: Variant, *lines: str) -> list[AnyOrder]:
    out = []
    for line in lines:
        order = parse_order(line, variant.map, PhaseType.MOVEMENT)
        assert not isinstance(order, Exception), order
        out.append(order)
    return out


def test_the_same_orders_on_the_same_board_are_drawn_once() -> None:
    std = get_variant("standard")
    state = start_state(std)
    orders = _orders(std, "A Par - Bur", "A Mar - Spa")
    first = orders_picture(std, state, "memo", "France", orders)
    again = orders_picture(std, dataclasses.replace(state), "memo", "France", list(orders))
    assert again is first  # an equal board, read anew: remembered
    assert first == power_orders_picture(std, state, "memo", "France", orders)


def test_other_orders_another_power_or_another_board_are_drawn_anew() -> None:
    std = get_variant("standard")
    state = start_state(std)
    orders = _orders(std, "A Par - Bur")
    first = orders_picture(std, state, "memo", "France", orders)
    other = orders_picture(std, state, "memo", "France", _orders(std, "A Par - Pic"))
    assert other.svg != first.svg and "Pic" in other.svg
    assert orders_picture(std, state, "memo", "Germany", orders).caption.endswith(
        "the orders of Germany as they stand")
    moved: GameState = dataclasses.replace(state, units=state.units[1:])  # a unit gone
    redrawn = orders_picture(std, moved, "memo", "France", orders)
    assert redrawn is not first
    assert redrawn == power_orders_picture(std, moved, "memo", "France", orders)
