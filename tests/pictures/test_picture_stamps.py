"""The centres and the units are laid as kept layers, one blend a group: what a player sees is
them drawn one by one, within a step or two of rounding (gm.pictures.stamps)."""

from __future__ import annotations

import numpy as np
import pytest

from gm.pictures import paint
from gm.pictures.stamps import Stamp, Stamps
from tests.support.picture_cases import chaos, movement


def _painted(svg: str) -> np.ndarray:
    paint._boards.kept.clear()
    pixels, _, _ = paint.paint_rgba(svg, 1.0)
    return pixels.astype(np.int16)


@pytest.mark.parametrize("picture", [movement, chaos])
def test_centres_and_units_laid_are_them_drawn_one_by_one(
        monkeypatch: pytest.MonkeyPatch, picture: object) -> None:
    svg = picture()  # type: ignore[operator]
    stamps = paint._kit().stamps
    before = stamps.laid
    laid = _painted(svg)
    assert stamps.laid - before == 1 + ('<g class="unit ' in svg)  # the centres, the units
    monkeypatch.setattr(paint, "STAMPED", frozenset())
    one_by_one = _painted(svg)
    gap = np.abs(laid - one_by_one)
    assert gap.max() <= 2  # one blend of a unit's disc, rim and letter instead of three
    assert (gap > 0).mean() < 0.01  # only along their edges and letters
    centres = svg[:svg.index('<g class="units"')] + svg[svg.index('<g class="labels"'):]
    without = _painted(centres.replace('<g class="centres"', '<g class="none"', 1))
    assert (np.abs(one_by_one - without).reshape(-1, 4).max(axis=1) > 64).sum() > 300


def _layer(places: list[int], colour: int) -> Stamp:
    return Stamp(np.array(places, np.int32), np.array([[colour, 0, 0, 255]] * len(places),
                                                      np.uint8),
                 (0, 4, 0, 4))  # boxes that meet: their pixels looked at


def test_layers_covering_the_same_pixel_are_not_laid() -> None:
    pixels = np.full((4, 16), 255, np.uint8)
    stamps = Stamps()
    assert not stamps.lay([_layer([1, 2], 10), _layer([2, 3], 20)], pixels)
    assert (pixels == 255).all() and stamps.laid == 0
    assert stamps.lay([_layer([5, 1], 10), _layer([3], 20)], pixels)
    flat = pixels.reshape(-1, 4)
    assert flat[1, 0] == 10 and flat[5, 0] == 10 and flat[3, 0] == 20 and flat[0, 0] == 255


def test_kept_layers_are_bounded() -> None:
    import skia

    recorder = skia.PictureRecorder()
    canvas = recorder.beginRecording(skia.Rect.MakeLTRB(-1e6, -1e6, 1e6, 1e6),
                                     skia.RTreeFactory()())
    canvas.drawRect(skia.Rect.MakeLTRB(2, 2, 5, 5), skia.Paint())
    picture = recorder.finishRecordingAsPicture()
    stamps = Stamps(size=2)
    for key in "abc":
        stamp = stamps.layer(key, picture, skia.Matrix(), 20, 20)
        assert stamp is not None and sorted(stamp.places.tolist()) == [
            row * 20 + column for row in range(2, 5) for column in range(2, 5)]
    assert list(stamps.kept) == ["b", "c"]
    assert stamps.layer(None, picture, skia.Matrix(), 20, 20) is not None
    assert list(stamps.kept) == ["b", "c"]  # painted for one picture: not kept
