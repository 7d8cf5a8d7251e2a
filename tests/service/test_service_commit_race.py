"""Messages of one game handled at once on PostgreSQL (several `gm serve` processes, or a
message and a tick): a message's orders are written without the game's row lock, which is taken
only at its commit (gm.store.commit_locks), so another message of the game is not kept waiting
while one is handled and answered; a phase adjudicated between a message's judging and its
commit has the message handled again, for the game as it is then.

The real ingest and tick, each transaction on its own connection; a test hook holds the first
message's transaction just before its commit (where its lock would be taken).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from gm.config import Config
from gm.service.clock import SystemClock
from gm.service.ingest import Disposition, Ingested, ingest
from gm.service.tick import tick
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus
from tests.support.service_support import (
    PLAYERS,
    WAIT,
    game_phases,
    maildir_config,
    message,
    start_game,
)

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])  # row locks: PostgreSQL's

FRANCE = PLAYERS["France"]


def reply_to(db: Database, origin: str) -> str:
    with db.read() as s:
        found = [" ".join(out.parts[0].text.split())
                 for out in outbound_repo.list_outbound(s, limit=1000)
                 if dict(out.headers).get("In-Reply-To") == origin]
    assert len(found) == 1, f"{len(found)} replies to {origin}"
    return found[0]


def france(body: str, message_id: str) -> bytes:
    return message(FRANCE, f"SIGNON France omega pwfrance\n{body}", message_id=message_id)


class Held:
    """A message ingested in a thread of its own, its first transaction held just before its
    commit until `release()`."""

    def __init__(self, db: Database, config: Config, raw: bytes, arrived: datetime) -> None:
        self.at_commit, self.go = threading.Event(), threading.Event()
        self.commits = 0
        self.result: list[Ingested] = []
        self.thread = threading.Thread(target=lambda: self.result.append(ingest(
            db, raw, config=config, clock=SystemClock(), arrived_at=arrived)))

    def before_commit(self, session: Session) -> None:
        if threading.current_thread() is not self.thread or session.in_nested_transaction():
            return
        self.commits += 1
        if self.commits == 1:
            self.at_commit.set()
            assert self.go.wait(WAIT)

    def release(self) -> Ingested:
        self.go.set()
        self.thread.join(WAIT)
        assert not self.thread.is_alive()
        (result,) = self.result
        return result


@contextmanager
def held(db: Database, config: Config, raw: bytes,
         arrived: datetime | None = None) -> Iterator[Held]:
    """`raw` (arrived at `arrived`, or now) ingested meanwhile, held before its commit (the
    hook runs before the store's)."""
    hold = Held(db, config, raw, arrived or datetime.now(UTC))
    hook: Callable[[Session], None] = hold.before_commit
    event.listen(Session, "before_commit", hook, insert=True)
    try:
        hold.thread.start()
        assert hold.at_commit.wait(WAIT), "the message's transaction never came to its commit"
        yield hold
    finally:
        hold.go.set()
        hold.thread.join(WAIT)
        event.remove(Session, "before_commit", hook)


def test_a_message_of_the_game_is_not_kept_waiting_by_one_being_handled(
        database: Database, tmp_path: Path) -> None:
    """France's second message is answered while her first waits at its commit (with the
    lock taken where the orders are stored it would wait for the first's commit); of the two,
    the one written later stands, whole."""
    config = maildir_config(tmp_path)
    start_game(database, config)
    first = france("A Par - Bur\nA Mar - Spa\nF Bre - MAO", "<first@example.org>")
    second = france("A Par - Pic\nA Mar H\nF Bre H", "<second@example.org>")
    with held(database, config, first) as hold:
        done = ingest(database, second, config=config, clock=SystemClock())
        assert done.outcome is Disposition.ANSWERED
        assert "A Par - Pic" in reply_to(database, "<second@example.org>")
        assert hold.release().outcome is Disposition.ANSWERED
    assert "A Par - Bur" in reply_to(database, "<first@example.org>")
    (spring,) = game_phases(database)
    with database.read() as s:
        stands = orders_repo.latest_valid_orders_of(s, spring.id, "France")
    assert stands is not None
    assert [line.text for line in stands.lines] == ["A Par - Pic", "A Mar H", "F Bre H"]


def test_orders_whose_phase_is_adjudicated_before_their_commit_are_judged_again(
        database: Database, tmp_path: Path) -> None:
    """The tick adjudicates Spring while France's orders, judged for it, wait for their commit
    (they are not among those it read): the commit is refused and the message handled again,
    so her orders are kept for Spring as read after it, and she is told so, not that they
    stand."""
    config = maildir_config(tmp_path)
    start_game(database, config)
    (spring,) = game_phases(database)
    raw = france("A Par - Bur\nA Mar - Spa\nF Bre - MAO", "<france@example.org>")
    # arrived a second after Spring opened, before its deadline, a second before Fall opens
    arrived = spring.opened_at + timedelta(seconds=1)
    deadline = arrived + timedelta(seconds=0.5)
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds() + 1.5))
    with held(database, config, raw, arrived) as hold:
        with database.transaction() as s:  # the deadline passes while the message is handled
            phases_repo.set_deadline(s, spring.id, deadline)
        summary = tick(database, config=config, clock=SystemClock(), wait_for_mail=False)
        assert [p for _, p, _ in summary.adjudicated] == ["Spring 1901, Movement"]
        assert hold.release().outcome is Disposition.ANSWERED
        assert hold.commits == 2  # refused once, then handled again
    reply = reply_to(database, "<france@example.org>")
    assert "could be read only after Spring 1901, Movement was adjudicated" in reply
    assert "Its orders below are kept for Spring 1901, Movement" in reply
    spring, fall = game_phases(database)
    assert ("France", "par") in {(u.power, u.province.lower()) for u in fall.state.units}
    with database.read() as s:
        assert "France" not in orders_repo.latest_valid_orders(s, spring.id)
        assert [o.power for o in orders_repo.late_sets(s, spring.id)] == ["France"]
        assert orders_repo.latest_valid_orders_of(s, fall.id, "France") is None
        records = inbound_repo.list_inbound(s, limit=100)
    assert [r.status for r in records if r.message_id == "<france@example.org>"] == [
        InboundStatus.PROCESSED]
