"""The game lock taken at the commit, for orders a message stores.

A message's orders are read, judged, stored and answered in its one transaction. Storing them
needs the game's row lock (adjudication holds it while it reads the orders: gm.store.
submissions), and a row lock lasts until the commit; taken where the orders are stored, it
would be held while the rest of the message is handled and its reply composed, and a second
process answering the same game would wait all that time. So on PostgreSQL a message's order
sets are written without it (`lock_at_commit` notes the game and phase), and the lock is taken
just before the commit (`before_commit`, every game noted in one statement, in id order),
where the phases written for are read again: one adjudicated meanwhile (its orders read
without these) fails the commit with `OrdersOutdated`, and the caller handles the message
again from the start (`retryable`: so do a deadlock, a serialization failure and a lost
connection, gm.store.pg_ping). The rows written are seen by no other transaction before the
commit; of two messages of one power stored at once, the later written wins (the latest set
by id), as when they take turns.
On SQLite every writing transaction holds the database's write lock from its start, and
nothing is deferred. The two statements at the commit are built once and run on the session's
connection (no ORM execution: they are on every message of orders' path).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from sqlalchemy import Table, bindparam, event, select
from sqlalchemy.orm import Session

from gm.store.db import plain
from gm.store.errors import StoreError
from gm.store.games import lock_games
from gm.store.models import PhaseRow
from gm.store.pg_ping import lost_connection

_KEY = "gm.commit_locks"  # session.info: the games and phases to lock and check at the commit
RETRY_STATES = frozenset({"40P01", "40001"})  # deadlock detected, serialization failure

# Built once: whether one of the phases was adjudicated.
_PHASES = cast(Table, PhaseRow.__table__)
_ADJUDICATED = (select(_PHASES.c.id)
                .where(_PHASES.c.id.in_(bindparam("phases", expanding=True)),
                       _PHASES.c.adjudicated_at.is_not(None)).limit(1))


class OrdersOutdated(StoreError):
    """Orders were stored for a phase adjudicated before they could be committed: the message
    is to be handled again (its orders are then judged for the game as it is now)."""


@dataclass
class _Noted:
    games: set[int] = field(default_factory=set)
    phases: set[int] = field(default_factory=set)  # written for as open (not kept late)


def lock_at_commit(session: Session, game_id: int, phase_id: int, *, late: bool) -> None:
    """Lock game `game_id` at this transaction's commit, and check then that phase `phase_id`
    (unless the orders are kept `late` for it, adjudicated) is still open."""
    noted = session.info.get(_KEY)
    if noted is None:
        noted = session.info[_KEY] = _Noted()
    noted.games.add(game_id)
    if not late:
        noted.phases.add(phase_id)


def retryable(exc: BaseException) -> bool:
    """Whether a transaction that failed with `exc` is to be run again from the start."""
    if isinstance(exc, OrdersOutdated) or lost_connection(exc):
        return True
    return getattr(getattr(exc, "orig", None), "sqlstate", None) in RETRY_STATES


@event.listens_for(Session, "before_commit")
def _lock_noted(session: Session) -> None:
    """Before the outermost commit: lock the noted games, then check the noted phases."""
    if session.in_nested_transaction():
        return
    noted: _Noted | None = session.info.pop(_KEY, None)
    if noted is None:
        return
    lock_games(session, noted.games)  # what the transaction still has to write, written first
    if noted.phases and plain(session).execute(
            _ADJUDICATED, {"phases": sorted(noted.phases)}).first() is not None:
        raise OrdersOutdated("the phase was adjudicated before the orders were committed")


@event.listens_for(Session, "after_transaction_end")
def _forget(session: Session, transaction: object) -> None:
    """A transaction rolled back forgets what it noted (its rows are gone)."""
    if not session.in_transaction():
        session.info.pop(_KEY, None)
