"""The province names are painted once as a layer and laid on every picture: what a player
sees is the names painted one by one, within a step of rounding."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gm.pictures import paint
from gm.variants import get_variant
from tests.support.picture_cases import movement


def _painted(svg: str) -> np.ndarray:
    paint._boards.kept.clear()
    pixels, _, _ = paint.paint_rgba(svg, 1.0)
    return pixels.astype(np.int16)


def test_names_laid_as_a_layer_are_the_names_painted_one_by_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    svg = movement()
    paint._layers.kept.clear()
    laid = _painted(svg)
    assert len(paint._layers.kept) == 1
    monkeypatch.setattr(paint, "LAYERED", frozenset())
    one_by_one = _painted(svg)
    gap = np.abs(laid - one_by_one)
    assert gap.max() <= 2  # the rounding of one blend instead of two
    assert (gap > 0).mean() < 0.02  # only along the names' letters
    without = _painted(re.sub(r'<g class="labels".*?</g>', "", svg, count=1, flags=re.S))
    assert (np.abs(laid - without).reshape(-1, 4).max(axis=1) > 64).sum() > 1000  # names


def test_the_layer_is_painted_once_for_every_picture_of_the_variant() -> None:
    from gm.pictures.svg import render_map_svg

    variant = get_variant("standard")
    state = variant.start_state()
    paint._layers.kept.clear()
    first = paint.paint_rgba(render_map_svg(variant, state, "One"), 1.0)[0]
    second = paint.paint_rgba(render_map_svg(variant, state, "Another"), 1.0)[0]
    assert len(paint._layers.kept) == 1
    assert not np.array_equal(first, second)  # the headings differ, the names are laid alike
