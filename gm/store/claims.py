"""Row claims that keep several gm processes from doing the same work twice.

PostgreSQL: a claim is `SELECT ... FOR UPDATE [SKIP LOCKED]` in the claiming transaction; the
row stays locked until it commits, and other workers skip it (or wait for it). SQLite has no row
locks: there every writing transaction begins with BEGIN IMMEDIATE (gm.store.db), which holds
the database's single write lock from its first statement, so a claim there is serialised
whole, and SQLite ignores FOR UPDATE. Either way the claimed row's state is checked again after
the lock is held, and the unique keys (one phase row per index, one inbound row per Message-ID)
turn any remaining race into an error instead of a duplicate.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import Select
from sqlalchemy.orm import Session

from gm.store.db import is_serialising
from gm.store.errors import StoreError

T = TypeVar("T", bound=tuple[Any, ...])


def claiming(stmt: Select[T], *, skip_locked: bool, of: Any = None) -> Select[T]:
    """`stmt` with the row locks of a claim (FOR UPDATE [SKIP LOCKED] [OF ...])."""
    return stmt.with_for_update(skip_locked=skip_locked, of=of)


def require_writer(session: Session) -> None:
    """Refuse to claim in a session whose transaction does not serialise writers."""
    if not is_serialising(session):
        raise StoreError("a claim needs a writing session (Database.transaction), not a read one")
