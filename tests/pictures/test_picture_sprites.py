"""Kept elements drawn on white (the legend) are copied in as the pixels they came out as the
first time: the same picture, pixel for pixel (gm.pictures.sprites)."""

from __future__ import annotations

import numpy as np
import skia

from gm.pictures import paint
from gm.pictures.sprites import Sprites
from tests.support.picture_cases import movement

WHITE = 0xFFFFFFFF
GREEN = 0xFF00FF00  # (as RGBA bytes read little-endian)


def _painted(svg: str) -> np.ndarray:
    pixels, _, _ = paint.paint_rgba(svg, 1.0)
    return pixels.copy()


def test_the_legend_copied_in_is_the_legend_drawn() -> None:
    svg = movement()
    sprites = paint._kit().sprites
    sprites.kept.clear()
    paint._boards.kept.clear()
    drawn = _painted(svg)  # every element drawn; the legend's pixels kept
    kept = [v for v in sprites.kept.values() if v is not None]
    assert len(kept) >= 10  # the powers' squares, the terrain's, the marks' words
    assert all(top > 900 for top, *_ in kept[:-1])  # below the board (the last: the heading)
    assert any(v is None for v in sprites.kept.values())  # the units, on the board: drawn
    before = sprites.copied
    copied = _painted(svg)
    assert sprites.copied - before >= len(kept)
    assert np.array_equal(drawn, copied)
    paint._boards.kept.clear()
    assert np.array_equal(drawn, _painted(svg))  # the board painted again, the legend copied


def _canvas(pixels: np.ndarray) -> tuple[object, object]:
    height, width = pixels.shape
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRasterDirect(info, pixels.view(np.uint8), width * 4)
    return surface, surface.getCanvas()


def _square() -> object:
    recorder = skia.PictureRecorder()
    canvas = recorder.beginRecording(skia.Rect.MakeLTRB(-1e6, -1e6, 1e6, 1e6),
                                     skia.RTreeFactory()())
    paint = skia.Paint()
    paint.setColor(0xFFFF0000)
    canvas.drawRect(skia.Rect.MakeLTRB(12, 12, 18, 18), paint)
    return recorder.finishRecordingAsPicture()


def test_a_sprite_is_copied_only_on_white() -> None:
    sprites = Sprites()
    pixels = np.full((40, 40), WHITE, np.uint32)
    surface, canvas = _canvas(pixels)
    square = _square()

    def draw() -> None:
        sprites.draw("square", pixels, skia.Matrix(), lambda: (square, True), canvas)

    draw()
    drawn = pixels.copy()
    assert sprites.copied == 0 and (drawn != WHITE).sum() == 36
    pixels[...] = WHITE
    draw()
    assert sprites.copied == 1 and np.array_equal(pixels, drawn)
    pixels[...] = WHITE
    pixels[10, 10] = GREEN  # within its bounds (two pixels wider): not all white under it
    draw()
    assert sprites.copied == 1  # played
    assert pixels[10, 10] == GREEN and (pixels[12:18, 12:18] == drawn[12:18, 12:18]).all()
    del surface


def test_a_patterned_drawing_is_not_kept() -> None:
    sprites = Sprites()
    pixels = np.full((40, 40), WHITE, np.uint32)
    surface, canvas = _canvas(pixels)
    sprites.draw("square", pixels, skia.Matrix(), lambda: (_square(), False), canvas)
    assert sprites.kept["square"] is None
    del surface


def test_sprites_are_bounded() -> None:
    sprites = Sprites(size=2)
    pixels = np.full((40, 40), WHITE, np.uint32)
    surface, canvas = _canvas(pixels)
    for key in "abc":
        sprites.draw(key, pixels, skia.Matrix(), lambda: (_square(), True), canvas)
    assert list(sprites.kept) == ["b", "c"]
    del surface
