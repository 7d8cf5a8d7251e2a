"""PNG pictures for mail clients that show no SVG (most webmail): the SVG rendered by resvg.

resvg is a self-contained SVG renderer written in Rust (no system library beside the wheel) that
draws everything the pictures use: patterns, dashes, and the label halos of SVG 2's
`paint-order`, which CairoSVG leaves out (its labels come out white on white). Of its Python
bindings, `resvg` keeps the parsing options, fonts included, from one picture to the next and
renders a picture in about a third of the time `resvg-py` takes here
(benchmarks/bench_pictures.py). Fonts: DejaVu Sans (Debian's fonts-dejavu-core) when the system
has it, loaded once; else the system's fonts.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import resvg

_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_SIZE = re.compile(r'<svg([^>]*?) width="([0-9.]+)" height="([0-9.]+)"')
_LOCAL = threading.local()  # .options: this thread's parsing options (fonts loaded)


def _options() -> resvg.usvg.Options:
    options: resvg.usvg.Options | None = getattr(_LOCAL, "options", None)
    if options is None:
        options = resvg.usvg.Options.default()
        fonts = [p for folder in _FONT_DIRS for p in sorted(folder.glob("DejaVuSans*.ttf"))]
        if fonts:
            for path in fonts:
                options.load_font_file(str(path))
            options.font_family = "DejaVu Sans"
        else:
            options.load_system_fonts()
        _LOCAL.options = options
    return options


def svg_to_png(svg: str, zoom: float = 1.0) -> bytes:
    """The SVG picture as PNG bytes; `zoom` scales it (2: sharper and four times larger)."""
    if zoom != 1.0:
        svg = _SIZE.sub(lambda m: f'<svg{m.group(1)} width="{float(m.group(2)) * zoom:.0f}" '
                                  f'height="{float(m.group(3)) * zoom:.0f}"', svg, count=1)
    tree = resvg.usvg.Tree.from_str(svg, _options())
    return bytes(resvg.render(tree, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)))
