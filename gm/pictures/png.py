"""PNG pictures for mail clients that show no SVG (most webmail), drawn from the SVG.

Two ways to draw, the same picture (tests/pictures/test_picture_paint.py compares them pixel
by pixel):
- gm.pictures.paint reads the SVG that gm.pictures.svg writes and paints it with Skia. About
  20-40 ms a picture here with the encoding below, the goal being 50
  (benchmarks/bench_pictures.py).
- resvg (a self-contained SVG renderer in Rust) draws any SVG, at about 60-80 ms: used where
  Skia cannot be loaded (the skia-python wheel needs the system's libEGL and libGL, Debian's
  libegl1 and libgl1; deploy/GUIDE.md), said once in the log. Its fonts: DejaVu Sans when the
  system has it, read into memory once (a font given by its file is opened again for every
  text drawn), else the system's fonts.

A picture is drawn at its own size, but at most `MAX_WIDTH` pixels wide: the HTML report
shows it no wider (templates/report/phase-body.html.j2), and a larger picture (Abstraction2's
board is 1421 wide) costs more to draw and to encode for nothing seen; the SVG beside it is
for zooming.

The PNG is an indexed (palette) image of at most `COLOURS` colours, a third the size of the
full-colour one and alike to the eye (gm.pictures.palette: a picture Skia painted on a kept
board takes the board's indices and, for what was painted on it, places in the palette its
variant's boards share, gm.pictures.shared_palette); `encode_indexed` writes the PNG. tests/
pictures/test_picture_indexed.py compares each indexed picture with the full-colour painting
pixel by pixel. `encode_rgba` still writes a full-colour PNG (what that test compares with).

The last few pictures are remembered by their SVG text, so the same board asked
for again (the start mail, then MAP of the same phase) is drawn once.
"""

from __future__ import annotations

import io
import logging
import re
import struct
import threading
import zlib
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import deflate
import numpy as np
import resvg
from isal import isal_zlib
from PIL import Image

from gm.pictures.palette import COLOURS, SNAP, quantise, rows_on_board, snapped

log = logging.getLogger(__name__)

MAX_WIDTH = 1140  # pixels: the widest the HTML report shows a picture
LEVEL = 5  # libdeflate's (encode_indexed)
_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_SIZE = re.compile(r'<svg([^>]*?) width="([0-9.]+)" height="([0-9.]+)"')
_LOCAL = threading.local()  # .options: this thread's resvg parsing options (fonts loaded)
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
__all__ = ["COLOURS", "SNAP", "PictureError", "encode_indexed", "encode_rgba", "index_png",
           "render_png", "svg_to_png"]

Renderer = Literal["skia", "resvg"]


class PictureError(ValueError):
    """An SVG that cannot be drawn as PNG."""


def svg_to_png(svg: str, zoom: float | None = None) -> bytes:
    """The SVG picture as PNG bytes (remembered for the last few pictures). `zoom` scales it
    (2: sharper and four times larger); without it the picture keeps its size but is at most
    MAX_WIDTH pixels wide."""
    return _remembered(svg, zoom)


@lru_cache(maxsize=8)
def _remembered(svg: str, zoom: float | None) -> bytes:
    return render_png(svg, zoom)


def render_png(svg: str, zoom: float | None = None, renderer: Renderer | None = None,
               *, indexed: bool = True) -> bytes:
    """svg_to_png without remembering (what benchmarks/bench_pictures.py times). `renderer`:
    which draws it (default: Skia where it can be loaded, else resvg); `indexed`: False for
    the full-colour PNG (what the indexed one is compared with)."""
    size = _SIZE.search(svg)
    if zoom is None:
        zoom = 1.0 if size is None else min(1.0, MAX_WIDTH / float(size.group(2)))
    renderer = renderer or default_renderer()
    draw = _DRAW[renderer]
    try:
        if indexed and renderer == "skia":
            return _skia_indexed(svg, zoom)
        drawn = draw(svg, zoom)
        if indexed:
            return index_png(drawn, svg)
        return encode_rgba(drawn.tobytes(), drawn.width, drawn.height)
    except Exception as exc:
        raise PictureError(f"the SVG cannot be drawn: {exc}") from exc
    except BaseException as exc:  # resvg reports an unreadable SVG as a Rust panic
        if type(exc).__name__ != "PanicException":
            raise
        raise PictureError(f"the SVG cannot be drawn: {exc}") from exc


@cache
def default_renderer() -> Renderer:
    """Skia where it can be loaded, else resvg (said once in the log)."""
    return "skia" if _painter() is not None else "resvg"


@cache
def _painter() -> ModuleType | None:
    try:
        from gm.pictures import paint
    except ImportError as exc:  # skia-python loads the system's libEGL and libGL
        log.warning("map pictures are drawn by resvg, about three times slower: Skia cannot "
                    "be loaded (%s; on Debian: apt-get install libegl1 libgl1)", exc)
        return None
    return paint


def _skia_image(svg: str, zoom: float) -> Image.Image:
    paint = _painter()
    if paint is None:
        raise PictureError("Skia cannot be loaded here")
    pixels, width, height = paint.paint_rgba(svg, zoom)
    return Image.frombuffer("RGBA", (width, height), pixels, "raw", "RGBA", 0, 1)


