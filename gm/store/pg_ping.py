"""PostgreSQL connections are checked when they come out of the pool only after sitting idle.

SQLAlchemy's `pool_pre_ping` sends `SELECT 1` before every transaction: a round trip (and its
CPU on both sides) for each of the several transactions a message runs, on a connection that
was used a moment before. Here a connection is pinged only when it has been back in the pool
for IDLE_S or more (a server restarted, or a connection dropped by a firewall, while the
service was quiet); a ping that fails replaces the connection, as the pre-ping does
(sqlalchemy.exc.DisconnectionError: the pool opens a new one). A connection that dies while it
is in use fails its transaction, as it could with the pre-ping too: the connection is
invalidated, and a message's transaction that failed so is run again (`lost_connection`,
gm.store.commit_locks.retryable).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import DisconnectionError

IDLE_S = 1.0  # a connection idle this long is pinged before it is used again
_IDLE_SINCE = "gm_idle_since"  # in the pool's connection record's info


def ping_when_idle(engine: Engine, idle_s: float = IDLE_S) -> None:
    """Check `engine`'s connections at checkout when they were idle `idle_s` or longer."""
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        if record is not None:
            record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_IDLE_SINCE, None)
        if since is None or time.monotonic() - since < idle_s:
            return  # new, or used a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as exc:
            if not dialect.is_disconnect(exc, dbapi_connection, None):
                raise
            raise DisconnectionError("the connection was lost while it was idle") from exc


def lost_connection(exc: BaseException) -> bool:
    """Whether `exc` is a statement's failure because its connection was lost (the connection
    is invalidated: the next transaction gets a new one)."""
    return bool(getattr(exc, "connection_invalidated", False))
