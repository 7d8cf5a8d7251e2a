"""Orders as stored: the value kept on arrival (gm.engine.order_json), or, for orders stored
without it (before it was kept, or by a caller that gave only the canonical text), the text
read again by the order parser.

The parser reads an order text once, on arrival; every later reader (adjudication, the tick,
the power's later messages, the pictures) takes the value through `stored_order`, which reads
the text only where no value was kept.
"""

from __future__ import annotations

from collections.abc import Callable

from gm.engine.errors import OrderError
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder
from gm.engine.phase import PhaseType
from gm.notation.parser import parse_order


def stored_order(kept: AnyOrder | None, text: str, board: Callable[[], GameMap],
                 phase_type: PhaseType | None, kinds: frozenset[str]) -> AnyOrder | OrderError:
    """`kept`, the order's value; when None, `text` (its canonical form, or as written) read
    for a phase of `phase_type` on `board()` (the phase's map, asked for only then)."""
    if kept is not None:
        return kept
    return parse_order(text, board(), phase_type, kinds)
