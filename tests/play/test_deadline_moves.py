"""Moving the open phase's deadline (gm.play.deadline_moves), the use case under SET DEADLINE
<date>, at the play layer: the deadline stored, the audit entry, the notices, and each refusal
as a typed outcome (the mail-level tests are in tests/service, e.g. test_service_gm_control.py
and test_service_calendar.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import deadline_moves
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus
from tests.support.tick_support import GM, SETTINGS, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
DEADLINE = T0 + timedelta(hours=48)


def move(database: Database, game_id: int, moment: datetime) -> deadline_moves.MoveOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        return deadline_moves.move_deadline(s, game, phase, lambda: moment, now=NOW, actor=GM,
                                            service="Judge")


def deadline_of(database: Database, game_id: int) -> datetime | None:
    with database.read() as s:
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        return phase.deadline_at


def test_the_deadline_moves_and_everyone_is_told(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=DEADLINE)
    later = DEADLINE + timedelta(hours=24)
    done = move(database, game_id, later)
    assert isinstance(done, deadline_moves.Moved)
    assert (done.before, done.moment, done.repeated) == (DEADLINE, later, False)
    assert done.phase.deadline_at == later == deadline_of(database, game_id)
    assert len(done.mail) == 8 and "the deadline has moved" in done.mail[0].subject
    assert "Spring 1901" in done.mail[0].subject
    with database.read() as s:
        (entry,) = audit.audit_log(s, game_id=game_id, action="deadline")
        assert entry.details == {"from": DEADLINE.isoformat(), "to": later.isoformat()}


def test_a_time_the_clocks_repeat_is_said(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=DEADLINE,
                       settings=dataclasses.replace(SETTINGS, timezone="Europe/Paris"))
    twice = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 in Paris, the first of two
    done = move(database, game_id, twice)
    assert isinstance(done, deadline_moves.Moved) and done.repeated


def test_a_past_moment_or_a_paused_game_is_refused(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=DEADLINE)
    assert move(database, game_id, NOW) == deadline_moves.InPast(NOW)
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.PAUSED, now=NOW)

    def unread() -> datetime:
        raise AssertionError("a paused game's date is not read")

    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        assert deadline_moves.move_deadline(s, game, phase, unread, now=NOW, actor=GM,
                                            service="Judge") is deadline_moves.MoveRefusal.PAUSED
    assert deadline_of(database, game_id) == DEADLINE
