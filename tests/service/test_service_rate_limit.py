"""The per-sender rate limit (issue 4, "size and rate limits per sender"): a sender's messages
over `rate_limit` per `rate_window`, counted by arrival from the database, are kept whole as
held, not processed and not answered, with one notice per sender per window; the next window is
answered again; on SQLite and PostgreSQL, through the real parser and `ingest`."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

from gm.config import Config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest, window_words
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
from gm.store.statuses import InboundStatus
from tests.support.service_support import PLAYERS, START, maildir_config, message

LIMIT = 5
FRANCE, ENGLAND = PLAYERS["France"], PLAYERS["England"]


def _config(tmp_path: Path, limit: int = LIMIT) -> Config:
    return dataclasses.replace(maildir_config(tmp_path), rate_limit=limit, rate_window=3600.0)


def _send(db: Database, config: Config, clock: FixedClock, sender: str, n: int,
          headers: dict[str, str] | None = None) -> Disposition:
    raw = message(sender, "LIST", subject=f"list {n}", headers=headers)
    return ingest(db, raw, config=config, clock=clock).outcome


def _outbound(db: Database) -> list[OutboundRecord]:
    with db.read() as s:
        return outbound_repo.list_outbound(s, limit=10_000)


def _notices(db: Database) -> list[OutboundRecord]:
    return [o for o in _outbound(db) if "You have sent more than" in o.parts[0].text]


def test_over_the_limit_held_with_one_notice_then_answered_again(database: Database,
                                                                 tmp_path: Path) -> None:
    config, clock = _config(tmp_path), FixedClock(START)
    outcomes = [_send(database, config, clock, FRANCE, n) for n in range(LIMIT)]
    assert outcomes == [Disposition.ANSWERED] * LIMIT
    assert not _notices(database)
    # the same address in another case is the same sender
    raws = [message("France@Example.ORG", "LIST", subject=f"list {n}") for n in range(4)]
    over = [ingest(database, raw, config=config, clock=clock).outcome for raw in raws]
    assert over == [Disposition.HELD] * 4
    notices = _notices(database)
    assert len(notices) == 1  # one notice per sender per window
    assert notices[0].recipients == (FRANCE,)
    text = notices[0].parts[0].text
    assert f"more than {LIMIT} messages within 1 hour" in text
    assert "kept but not read" in text and "gm shunt replay" in text
    assert ("Auto-Submitted", "auto-replied") in notices[0].headers
    with database.read() as s:
        held = inbound_repo.list_inbound(s, status=InboundStatus.HELD)
        answered = [o for o in _outbound(database) if o.inbound_id in {m.id for m in held}]
    assert len(held) == 4
    assert {m.sender for m in held} == {FRANCE}
    assert sorted(m.raw for m in held) == sorted(raws)  # kept whole
    assert all(m.error and "more than 5 messages from this sender within 1 hour" in m.error
               for m in held)
    assert [o.inbound_id for o in answered] == [notices[0].inbound_id]  # no replies, one notice
    # another sender is not limited by France's mail
    assert _send(database, config, clock, ENGLAND, 100) is Disposition.ANSWERED
    # automatic mail from the limited sender is kept and never gets the notice
    auto = _send(database, config, clock, FRANCE, 101,
                 headers={"Auto-Submitted": "auto-replied"})
    assert auto is Disposition.AUTOMATIC
    assert len(_notices(database)) == 1

    # the next window: the earlier messages no longer count
    clock.advance(timedelta(hours=1, seconds=1))
    assert _send(database, config, clock, FRANCE, 200) is Disposition.ANSWERED
    more = [_send(database, config, clock, FRANCE, n) for n in range(201, 207)]
    assert more == [Disposition.ANSWERED] * (LIMIT - 1) + [Disposition.HELD] * 2
    assert len(_notices(database)) == 2  # a new window, a new notice


def test_the_window_slides_by_arrival_time(database: Database, tmp_path: Path) -> None:
    """Every arrival counts, held ones too (a loop stays held while it goes on)."""
    config, clock = _config(tmp_path, limit=3), FixedClock(START)
    assert _send(database, config, clock, FRANCE, 1) is Disposition.ANSWERED
    clock.advance(timedelta(minutes=40))
    assert [_send(database, config, clock, FRANCE, n) for n in (2, 3)] == [Disposition.ANSWERED] * 2
    clock.advance(timedelta(minutes=21))  # 1 is out of the window: 2, 3 and this one
    assert _send(database, config, clock, FRANCE, 4) is Disposition.ANSWERED
    assert _send(database, config, clock, FRANCE, 5) is Disposition.HELD
    clock.advance(timedelta(minutes=40))  # 2 and 3 are out: 4, 5 (held) and this one
    assert _send(database, config, clock, FRANCE, 6) is Disposition.ANSWERED
    assert _send(database, config, clock, FRANCE, 7) is Disposition.HELD
    # within the window of the first held message: no second notice
    assert len(_notices(database)) == 1


def test_no_limit_when_zero(database: Database, tmp_path: Path) -> None:
    config, clock = _config(tmp_path, limit=0), FixedClock(START)
    assert {_send(database, config, clock, FRANCE, n) for n in range(20)} == {Disposition.ANSWERED}


def test_a_repeated_held_message_is_a_duplicate(database: Database, tmp_path: Path) -> None:
    config, clock = _config(tmp_path, limit=1), FixedClock(START)
    assert _send(database, config, clock, FRANCE, 1) is Disposition.ANSWERED
    raw = message(FRANCE, "LIST", message_id="<again@example.org>")
    assert ingest(database, raw, config=config, clock=clock).outcome is Disposition.HELD
    assert ingest(database, raw, config=config, clock=clock).outcome is Disposition.DUPLICATE
    assert len(_notices(database)) == 1


def test_a_replayed_held_message_is_processed_once_and_not_counted_again(
        database: Database, tmp_path: Path) -> None:
    config, clock = _config(tmp_path, limit=1), FixedClock(START)
    assert _send(database, config, clock, FRANCE, 1) is Disposition.ANSWERED
    raw = message(FRANCE, "LIST", message_id="<held@example.org>")
    held = ingest(database, raw, config=config, clock=clock)
    assert held.outcome is Disposition.HELD
    with database.transaction() as s:
        record = inbound_repo.requeue_inbound(s, held.inbound_id)
    # the sender is still over the limit, but the replayed message is handled
    replayed = ingest(database, record.raw, config=config, clock=clock)
    assert replayed.outcome is Disposition.ANSWERED and replayed.inbound_id == held.inbound_id
    assert ingest(database, record.raw, config=config, clock=clock).outcome is Disposition.DUPLICATE
    replies = [o for o in _outbound(database) if o.inbound_id == held.inbound_id]
    # the notice when it was held, the reply when it was replayed, "already read" to the copy
    assert len(replies) == 3
    assert "already read" in replies[2].parts[0].text
    with database.read() as s:
        assert inbound_repo.get_inbound(s, held.inbound_id).status is InboundStatus.PROCESSED


def test_window_words() -> None:
    assert window_words(3600) == "1 hour"
    assert window_words(7200) == "2 hours"
    assert window_words(1800) == "30 minutes"
    assert window_words(86400) == "1 day"
    assert window_words(90) == "90 seconds"
