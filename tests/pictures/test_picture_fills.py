"""A new board whose provinces' colours alone differ from a kept board's is that board refilled
(gm.pictures.fills): the same pixels as the board painted whole, and the picture on it too."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gm.pictures import paint
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from tests.pictures.test_picture_board_cache import _whole


@pytest.mark.parametrize("name", ["standard", "chaos2"])
def test_a_refilled_board_is_the_board_painted_whole(name: str) -> None:
    variant = get_variant(name)
    start = variant.start_state()
    neutral = sorted(set(variant.map.centres) - set(start.owners))
    owners = {**start.owners, **{c: variant.power_names[0] for c in neutral[:2]}}
    owned = sorted(start.owners)
    owners[owned[0]] = variant.power_names[1]  # a home centre taken by another power
    del owners[owned[-1]]  # a home centre left without an owner
    later = replace(start, owners=owners)
    _whole(render_map_svg(variant, start, "The start"))  # kept, with its fills
    refilled = paint._boards.refilled
    svg = render_map_svg(variant, later, "Later")
    on_kept, _, _ = paint.paint_rgba(svg, 1.0)
    assert paint._boards.refilled == refilled + 1  # refilled, not painted whole
    assert np.array_equal(on_kept, _whole(svg))
    assert not np.array_equal(on_kept, _whole(render_map_svg(variant, start, "Later")))


def test_a_board_of_other_shapes_is_painted_whole() -> None:
    """The fills of a kept board are no use for a board at another zoom: painted whole."""
    variant = get_variant("standard")
    start = variant.start_state()
    _whole(render_map_svg(variant, start, "The start"))
    refilled = paint._boards.refilled
    later = replace(start, owners={**start.owners, "Bel": "France"})
    zoomed, _, _ = paint.paint_rgba(render_map_svg(variant, later, "Later"), 0.8)
    assert paint._boards.refilled == refilled
    paint._boards.kept.clear()
    assert np.array_equal(zoomed, paint.paint_rgba(render_map_svg(variant, later, "Later"),
                                                   0.8)[0])
