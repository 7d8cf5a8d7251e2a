"""PNG pictures for mail clients that show no SVG (most webmail): the SVG rendered by resvg.

resvg (through the `resvg-py` wheel) is a self-contained renderer written in Rust: no system
library to install beside it, a few milliseconds a picture, and it draws everything the
pictures use (patterns, dashes, text with paint-order). Fonts: DejaVu Sans when the system has
it (Debian's fonts-dejavu-core), loaded once, so a picture does not scan every system font.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import resvg_py

_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@cache
def _fonts() -> list[str]:
    for folder in _FONT_DIRS:
        found = sorted(str(p) for p in folder.glob("DejaVuSans*.ttf"))
        if found:
            return found
    return []


def svg_to_png(svg: str, zoom: float = 1.0) -> bytes:
    """The SVG picture as PNG bytes (`zoom` 2 for a sharper, four times larger image)."""
    fonts = _fonts()
    data = resvg_py.svg_to_bytes(
        svg_string=svg, zoom=zoom, background="#ffffff",
        skip_system_fonts=bool(fonts), font_files=fonts or None,
        sans_serif_family="DejaVu Sans")
    return bytes(data)
