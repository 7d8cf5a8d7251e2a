"""How far each mail source has been read, and what the tick must wait for.

A service that reads a source records, after each pass over it, the time up to which every
message that arrived there has been stored and handled (`record_read`; it only moves forward).
The tick adjudicates a phase at its deadline only once the configured source has been read up
to it and no stored message that arrived before it waits to be handled (`inbox_behind`), so
orders that reached the mailbox in time count even when gm was down or slow at the deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, func, select, text
from sqlalchemy.orm import Session

from gm.store.models import InboundMessage, InboxRead
from gm.store.statuses import InboundStatus
from gm.store.types import UTCDateTime

# one statement on SQLite and PostgreSQL alike; read_until never moves back
_RECORD = text(
    "INSERT INTO inbox_reads (source, read_until, updated_at) "
    "VALUES (:source, :until, :now) "
    "ON CONFLICT (source) DO UPDATE SET "
    "read_until = CASE WHEN excluded.read_until > inbox_reads.read_until "
    "THEN excluded.read_until ELSE inbox_reads.read_until END, "
    "updated_at = excluded.updated_at"
).bindparams(bindparam("until", type_=UTCDateTime()), bindparam("now", type_=UTCDateTime()))


def record_read(session: Session, source: str, until: datetime, *, now: datetime) -> None:
    """Every message that arrived at `source` before `until` is stored and handled."""
    session.execute(_RECORD, {"source": source, "until": until, "now": now})


def read_until(session: Session, source: str) -> datetime | None:
    """The time `source` has been read up to; None if no service has read it yet."""
    return session.scalar(select(InboxRead.read_until).where(InboxRead.source == source))


def earliest_unhandled(session: Session) -> datetime | None:
    """The arrival of the earliest stored message still waiting to be handled (new)."""
    return session.scalar(
        select(func.min(func.coalesce(InboundMessage.arrived_at, InboundMessage.received_at)))
        .where(InboundMessage.status == InboundStatus.NEW))


@dataclass(frozen=True)
class InboxState:
    """What the tick knows of the inbox: the source's name, how far it has been read (None:
    no service has read it, so nothing is waited for), and the earliest arrival of a stored
    message not handled yet."""

    source: str | None
    read_until: datetime | None
    unhandled_from: datetime | None

    def unhandled_before(self, when: datetime) -> bool:
        """Whether a stored message that arrived up to `when` waits to be handled."""
        return self.unhandled_from is not None and self.unhandled_from <= when

    def behind(self, when: datetime) -> bool:
        """Whether mail that arrived up to `when` may not all be handled yet: stored and
        waiting, or not read from the source yet."""
        if self.unhandled_before(when):
            return True
        return self.read_until is not None and self.read_until < when


def inbox_state(session: Session, source: str | None) -> InboxState:
    """The inbox as the tick sees it now (`source`: the configured source's name, or None
    when mail comes only by `gm ingest`)."""
    until = None if source is None else read_until(session, source)
    return InboxState(source, until, earliest_unhandled(session))
