"""A tick in several batches at once (two workers on PostgreSQL; one at a time on SQLite, or
when asked): every due game is adjudicated once, in the order the tick listed them, each report
is queued once for each recipient with the body its audience gets, and a second tick finds
nothing to do; a game that fails is rolled back alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from gm.service.clock import FixedClock
from gm.service.tick import candidates, tick
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.models import AuditEntry, Game, OutboundBody
from gm.variants import get_variant
from tests.support.service_support import maildir_config
from tests.support.tick_support import GM, address, new_game, spring_orders, submit, with_settings

pytestmark = pytest.mark.postgresql_too  # ticks in parallel batches lock rows

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(hours=48)
NAMES = ("alpha", "bravo", "charlie", "delta", "echo")


def _games(db: Database) -> dict[str, int]:
    ids = {}
    for n, name in enumerate(NAMES):  # due one after the other: the tick takes them in order
        ids[name] = new_game(db, name, opened=T0, deadline=DEADLINE + timedelta(minutes=n),
                             settings=with_settings(early=False))
        submit(db, ids[name], spring_orders(), T0 + timedelta(hours=1))
    return ids


@pytest.mark.parametrize("workers", [None, 1])
def test_batches_at_once_adjudicate_each_game_once_and_queue_each_report_once(
        database: Database, tmp_path: Path, workers: int | None) -> None:
    ids = _games(database)
    config = maildir_config(tmp_path)
    clock = FixedClock(DEADLINE + timedelta(hours=1))
    seen: list[tuple[int, int]] = []
    summary = tick(database, config=config, clock=clock, batch=2, workers=workers,
                   progress=lambda n, total: seen.append((n, total)))
    assert summary.examined == len(NAMES) and not summary.failed and not summary.busy
    assert summary.adjudicated == [(name, "Spring 1901, Movement", "deadline") for name in NAMES]
    assert seen == [(2, 5), (4, 5), (5, 5)]
    powers = get_variant("standard").power_names
    with database.read() as s:
        for game in ids.values():
            current = phases_repo.current_phase(s, game)
            assert current is not None and current.index == 1 and not current.adjudicated
        assert s.scalar(select(func.count()).select_from(AuditEntry)) == len(NAMES)
        # each game's players share one stored body; the GM's is its own
        assert s.scalar(select(func.count()).select_from(OutboundBody)) == len(NAMES)
        reports = outbound_repo.list_outbound(s, limit=1000)
    assert sorted(r.recipients for r in reports) == sorted(
        [(address(name, p),) for name in NAMES for p in powers] + [(GM,)] * len(NAMES))
    for name in NAMES:
        texts = {r.recipients[0]: r.parts[0].text for r in reports
                 if r.recipients[0].endswith(f".{name}@example.org")}
        assert len(set(texts.values())) == 1  # every player of the game reads the same
        (text,) = set(texts.values())
        assert name in text and "A Par - Bur" in text
    gm_texts = [r.parts[0].text for r in reports if r.recipients == (GM,)]
    # no press and nobody late: the GM's report has no notes of its own
    assert all("GM:" not in t for t in gm_texts), gm_texts[0][-600:]
    assert [sum(name in t for t in gm_texts) for name in NAMES] == [1] * len(NAMES)
    again = tick(database, config=config, clock=clock, batch=2, workers=workers)
    assert again.adjudicated == []
    assert candidates(database) == sorted(ids.values())  # each with its next phase open
    with database.read() as s:
        assert len(outbound_repo.list_outbound(s, limit=1000)) == len(reports)


def test_a_failing_game_among_batches_at_once_is_rolled_back_alone(
        database: Database, tmp_path: Path) -> None:
    ids = _games(database)
    with database.transaction() as s:  # a variant this gm does not know: the game fails
        s.execute(update(Game).where(Game.id == ids["charlie"]).values(variant="nosuch"))
    summary = tick(database, config=maildir_config(tmp_path),
                   clock=FixedClock(DEADLINE + timedelta(hours=1)), batch=2)
    assert [game for game, _ in summary.failed] == [str(ids["charlie"])]
    assert [name for name, _, _ in summary.adjudicated] == ["alpha", "bravo", "delta", "echo"]
    with database.read() as s:
        current = phases_repo.current_phase(s, ids["charlie"])
        assert current is not None and current.index == 0