def _skia_indexed(svg: str, zoom: float) -> bytes:
    """The indexed PNG Skia paints, quantised on its board where it has one."""
    paint = _painter()
    if paint is None:
        raise PictureError("Skia cannot be loaded here")
    painted = paint.paint_on_board(svg, zoom)
    board = painted.board
    source = None if board is None else board.source
    found = None if board is None else rows_on_board(
        painted.pixels, painted.width, painted.height, board.pixels, board.derived, svg,
        None if source is None else (source.pixels, source.derived, board.changed))
    if board is not None and "palette" in board.derived:
        board.source = board.changed = None  # its palette worked out: not held any longer
    if found is None:
        return index_png(Image.frombuffer("RGBA", (painted.width, painted.height),
                                          painted.pixels, "raw", "RGBA", 0, 1), svg)
    return _encode_rows(found[0], snapped(found[1], svg))


def encode_rgba(pixels: object, width: int, height: int) -> bytes:
    """A PNG of `height` rows of `width` RGBA pixels (any buffer, row after row): each row
    unfiltered, deflated at ISA-L's fastest level."""
    stride = width * 4
    data = np.frombuffer(memoryview(pixels).cast("B"), np.uint8)  # type: ignore[arg-type]
    if data.size != stride * height:
        raise PictureError(f"{data.size} bytes are not {width}x{height} RGBA pixels")
    rows = np.zeros((height, stride + 1), np.uint8)  # each row behind its filter byte (0: none)
    rows[:, 1:] = data.reshape(height, stride)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header),
                     _chunk(b"IDAT", isal_zlib.compress(rows, 1)), _chunk(b"IEND", b"")))


def index_png(rgba: Image.Image, svg: str = "") -> bytes:
    """The opaque RGBA picture as an indexed PNG of at most COLOURS colours, its palette
    colours snapped to the colours `svg` names (see above)."""
    indices, palette = quantise(np.asarray(rgba.convert("RGBA")), COLOURS)
    return encode_indexed(indices, snapped(palette, svg))


def encode_indexed(indices: np.ndarray[Any, np.dtype[np.uint8]], palette: bytes) -> bytes:
    """A PNG of the rows of palette `indices` and its `palette` (r, g, b bytes a colour): each
    row unfiltered, deflated by libdeflate at level 5: a little smaller than zlib's level 6 (as
    Pillow writes it) in less than half the time. libdeflate's level 6 makes the standard
    board's pictures 0.5% smaller (75.5 kB against 75.9, 40 games' two pictures) in 4.1 ms
    against 3.45; its level 4 is no faster than 5 and 3% larger; ISA-L's fastest level takes
    0.8 ms, but its files are an eighth larger: a player's mailbox pays for every report."""
    height, width = indices.shape
    rows = np.zeros((height, width + 1), np.uint8)  # each row behind its filter byte (0: none)
    rows[:, 1:] = indices
    return _encode_rows(rows, palette)


def _encode_rows(rows: np.ndarray[Any, np.dtype[np.uint8]], palette: bytes) -> bytes:
    """encode_indexed of rows laid out already, each behind its filter byte (0)."""
    height, width = rows.shape[0], rows.shape[1] - 1
    used = min(256, len(palette) // 3, int(rows.max()) + 1 if rows.size else 1)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette[:used * 3]),
                     _chunk(b"IDAT", bytes(deflate.zlib_compress(rows, LEVEL))),
                     _chunk(b"IEND", b"")))


def _chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind))))


@cache
def _font_data() -> tuple[bytes, ...]:
    """The DejaVu Sans font files' contents (none if the system has none)."""
    return tuple(p.read_bytes() for folder in _FONT_DIRS
                 for p in sorted(folder.glob("DejaVuSans*.ttf")))


def _resvg_options() -> resvg.usvg.Options:
    options: resvg.usvg.Options | None = getattr(_LOCAL, "options", None)
    if options is None:
        options = resvg.usvg.Options.default()
        fonts = _font_data()
        if fonts:
            for data in fonts:
                options.load_font_data(data)
            options.font_family = "DejaVu Sans"
        else:
            options.load_system_fonts()
        _LOCAL.options = options
    return options


def _resvg_image(svg: str, zoom: float) -> Image.Image:
    size = _SIZE.search(svg)
    if zoom != 1.0 and size is not None:
        svg = (f'{svg[:size.start()]}<svg{size.group(1)} width="{float(size.group(2)) * zoom:.0f}" '
               f'height="{float(size.group(3)) * zoom:.0f}"{svg[size.end():]}')
    tree = resvg.usvg.Tree.from_str(svg, _resvg_options())
    png = bytes(resvg.render(tree, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)))
    with Image.open(io.BytesIO(png)) as drawn:
        rgba = drawn.convert("RGBA")
    alpha = rgba.getchannel("A").getextrema()
    if isinstance(alpha[0], int) and alpha[0] < 255:  # not opaque: on white, as Skia paints
        rgba = Image.alpha_composite(Image.new("RGBA", rgba.size, "#ffffff"), rgba)
    return rgba


_DRAW: dict[Renderer, Callable[[str, float], Image.Image]] = {
    "skia": _skia_image, "resvg": _resvg_image}
