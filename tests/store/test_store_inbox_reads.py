"""How far each mail source has been read, and what the tick waits for
(gm.store.inbox_reads), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.store import inbound as inbound_repo
from gm.store.db import Database
from gm.store.inbox_reads import inbox_state, read_until, record_read

T = datetime(2026, 11, 28, 21, 38, 1, tzinfo=UTC)
SOURCE = "imap://judge@127.0.0.1:143/INBOX"


def test_how_far_a_source_was_read_only_moves_forward(database: Database) -> None:
    with database.transaction() as s:
        assert read_until(s, SOURCE) is None
        record_read(s, SOURCE, T, now=T)
    with database.transaction() as s:
        record_read(s, SOURCE, T - timedelta(seconds=30), now=T)  # an older pass, late
        record_read(s, "maildir:/var/lib/gm/mail/inbox", T - timedelta(days=1), now=T)
    with database.read() as s:
        assert read_until(s, SOURCE) == T
        assert read_until(s, "maildir:/var/lib/gm/mail/inbox") == T - timedelta(days=1)
    with database.transaction() as s:
        record_read(s, SOURCE, T + timedelta(seconds=5), now=T)
    with database.read() as s:
        assert read_until(s, SOURCE) == T + timedelta(seconds=5)


def test_the_tick_waits_for_the_source_and_for_stored_mail(database: Database) -> None:
    with database.read() as s:
        state = inbox_state(s, SOURCE)
    assert not state.behind(T)  # no service ever read it: nothing to wait for
    with database.transaction() as s:
        record_read(s, SOURCE, T, now=T)
    with database.read() as s:
        state = inbox_state(s, SOURCE)
    assert not state.behind(T) and state.behind(T + timedelta(seconds=1))
    # a message stored and not handled yet (a replay) holds back a deadline after its arrival
    with database.transaction() as s:
        inbound_repo.receive_inbound(s, raw=b"From: a@example.org\r\n\r\nA Par-Bur\r\n",
                                     sender="a@example.org", now=T + timedelta(minutes=5),
                                     arrived_at=T - timedelta(seconds=3))
    with database.read() as s:
        state = inbox_state(s, None)  # mail by `gm ingest` only: no source to read
    assert state.unhandled_before(T - timedelta(seconds=3))
    assert state.behind(T) and not state.behind(T - timedelta(seconds=4))


def test_a_message_is_stored_with_its_arrival(database: Database) -> None:
    with database.transaction() as s:
        stored = inbound_repo.receive_inbound(
            s, raw=b"x", sender="a@example.org", now=T, arrived_at=T - timedelta(minutes=2),
            processed=True).record
        plain = inbound_repo.receive_inbound(s, raw=b"y", sender="a@example.org", now=T).record
    assert stored.arrived_at == T - timedelta(minutes=2)
    with database.read() as s:
        assert inbound_repo.get_inbound(s, stored.id).arrived_at == T - timedelta(minutes=2)
        assert inbound_repo.get_inbound(s, plain.id).arrived_at == T  # not known: stored time
