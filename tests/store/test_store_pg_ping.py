"""PostgreSQL connections are pinged at checkout only after sitting idle (gm.store.pg_ping): one
the server dropped while it was idle is replaced unseen; one dropped just after it was used
fails its next transaction, and a message's transaction that failed so is handled again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.pg_ping import IDLE_S
from tests.support.service_support import START, maildir_config, message

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])


def _backend_pid(db: Database) -> int:
    with db.transaction() as s:
        return int(s.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _drop(db: Database, pid: int) -> None:
    """Have the server end connection `pid` (as a restart or a dropped network would), and
    wait until it is gone."""
    admin = create_engine(db.engine.url)
    try:
        with admin.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar()
            for _ in range(200):
                if not conn.execute(text("SELECT 1 FROM pg_stat_activity WHERE pid = :p"),
                                    {"p": pid}).first():
                    return
                time.sleep(0.005)
        raise AssertionError(f"connection {pid} was not ended")
    finally:
        admin.dispose()


def test_a_connection_dropped_while_idle_is_replaced_before_use(database: Database) -> None:
    dropped = _backend_pid(database)
    _drop(database, dropped)
    time.sleep(IDLE_S + 0.1)
    assert _backend_pid(database) != dropped  # the ping found it gone: a new one, no error


def test_a_message_whose_connection_was_dropped_is_handled_again(database: Database,
                                                                 tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    _drop(database, _backend_pid(database))  # just used: not pinged, its first statement fails
    done = ingest(database, message("someone@example.org", "HELP"), config=config,
                  clock=FixedClock(START))
    assert done.outcome is Disposition.ANSWERED, done
    with database.read() as s:
        assert [r.status.value for r in inbound_repo.list_inbound(s)] == ["processed"]
        (reply,) = outbound_repo.list_outbound(s)
    assert reply.inbound_id == done.inbound_id
