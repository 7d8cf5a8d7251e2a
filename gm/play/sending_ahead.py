"""A player sending an order ahead (AHEAD RETREAT <order>, AHEAD BUILD <order>): kept for the
next phase of that kind, checked when it opens (gm.play.orders_ahead). It is read against the
open phase's board now only to refuse what is no order at all (an order that names a place
ambiguously may still be right on the later board); a power keeps at most `MAX_AHEAD`.

`send_ahead` gives `KeptAhead` or why not: the game has no phase open (`AheadRefusal.CLOSED`),
too many are kept (`AheadRefusal.TOO_MANY`) or the text is no order (`Unreadable`, the
parser's error). The words of the reply are the caller's (gm.commands.catalog.ahead).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.phase import PhaseType
from gm.notation import parse_orders
from gm.store import orders_ahead as ahead_repo
from gm.store import phases as phases_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus
from gm.variants import get_variant

MAX_AHEAD = 60  # orders ahead a power may keep at once


class AheadRefusal(StrEnum):
    """Why the order was not kept, when nothing more need be said."""

    CLOSED = "closed"  # no phase open: orders ahead are sent while one is
    TOO_MANY = "too many"  # the power keeps MAX_AHEAD already (AHEAD CLEAR withdraws them)


@dataclass(frozen=True)
class Unreadable:
    """The text is no order: `error`, the parser's."""

    error: OrderError


@dataclass(frozen=True)
class KeptAhead:
    """The order is kept for the next phase of its kind after `phase`, the open one."""

    phase: PhaseRecord


AheadOutcome = KeptAhead | AheadRefusal | Unreadable


def send_ahead(session: Session, game: GameRecord, power: str, phase_type: PhaseType,
               text: str, *, now: datetime) -> AheadOutcome:
    """AHEAD: `power` of `game` (as it is now) keeps the order `text` for the next phase of
    `phase_type`."""
    current = phases_repo.current_phase(session, game.id)
    phase = None if current is None or current.adjudicated else current
    if game.status is not GameStatus.ACTIVE or phase is None:
        return AheadRefusal.CLOSED
    variant = get_variant(game.variant)
    parsed = parse_orders(text, variant.map_for(phase.state), phase_type, variant.order_kinds)
    if isinstance(parsed, OrderError) and parsed.kind is not ErrorKind.AMBIGUOUS:
        return Unreadable(parsed)
    if len(ahead_repo.of_power(session, game.id, power)) >= MAX_AHEAD:
        return AheadRefusal.TOO_MANY
    ahead_repo.add(session, game.id, power, phase_type, phase.index, text, now=now)
    return KeptAhead(phase)
