"""The pictures of a phase, as files: what reports attach, `gm picture` writes, and the MAP
command sends.

A played phase has two pictures: its orders drawn on the position they were given in, and the
position after it (what the phase changed marked). Each is an SVG (for zooming) and a PNG (what
every mail client shows, inline in the HTML report). Pictures are the same for every recipient
of a report, so they are made once per game and phase.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from gm.engine.errors import OrderError
from gm.engine.results import OrderResult
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.notation import stored_order
from gm.pictures.files import Picture, file_stem
from gm.pictures.svg import render_map_svg
from gm.store.rows import PhaseRecord, StoredResult


def render_phase_svg(variant: Variant, state: GameState, title: str, *,
                     results: Sequence[OrderResult] = (),
                     previous: GameState | None = None) -> str:
    """The SVG picture of `state` (see gm.pictures.svg.render_map_svg)."""
    return render_map_svg(variant, state, title, results=results, previous=previous)


def render_phase_png(variant: Variant, state: GameState, title: str, *,
                     results: Sequence[OrderResult] = (),
                     previous: GameState | None = None) -> bytes:
    """The same picture as PNG."""
    from gm.pictures.png import svg_to_png  # numpy, Pillow, Skia: not for the SVG alone

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
        out.append(Picture(file_stem(game, played, "orders"), caption, svg))
    caption = f"{game}: {shown}"
    svg = render_map_svg(variant, after, caption, previous=before)
    out.append(Picture(file_stem(game, shown), caption, svg))
    return tuple(out)


def results_from_stored(variant: Variant, state: GameState,
                        stored: Sequence[StoredResult]) -> tuple[OrderResult, ...]:
    """The results of a phase as stored (the orders' values and outcomes) as the engine's
    results again (for drawing them); a result stored without its order's value has its text
    read again by the order parser on the map of `state`."""
    board = functools.cache(lambda: variant.map_for(state))
    out = []
    for r in stored:
        text = r.canonical or r.text
        order = stored_order(r.order, text, board, state.phase.type, variant.order_kinds)
        out.append(OrderResult(r.power, None if isinstance(order, OrderError) else order, text,
                               r.outcome, r.why, r.dislodged_by, r.details))
    return tuple(out)


def phase_pictures(variant: Variant, game: str, phases: Sequence[PhaseRecord],
                   index: int | None = None) -> tuple[Picture, ...]:
    """The pictures of a game's phase `index` (of `phases`, its history in order; None: the
    last adjudicated one, or the position now if none is): its orders on the position they
    were given in, and the position after it."""
    if index is None:
        done = [i for i, p in enumerate(phases) if p.adjudicated]
        if not done:
            now = phases[-1].state
            caption = f"{game}: {variant.format_phase(now.phase)}"
            svg = render_map_svg(variant, now, caption)
            return (Picture(file_stem(game, variant.format_phase(now.phase)), caption, svg),)
        index = done[-1]
    record = phases[index]
    after = phases[index + 1].state if index + 1 < len(phases) else record.state
    results = () if record.results is None else results_from_stored(
        variant, record.state, record.results)
    return picture_pair(variant, game, record.state, after, results,
                        played=variant.format_phase(record.phase),
                        shown=variant.format_phase(after.phase))
