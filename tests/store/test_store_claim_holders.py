"""Claims name the sender process holding them: a new sender takes back at once what a process
that is provably gone had claimed, never what a live one holds, nor what one on another host
holds (that waits for its lease), on SQLite and PostgreSQL. The holders are real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from gm.store import outbound
from gm.store.db import Database
from gm.store.holders import Holder, is_gone, this_process
from gm.store.rows import BodyPart
from gm.store.statuses import OutboundStatus

T0 = datetime(2026, 11, 28, 22, 0, tzinfo=UTC)
LEASE = timedelta(minutes=5)
ELSEWHERE = "other-host.example.org pid:[4026531836] 4242 123456"
HOLDER = ("import sys; from gm.store.holders import this_process; "
          "print(this_process().key, flush=True); sys.stdin.read()")


class Sender:
    """A real process that names itself as a holder and lives until `end`."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.key = self.proc.stdout.readline().strip()

    def end(self) -> None:
        self.proc.kill()
        self.proc.wait()  # reaped: its PID is free


@pytest.fixture
def senders() -> Iterator[list[Sender]]:
    made: list[Sender] = []
    yield made
    for sender in made:
        sender.end()


def _enqueue(db: Database, n: int) -> list[int]:
    with db.transaction() as s:
        return [outbound.enqueue_outbound(
            s, message_id=f"<m{i}@gm.example.org>", recipients=[f"p{i}@example.org"],
            headers=[("Subject", f"reply {i}")], parts=[BodyPart("text/plain", "body")],
            now=T0)[0].id for i in range(n)]


def _claim(db: Database, holder: str, now: datetime = T0) -> list[int]:
    with db.transaction() as s:
        return [r.id for r in outbound.claim_due_outbound(s, now, limit=1, lease=LEASE,
                                                          holder=holder)]


def _release(db: Database) -> dict[str, int]:
    with db.transaction() as s:
        return outbound.release_abandoned(s, holder=this_process().key)


def test_a_dead_senders_claims_are_taken_back_a_live_ones_are_not(
        database: Database, senders: list[Sender]) -> None:
    live, dead = Sender(), Sender()
    senders += [live, dead]
    first, second, third = _enqueue(database, 3)
    assert _claim(database, live.key) == [first]
    assert _claim(database, dead.key) == [second]
    assert _claim(database, ELSEWHERE) == [third]
    dead.end()
    here = this_process().key
    assert _claim(database, here) == []  # all three are claimed
    assert _release(database) == {dead.key: 1}
    # the dead sender's message is due again at once; the others keep their lease
    assert _claim(database, here) == [second]
    assert _release(database) == {}
    assert _claim(database, here) == []
    # the live sender dies too: its claim is taken back; the other host's waits for the lease
    live.end()
    assert _release(database) == {live.key: 1}
    assert _claim(database, here) == [first]
    with database.transaction() as s:
        for sent in (first, second):
            outbound.record_sent(s, sent, now=T0)
    assert _claim(database, here, T0 + LEASE - timedelta(seconds=1)) == []
    assert _claim(database, here, T0 + LEASE) == [third]
    with database.read() as s:
        rows = {r.id: r for r in outbound.list_outbound(s)}
    assert [rows[i].attempts for i in (first, second, third)] == [2, 2, 2]


def test_a_message_waiting_for_its_retry_or_sent_is_not_taken_back(
        database: Database, senders: list[Sender]) -> None:
    dead = Sender()
    senders.append(dead)
    failed, sent = _enqueue(database, 2)
    assert _claim(database, dead.key) == [failed]
    assert _claim(database, dead.key) == [sent]
    with database.transaction() as s:
        outbound.mark_send_failed(s, failed, "421 try later", retry_at=T0 + timedelta(hours=1))
        outbound.mark_sent(s, sent, now=T0)
    dead.end()
    assert _release(database) == {}
    assert _claim(database, this_process().key) == []
    with database.read() as s:
        rows = outbound.list_outbound(s)
    assert [(r.status, r.next_attempt_at) for r in rows] == [
        (OutboundStatus.QUEUED, T0 + timedelta(hours=1)), (OutboundStatus.SENT, None)]


def test_a_holder_is_gone_when_its_pid_is_free_or_another_processs() -> None:
    here = this_process()
    assert Holder.parse(here.key) == here
    assert not is_gone(here.key)
    sender = Sender()
    try:
        holder = Holder.parse(sender.key)
        assert holder is not None and holder.pid == sender.proc.pid
        assert not is_gone(sender.key)
        # the same PID started at another time: the holder's process is gone, the PID reused
        reused = Holder(holder.host, holder.namespace, holder.pid, str(int(holder.started) - 1))
        assert is_gone(reused.key)
    finally:
        sender.end()
    assert is_gone(sender.key)
    # what cannot be checked from here is not gone: another host, a name that is not one's
    assert not is_gone(ELSEWHERE)
    assert not is_gone("no holder")
    assert Holder.parse(f"{here.host} {here.namespace} {os.getpid()} {here.started}") == here


def test_a_live_holder_renews_its_claims_and_keeps_them_past_their_lease(
        database: Database, senders: list[Sender]) -> None:
    live = Sender()
    senders.append(live)
    mine, elsewhere, sent = _enqueue(database, 3)
    assert _claim(database, live.key) == [mine]
    assert _claim(database, ELSEWHERE) == [elsewhere]
    assert _claim(database, live.key) == [sent]
    with database.transaction() as s:
        outbound.record_sent(s, sent, now=T0)
    later = T0 + 2 * LEASE
    with database.engine.begin() as conn:  # only the live holder's queued claims are renewed
        outbound.renew_claims(conn, later, holder=live.key, lease=LEASE)
    with database.read() as s:
        rows = {r.id: r for r in outbound.list_outbound(s)}
    assert rows[mine].next_attempt_at == later + LEASE
    assert rows[elsewhere].next_attempt_at == T0 + LEASE
    assert rows[sent].next_attempt_at is None
    # past every lease: the other host's holder stopped renewing, so its message is due; the
    # live holder here is not robbed even when its lease runs out (it may be blocked, not dead)
    here = this_process().key
    much_later = later + 2 * LEASE
    assert _claim(database, here, much_later) == [elsewhere]
    assert _claim(database, here, much_later) == []
    live.end()
    assert _claim(database, here, much_later) == [mine]
