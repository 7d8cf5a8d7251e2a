"""A deadline's pictures hold no more memory for many games than for a few: each picture's
title (its game and phase) is met once, and the memos keep only what is met again
(gm.pictures.second_sight); the board, names and units, met in every picture, are kept."""

from __future__ import annotations

import numpy as np

from gm.pictures import lines, paint
from gm.pictures.second_sight import SecondSight
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant


def test_a_thing_is_met_again_only_after_it_was_met() -> None:
    met = SecondSight(3)
    assert not met.again("a")
    assert met.again("a")
    assert not met.again("b")
    assert not met.again("c")
    assert not met.again("d")  # the bound reached: what was met is forgotten
    assert not met.again("a")


def _kept() -> tuple[int, ...]:
    kit = paint._kit()
    return (len(lines._kept), len(kit.outlines), len(kit.recorded), len(kit.sprites.kept),
            len(kit.stamps.kept))


def test_the_memos_do_not_grow_with_the_games_drawn() -> None:
    variant = get_variant("standard")
    state = variant.start_state()
    drawn = [paint.paint_rgba(render_map_svg(variant, state, f"game{n}: Spring 1901"), 1.0)[0]
             for n in range(3)]
    after_three = _kept()
    for n in range(3, 40):
        drawn.append(paint.paint_rgba(render_map_svg(variant, state,
                                                     f"game{n}: Spring 1901"), 1.0)[0])
    assert _kept() == after_three
    # what recurs is kept all the same: the board's lines, the provinces' names
    assert after_three[0] > 50 and after_three[2] > 50
    # and a title drawn without a memo is the title drawn with one
    again = paint.paint_rgba(render_map_svg(variant, state, "game7: Spring 1901"), 1.0)[0]
    assert np.array_equal(again, drawn[7])
