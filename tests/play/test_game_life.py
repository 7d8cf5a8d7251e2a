"""The GM's changes to a game's life (gm.play.game_life), the use cases under PAUSE, RESUME,
UNSTART and TERMINATE, at the play layer: the status, the audit entry, the deadline given back,
the notices, and each refusal as a typed outcome (the mail-level tests are in tests/service,
e.g. test_service_commands.py, test_service_calendar.py and test_service_gm_classic.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import game_life
from gm.play.adjudicate import adjudicate_phase, record_adjudication, submissions
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, address, new_game, spring_orders, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(hours=48)
EVERYONE = 8  # seven players and the GM


def change(database: Database, game_id: int, use: str, at: datetime
           ) -> game_life.LifeOutcome | game_life.UnstartRefusal:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        done: game_life.LifeOutcome | game_life.UnstartRefusal = getattr(game_life, use)(
            s, game, now=at, actor=GM, service="Judge")
        return done


def status(database: Database, game_id: int) -> GameStatus:
    with database.read() as s:
        return games_repo.get_game(s, game_id).status


def test_pause_and_resume_give_the_phase_back_the_time_it_had_left(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=DEADLINE)
    paused = change(database, game_id, "pause", T0 + timedelta(hours=1))
    assert isinstance(paused, game_life.Changed)
    assert paused.before.status is GameStatus.ACTIVE and paused.after.status is GameStatus.PAUSED
    assert paused.phase is not None and paused.deadline == DEADLINE
    assert len(paused.mail) == EVERYONE and "paused" in paused.mail[0].subject
    assert {m.recipients[0] for m in paused.mail} >= {GM, address("alpha", "France")}
    assert change(database, game_id, "pause", T0 + timedelta(hours=2)) == \
        game_life.WrongStatus(GameStatus.PAUSED)
    resumed = change(database, game_id, "resume", T0 + timedelta(hours=11))
    assert isinstance(resumed, game_life.Changed)
    assert resumed.after.status is GameStatus.ACTIVE
    later = DEADLINE + timedelta(hours=10)  # paused for ten hours
    assert resumed.deadline == later and resumed.phase is not None
    assert resumed.phase.deadline_at == later
    assert len(resumed.mail) == EVERYONE and "goes on" in resumed.mail[0].subject
    assert "Spring 1901" in resumed.mail[0].body
    assert change(database, game_id, "resume", T0 + timedelta(hours=12)) == \
        game_life.WrongStatus(GameStatus.ACTIVE)
    with database.read() as s:
        actions = [e.action for e in audit.audit_log(s, game_id=game_id)]
        assert actions[-2:] == ["pause", "resume"]


def test_terminate_ends_the_game_once(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=DEADLINE)
    done = change(database, game_id, "terminate", T0 + timedelta(hours=1))
    assert isinstance(done, game_life.Changed) and done.after.status is GameStatus.FINISHED
    assert len(done.mail) == EVERYONE and "the game is over" in done.mail[0].subject
    assert status(database, game_id) is GameStatus.FINISHED
    assert change(database, game_id, "terminate", T0 + timedelta(hours=2)) == \
        game_life.WrongStatus(GameStatus.FINISHED)


def test_unstart_takes_the_game_back_to_forming(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=DEADLINE)
    with database.transaction() as s:
        powers_repo.set_power_status(s, game_id, "Italy", PowerStatus.CIVIL_DISORDER, now=T0)
    done = change(database, game_id, "unstart", T0 + timedelta(hours=1))
    assert isinstance(done, game_life.Changed) and done.after.status is GameStatus.FORMING
    assert len(done.mail) == EVERYONE and "forming again" in done.mail[0].subject
    assert done.mail[0].body.endswith("your password.\n\n-- \nJudge\n")
    with database.read() as s:
        assert phases_repo.current_phase(s, game_id) is None
        italy = powers_repo.get_power(s, game_id, "Italy")
        assert italy is not None and italy.status is PowerStatus.PLAYING
        assert audit.audit_log(s, game_id=game_id, action="unstart")
    assert change(database, game_id, "unstart", T0 + timedelta(hours=2)) == \
        game_life.WrongStatus(GameStatus.FORMING)


def test_unstart_refuses_a_game_with_a_processed_phase(database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=DEADLINE)
    submit(database, game_id, spring_orders(), T0)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        record_adjudication(s, adjudicate_phase(
            game, phase, powers_repo.list_powers(s, game_id),
            submissions(s, get_variant(game.variant), phase), now=T0 + timedelta(hours=1)))
    assert change(database, game_id, "unstart", T0 + timedelta(hours=2)) is \
        game_life.UnstartRefusal.PROCESSED
    assert status(database, game_id) is GameStatus.ACTIVE
