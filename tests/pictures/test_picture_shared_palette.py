"""The boards of a variant and the pictures on them share one palette, grown as colours are
met (gm.pictures.shared_palette): every picture of a run of games, each with its own board,
still looks like its full-colour painting; a colour keeps its place once given; a palette that
had to place many pixels far from their colours is not grown by the next board."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gm.engine.game import advance
from gm.pictures import paint
from gm.pictures.png import render_png
from gm.pictures.shared_palette import WORN, Crowded, SharedPalette
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from tests.pictures.test_picture_indexed import AREA, SHARE, _compare, _decode
from tests.support.positions import submitted


def _games(count: int) -> list[tuple[str, str]]:
    """The two pictures (the orders, the position after) of `count` games, each with a board
    of its own (a neutral centre owned by a power, another in each game)."""
    variant = get_variant("standard")
    start = variant.start_state()
    neutral = sorted(set(variant.map.centres) - set(start.owners))
    out = []
    for i in range(count):
        power = variant.power_names[i % len(variant.power_names)]
        state = replace(start, owners={**start.owners, neutral[i % len(neutral)]: power})
        step = advance(variant, state, submitted(
            variant, state, "France: A Par - Bur", "Germany: A Mun - Bur",
            "Russia: F Sev - BLA", "Turkey: F Ank - BLA", "England: F Lon - ENG"))
        out.append((render_map_svg(variant, state, f"Game {i}: the orders",
                                   results=step.reports[0].results),
                    render_map_svg(variant, step.state, f"Game {i}: Fall 1901",
                                   previous=state)))
    return out


def test_each_picture_of_a_run_of_games_looks_like_its_painting() -> None:
    paint._boards.kept.clear()
    palettes = set()
    for orders, after in _games(8):
        for svg in (orders, after):
            png = render_png(svg)
            board = list(paint._boards.kept.values())[-1]
            palettes.add(id(board.derived["palette"][1]))
            share, inside = _compare(_decode(render_png(svg, indexed=False)), _decode(png))
            assert share <= SHARE and inside <= AREA, (share, inside)
    assert len(palettes) < 4  # shared, not one a board


def test_a_colour_keeps_its_place_and_new_ones_are_placed() -> None:
    def packed(*rgb: tuple[int, int, int]) -> np.ndarray:
        return np.array([r | g << 8 | b << 16 | 0xFF000000 for r, g, b in rgb], np.uint32)

    sea, land = (0x1F, 0x4E, 0x79), (0xE8, 0xD8, 0xB0)
    shared = SharedPalette(np.array([sea, land], np.int16), packed(sea, land),
                           np.array([0, 1], np.uint8))
    unit, near_land, far = (0xC0, 0x10, 0x20), (0xE0, 0xD0, 0xA8), (0x60, 0xA0, 0x30)
    named = np.sort(packed(sea, land, unit))
    first = shared.index(packed(land, unit, near_land, far, sea), named)
    colours = shared.snapshot()
    assert first[0] == 1 and first[4] == 0  # as the board placed them
    assert tuple(colours[first[1]]) == unit  # named: exactly
    assert first[2] == 1  # a shade within NEAR of the land: the land
    assert np.abs(colours[first[3]] - far).max() <= 16  # a far shade: a colour added near it
    again = shared.index(packed(far, unit, land), named)
    assert again.tolist() == [first[3], first[1], 1]
    assert shared.snapshot()[:len(colours)].tolist() == colours.tolist()  # nothing moved
    assert shared.growable()


@pytest.mark.parametrize("pixels", [WORN + 1, WORN // 2])
def test_a_palette_placing_many_pixels_far_is_not_grown(pixels: int) -> None:
    full = np.array([[i, i, i] for i in range(248)], np.int16)  # no room left for shades
    values = (full[:, 0].astype(np.uint32) * 0x010101) | np.uint32(0xFF000000)
    shared = SharedPalette(full, values, np.arange(248, dtype=np.uint8))
    red = np.full(pixels, 0xFF0000FF, np.uint32)  # pure red: far from every grey
    if pixels > WORN:  # declined (the picture quantised alone), the palette worn
        with pytest.raises(Crowded):
            shared.index(red, np.empty(0, np.uint32))
    else:
        shared.index(red, np.empty(0, np.uint32))
    assert shared.worn == (pixels > WORN)  # the next board: a palette of its own
    assert shared.growable() == (pixels <= WORN)
