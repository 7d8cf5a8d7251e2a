"""The pictures of a phase, as files: what reports attach, `gm picture` writes, and the MAP
command sends.

A played phase has two pictures: its orders drawn on the position they were given in, and the
position after it (what the phase changed marked). Each is an SVG (for zooming) and a PNG (what
every mail client shows, inline in the HTML report). Pictures are the same for every recipient
of a report, so they are made once per game and phase.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gm.engine.results import OrderResult
from gm.engine.state import GameState
from gm.pictures.png import svg_to_png
from gm.pictures.svg import render_map_svg
from gm.variants.base import Variant


@dataclass(frozen=True)
class Picture:
    """One picture: a file name without extension, its caption, its SVG and PNG."""

    stem: str
    caption: str
    svg: str
    png: bytes


def file_stem(*words: str) -> str:
    """`demo-spring-1901-movement`: a file name (without extension) made of `words`."""
    return re.sub(r"[^a-z0-9]+", "-", " ".join(words).lower()).strip("-") or "map"


def render_phase_svg(variant: Variant, state: GameState, title: str, *,
                     results: Sequence[OrderResult] = (),
                     previous: GameState | None = None) -> str:
    """The SVG picture of `state` (see gm.pictures.svg.render_map_svg)."""
    return render_map_svg(variant, state, title, results=results, previous=previous)


def render_phase_png(variant: Variant, state: GameState, title: str, *,
                     results: Sequence[OrderResult] = (),
                     previous: GameState | None = None) -> bytes:
    """The same picture as PNG."""
    return svg_to_png(render_phase_svg(variant, state, title, results=results,
                                       previous=previous))


def picture_pair(variant: Variant, game: str, before: GameState, after: GameState,
                 results: Sequence[OrderResult], *, played: str,
                 shown: str) -> tuple[Picture, ...]:
    """The pictures of a processed phase: its orders on `before` (when any were given) and the
    position `after`. `played`: the phase's name; `shown`: the name of the phase `after` is."""
    out = []
    if results:
        caption = f"{game}: {played}, the orders"
        svg = render_map_svg(variant, before, caption, results=results)
        out.append(Picture(file_stem(game, played, "orders"), caption, svg, svg_to_png(svg)))
    caption = f"{game}: {shown}"
    svg = render_map_svg(variant, after, caption, previous=before)
    out.append(Picture(file_stem(game, shown), caption, svg, svg_to_png(svg)))
    return tuple(out)
