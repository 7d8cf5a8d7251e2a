"""The GM's REPROCESS <phase>: an adjudicated phase processed again with the orders read after
it was adjudicated (kept aside as late, gm.store.submissions.late_sets). The game is rolled
back to the phase (gm.play.rollback, under ROLLBACK), its late orders are made the powers'
orders (`take_late`), and it is processed (gm.play.process_phase, under PROCESS).

`late_orders` finds the phase and the powers whose orders were read late, or None when there
is nothing to reprocess; the caller (gm.commands.catalog.reprocess) rolls back, calls
`take_late` and processes, wording each step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, PhaseRecord


@dataclass(frozen=True)
class LateOrders:
    """`phase`, adjudicated, has orders read after it was, from `powers` (first read first)."""

    phase: PhaseRecord
    powers: tuple[str, ...]


def late_orders(session: Session, game: GameRecord,
                wanted: Callable[[PhaseRecord], bool]) -> LateOrders | None:
    """The first phase of `game` that `wanted` picks, if it is adjudicated and has orders read
    late; else None (nothing to reprocess)."""
    target = next((r for r in phases_repo.history(session, game.id) if wanted(r)), None)
    late = [] if target is None else orders_repo.late_sets(session, target.id)
    if target is None or not target.adjudicated or not late:
        return None
    return LateOrders(target, tuple(dict.fromkeys(s.power for s in late)))


def take_late(session: Session, game: GameRecord, found: LateOrders) -> bool:
    """Once the game is rolled back to `found`'s phase (open again), its late orders are the
    powers' orders; whether it was open again (if not, nothing is changed)."""
    current = phases_repo.current_phase(session, game.id)
    if current is None or current.index != found.phase.index or current.adjudicated:
        return False
    orders_repo.take_late(session, found.phase.id)
    return True
