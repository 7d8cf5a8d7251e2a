"""Adjudicating a phase (gm.play.adjudicate) gives a value and writes nothing; writing it down
and composing its reports (gm.play.compose_reports) are steps of their own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.engine.phase import PhaseType
from gm.play.adjudicate import Adjudication, adjudicate_phase, record_adjudication, submissions
from gm.play.compose_reports import compose_reports, recipients
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.rows import PhaseRecord
from gm.variants import get_variant
from tests.support.tick_support import GM, address, new_game, spring_orders, submit, with_settings

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=3)


def _adjudicate(db: Database, game_id: int) -> Adjudication:
    with db.read() as s:
        game = games_repo.get_game(s, game_id)
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        return adjudicate_phase(game, phase, powers_repo.list_powers(s, game_id),
                                submissions(s, get_variant(game.variant), phase), now=LATER)


def test_adjudicating_gives_the_outcome_and_writes_nothing(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(without=["Italy"]), T0 + timedelta(hours=1))
    done = _adjudicate(database, game_id)
    assert done.name == "Spring 1901, Movement"
    assert [(row.power, row.disorder) for row in done.late] == [("Italy", False)]
    assert done.step.state.phase.type is PhaseType.MOVEMENT and not done.step.state.finished
    nxt = done.next_phase
    assert nxt is not None and nxt.id == 0 and nxt.index == 1
    assert nxt.deadline_at == LATER + timedelta(hours=48)  # the game's movement rule
    assert len(done.closing[1]) == sum(len(lines) for lines in spring_orders().values())
    with database.read() as s:  # nothing was written
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None and phase.index == 0 and not phase.adjudicated
        assert len(phases_repo.history(s, game_id)) == 1


def test_recording_closes_the_phase_and_opens_the_next(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(), T0 + timedelta(hours=1))
    done = _adjudicate(database, game_id)
    with database.transaction() as s:
        stored: PhaseRecord | None = record_adjudication(s, done)
    assert stored is not None and stored.id != 0 and stored.index == 1
    assert stored.deadline_at == LATER + timedelta(hours=48)
    with database.read() as s:
        first, second = phases_repo.history(s, game_id)
        assert first.adjudicated and first.results is not None
        assert len(first.results) == len(done.closing[1])
        assert second.id == stored.id and not second.adjudicated


def test_reports_go_to_each_address_once(database: Database) -> None:
    watcher = "watcher@example.org"
    france = address("gamma", "France")
    settings = with_settings(extra={"observers": [watcher, france.upper(), GM.upper()]})
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48),
                       settings=settings)
    submit(database, game_id, spring_orders(), T0 + timedelta(hours=1))
    done = _adjudicate(database, game_id)
    powers = get_variant("standard").power_names
    assert recipients(done) == [
        *((address("gamma", p), p, "player") for p in powers), (GM, None, "gm"),
        (watcher, None, "observer")]
    reports = compose_reports(done, [], service="Judge")
    assert [r.recipients for r in reports] == [(a,) for a, _, _ in recipients(done)]
    assert all("Spring 1901" in r.subject and "gamma" in r.subject for r in reports)
    with database.read() as s:  # composing writes nothing either
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None and not phase.adjudicated
