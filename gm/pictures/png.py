"""PNG pictures for mail clients that show no SVG (most webmail): the SVG rendered by resvg.

resvg is a self-contained SVG renderer written in Rust (no system library beside the wheel) that
draws everything the pictures use: patterns, dashes, and the label halos of SVG 2's
`paint-order`, which CairoSVG leaves out (its labels come out white on white). Of its Python
bindings, `resvg` keeps the parsing options, fonts included, from one picture to the next and
renders a picture in about a third of the time `resvg-py` takes here
(benchmarks/bench_pictures.py). Fonts: DejaVu Sans (Debian's fonts-dejavu-core) when the system
has it, read into memory once (a font given by its file is opened and read again for every
text drawn: that took two thirds of the time to read a picture); else the system's fonts.

A picture is drawn at its own size, but at most `MAX_WIDTH` pixels wide: the HTML report
shows it no wider (templates/report/phase-body.html.j2), and a larger picture (Abstraction2's
board is 1421 wide) costs more to draw and to encode for nothing seen; the SVG beside it is
for zooming. The last few pictures are remembered by their SVG text, so the same board asked
for again (the start mail, then MAP of the same phase) is drawn once.
"""

from __future__ import annotations

import re
import threading
from functools import cache, lru_cache
from pathlib import Path

import resvg

MAX_WIDTH = 1140  # pixels: the widest the HTML report shows a picture
_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_SIZE = re.compile(r'<svg([^>]*?) width="([0-9.]+)" height="([0-9.]+)"')
_LOCAL = threading.local()  # .options: this thread's parsing options (fonts loaded)


class PictureError(ValueError):
    """An SVG that cannot be drawn as PNG."""


@cache
def _font_data() -> tuple[bytes, ...]:
    """The DejaVu Sans font files' contents (none if the system has none)."""
    return tuple(p.read_bytes() for folder in _FONT_DIRS
                 for p in sorted(folder.glob("DejaVuSans*.ttf")))


def _options() -> resvg.usvg.Options:
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


def svg_to_png(svg: str, zoom: float | None = None) -> bytes:
    """The SVG picture as PNG bytes (remembered for the last few pictures). `zoom` scales it
    (2: sharper and four times larger); without it the picture keeps its size but is at most
    MAX_WIDTH pixels wide."""
    return _remembered(svg, zoom)


@lru_cache(maxsize=8)
def _remembered(svg: str, zoom: float | None) -> bytes:
    return render_png(svg, zoom)


def render_png(svg: str, zoom: float | None = None) -> bytes:
    """svg_to_png without remembering (what benchmarks/bench_pictures.py times)."""
    size = _SIZE.search(svg)
    if zoom is None:
        zoom = 1.0 if size is None else min(1.0, MAX_WIDTH / float(size.group(2)))
    if zoom != 1.0 and size is not None:
        svg = (f'{svg[:size.start()]}<svg{size.group(1)} width="{float(size.group(2)) * zoom:.0f}" '
               f'height="{float(size.group(3)) * zoom:.0f}"{svg[size.end():]}')
    try:
        tree = resvg.usvg.Tree.from_str(svg, _options())
        return bytes(resvg.render(tree, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)))
    except Exception as exc:
        raise PictureError(f"the SVG cannot be drawn: {exc}") from exc
    except BaseException as exc:  # the binding reports an unreadable SVG as a Rust panic
        if type(exc).__name__ != "PanicException":
            raise
        raise PictureError(f"the SVG cannot be drawn: {exc}") from exc
