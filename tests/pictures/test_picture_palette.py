"""A picture painted on a kept board is quantised in two parts (gm.pictures.palette): the board
once, then only what was painted on it. The colours a player sees are the SVG's own, exactly,
and the picture looks like the full-colour painting as much as one quantised whole does."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image

from gm.engine.game import advance
from gm.pictures import paint, palette
from gm.pictures.png import COLOURS, index_png, render_png
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from tests.pictures.test_picture_indexed import AREA, SHARE, _compare, _decode
from tests.support.picture_cases import chaos, movement


def _colours(pixels: np.ndarray) -> set[tuple[int, int, int]]:
    return {tuple(c) for c in np.unique(pixels.reshape(-1, 3), axis=0).tolist()}


@pytest.mark.parametrize("case", [movement, chaos])
def test_a_picture_on_a_kept_board_keeps_the_svgs_colours(case: object) -> None:
    svg = case()  # type: ignore[operator]
    retitled = svg.replace("<title>", "<title>Another game: ", 1)
    paint._boards.kept.clear()
    render_png(svg)  # paints the board and keeps it, with its palette
    kept = next(iter(paint._boards.kept.values()))
    assert kept.derived["palette"] is not None
    png = render_png(retitled)  # on the kept board
    full = _decode(render_png(retitled, indexed=False))
    drawn = _decode(png)
    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "P"
        assert len(image.getcolors(COLOURS) or ()) <= COLOURS
    share, inside = _compare(full, drawn)
    assert share <= SHARE and inside <= AREA, (share, inside)
    named = {tuple(c) for c in palette.named_colours(svg).tolist()}
    painted = named & _colours(full)  # every SVG colour the painting shows...
    assert len(painted) >= 10
    assert painted <= _colours(drawn)  # ...is in the indexed picture, exactly
    with Image.open(io.BytesIO(render_png(retitled, indexed=False))) as whole:
        quantised_whole = _decode(index_png(whole.convert("RGBA"), retitled))
    assert share <= _compare(full, quantised_whole)[0] * 2  # no worse than quantised whole


def test_a_board_of_too_many_named_colours_is_quantised_whole() -> None:
    """An SVG naming more colours than a palette holds beside their shades: on_board declines
    (the PNG writer then quantises the picture whole), and remembers it for the board."""
    colours = [f"#{i:02x}{255 - i:02x}80" for i in range(COLOURS)]
    svg = "".join(f'<rect fill="{c}"/>' for c in colours)
    rgba = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] + [255] for c in colours],
                    np.uint8)
    board = np.ascontiguousarray(np.tile(rgba, (4, 1)).reshape(16, -1))  # 16 rows of 64
    board[0, :4] = (1, 2, 3, 255)  # a shade among them
    derived: dict[str, object] = {}
    assert palette.on_board(board.copy(), 64, 16, board, derived, svg) is None
    assert derived == {"palette": None}


def test_what_is_painted_on_the_board_gets_the_colours_left() -> None:
    """The board's pixels keep the board's indices; a pixel painted on it in a named colour
    takes that colour exactly, a shade the nearest the palette has."""
    sea, land, unit = (0x1F, 0x4E, 0x79), (0xE8, 0xD8, 0xB0), (0xC0, 0x10, 0x20)
    svg = "".join(f'<rect fill="#{r:02x}{g:02x}{b:02x}"/>' for r, g, b in (sea, land, unit))
    board = np.zeros((8, 8, 4), np.uint8)
    board[..., 3] = 255
    board[:, :4, :3] = sea
    board[:, 4:, :3] = land
    board[:, 4, :3] = (0x80, 0x90, 0x94)  # the coast's shade
    pixels = board.copy()
    pixels[2:4, 5:7, :3] = unit
    pixels[4, 5, :3] = (0xD0, 0x70, 0x68)  # the unit's edge on the land
    found = palette.on_board(pixels.reshape(8, 32), 8, 8, board.reshape(8, 32), {}, svg)
    assert found is not None
    indices, colours = found
    shown = colours[indices]
    assert (shown[:, :4] == sea).all() and (shown[:, 5:][0] == land).all()
    assert (shown[2:4, 5:7] == unit).all()
    assert np.abs(shown[4, 5] - (0xD0, 0x70, 0x68)).max() <= palette.NEAR
    assert np.abs(shown[0, 4] - (0x80, 0x90, 0x94)).max() <= palette.NEAR


def test_a_new_boards_palette_is_grown_from_a_kept_boards() -> None:
    """A board of other owners takes the palette of the board kept before it, grown by the
    colours of the pixels that differ (its rows copied, not every pixel indexed again): the
    SVG's colours exact, the picture like the full-colour painting; the other picture of the
    phase, a board at another height, takes the same palette."""
    variant = get_variant("standard")
    start = variant.start_state()
    paint._boards.kept.clear()
    render_png(render_map_svg(variant, start, "The start"))
    first = next(iter(paint._boards.kept.values()))
    owners = {**start.owners, "Bel": "France", "Hol": "Germany", "Ser": "Austria"}
    later = replace(start, owners=owners, phase=replace(start.phase, year=1902))
    for svg in (render_map_svg(variant, later, "Three centres taken"),
                render_map_svg(variant, later, "The orders", results=_moves(variant, later))):
        png = render_png(svg)
        board = list(paint._boards.kept.values())[-1]
        assert board is not first and board.derived["palette"][1] is first.derived["palette"][1]
        assert board.source is None  # its palette worked out: the first board not held
        full = _decode(render_png(svg, indexed=False))
        drawn = _decode(png)
        share, inside = _compare(full, drawn)
        assert share <= SHARE and inside <= AREA, (share, inside)
        named = {tuple(c) for c in palette.named_colours(svg).tolist()}
        assert named & _colours(full) <= _colours(drawn)


def _moves(variant: object, state: object) -> tuple[object, ...]:
    from tests.support.positions import submitted

    step = advance(variant, state, submitted(  # type: ignore[arg-type]
        variant, state, "France: A Par - Bur", "Germany: A Mun - Bur"))
    return step.reports[0].results  # type: ignore[no-any-return]
