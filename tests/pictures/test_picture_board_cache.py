"""A picture painted on a kept board is the picture painted whole, pixel for pixel."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gm.engine.errors import OrderError
from gm.engine.game import advance
from gm.engine.results import Submitted
from gm.notation import parse_order
from gm.pictures import paint
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant

ORDERS = ("France: A Par - Bur", "France: A Mar S A Par - Bur", "Germany: A Mun - Bur",
          "Russia: F Sev - BLA", "Turkey: F Ank - BLA")


def _whole(svg: str) -> np.ndarray:
    paint._boards.kept.clear()
    pixels, _, _ = paint.paint_rgba(svg, 1.0)
    return pixels


@pytest.mark.parametrize("name", ["standard", "chaos2", "deluge2"])
def test_a_kept_board_gives_the_same_pixels(name: str) -> None:
    variant = get_variant(name)
    state = variant.start_state()
    first = render_map_svg(variant, state, "Game one, Spring 1901")
    other = render_map_svg(variant, state, "Another game, Spring 1901")
    _whole(first)  # keeps the board
    assert len(paint._boards.kept) == 1
    on_kept, _, _ = paint.paint_rgba(other, 1.0)
    assert len(paint._boards.kept) == 1  # the same board: no other kept
    assert np.array_equal(on_kept, _whole(other))
    assert not np.array_equal(on_kept, _whole(first))  # the headings differ


def test_orders_on_a_kept_board_give_the_same_pixels() -> None:
    variant = get_variant("standard")
    state = variant.start_state()
    submitted = []
    for line in ORDERS:
        power, text = (s.strip() for s in line.split(":", 1))
        order = parse_order(text, variant.map, state.phase.type)
        assert not isinstance(order, OrderError), order
        submitted.append(Submitted(power, text, order))
    results = advance(variant, state, submitted).reports[0].results
    _whole(render_map_svg(variant, state, "The start"))
    orders = render_map_svg(variant, state, "Spring 1901 orders", results=results)
    on_kept, _, _ = paint.paint_rgba(orders, 1.0)
    assert np.array_equal(on_kept, _whole(orders))


def test_another_board_is_painted_anew() -> None:
    variant = get_variant("standard")
    start = variant.start_state()
    _whole(render_map_svg(variant, start, "The start"))
    owners = dict(start.owners)
    owners["Bel"] = "France"  # a centre more tinted: another board
    changed = render_map_svg(variant, replace(start, owners=owners), "Belgium taken")
    on_kept, _, _ = paint.paint_rgba(changed, 1.0)
    assert len(paint._boards.kept) == 2
    assert np.array_equal(on_kept, _whole(changed))
    assert not np.array_equal(on_kept, _whole(render_map_svg(variant, start, "Belgium taken")))


def _orders_and_start(name: str) -> tuple[str, str]:
    """A phase's two pictures, of one board: the orders (a taller legend) and the start."""
    variant = get_variant(name)
    state = variant.start_state()
    submitted = []
    for line in ORDERS if name == "standard" else ():
        power, text = (s.strip() for s in line.split(":", 1))
        order = parse_order(text, variant.map, state.phase.type)
        assert not isinstance(order, OrderError), order
        submitted.append(Submitted(power, text, order))
    results = advance(variant, state, submitted).reports[0].results
    return (render_map_svg(variant, state, "Spring 1901 orders", results=results),
            render_map_svg(variant, state, "The start"))


@pytest.mark.parametrize("taller_first", [True, False])
def test_a_board_kept_at_another_height_gives_the_same_pixels(taller_first: bool) -> None:
    """A phase's two pictures differ in their legends' heights: the board painted for one is
    the other's, cut or with white rows below."""
    orders, start = _orders_and_start("standard")
    first, then = (orders, start) if taller_first else (start, orders)
    whole = _whole(then)
    _whole(first)
    painted = paint._boards.painted
    on_kept, _, height = paint.paint_rgba(then, 1.0)
    assert paint._boards.painted == painted  # not painted anew
    assert height != _whole(first).shape[0]  # at another height
    assert np.array_equal(on_kept, whole)


def test_a_board_at_another_scale_is_painted_anew() -> None:
    """At a zoom, pictures of two heights are scaled a little differently: no board shared."""
    orders, start = _orders_and_start("standard")
    paint._boards.kept.clear()
    whole, _, _ = paint.paint_rgba(start, 0.8)
    paint._boards.kept.clear()
    paint.paint_rgba(orders, 0.8)
    painted = paint._boards.painted
    on_kept, _, _ = paint.paint_rgba(start, 0.8)
    assert paint._boards.painted == painted + 1
    assert np.array_equal(on_kept, whole)
