"""Rolling a game back (gm.play.rollback), the use case under ROLLBACK, at the play layer: its
typed refusals, and what a roll back writes and mails (the mail-level tests are in
tests/service/test_service_gm_control.py and test_service_njudge_forms.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.play.process_phase import process_phase
from gm.play.rollback import Refusal, RollbackRefused, RolledBack, roll_back
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, address, new_game, spring_orders, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=3)
SPRING = "Spring 1901, Movement"


def _process(db: Database, game_id: int) -> None:
    with db.transaction() as s:
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        process_phase(s, games_repo.get_game(s, game_id), phase, now=T0 + timedelta(hours=1),
                      actor=GM, service="Judge")


def _roll_back(db: Database, game_id: int, **asked: object) -> RolledBack | RollbackRefused:
    with db.transaction() as s:
        return roll_back(s, games_repo.get_game(s, game_id), now=LATER, actor=GM,
                         service="Judge", **asked)  # type: ignore[arg-type]


def test_a_forming_game_or_its_first_phase_has_nothing_to_roll_back(
        database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    assert _roll_back(database, game_id) == RollbackRefused(Refusal.FIRST_PHASE, (SPRING,))
    assert _roll_back(database, game_id, turn=3) == RollbackRefused(
        Refusal.NO_TURN, (SPRING,), turn=3)
    assert _roll_back(database, game_id, phase=lambda r: r.index == 0) == RollbackRefused(
        Refusal.CURRENT, (SPRING,), phase=SPRING)
    assert _roll_back(database, game_id, phase=lambda r: r.index == 7) == RollbackRefused(
        Refusal.NO_PHASE, (SPRING,))
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FORMING, now=T0)
    assert _roll_back(database, game_id) == RollbackRefused(Refusal.NOT_STARTED)


def test_rolling_back_reopens_the_phase_and_tells_everyone(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(), T0 + timedelta(minutes=5))
    _process(database, game_id)
    outcome = _roll_back(database, game_id)  # one back: to the phase before the current
    assert isinstance(outcome, RolledBack)
    assert outcome.phase == SPRING and outcome.resumed is None
    assert outcome.deadline_at == LATER + timedelta(hours=48)  # the game's movement rule
    powers = get_variant("standard").power_names
    assert [m.recipients for m in outcome.mail] == [
        *((address("beta", p),) for p in powers), (GM,)]
    assert all("rolled back to Spring 1901" in m.subject and m.game_id == game_id
               for m in outcome.mail)
    assert "has rolled the game back to the start of Spring 1901" in outcome.mail[0].body
    with database.read() as s:
        current = phases_repo.current_phase(s, game_id)
        assert current is not None and current.index == 0 and not current.adjudicated


def test_a_finished_game_rolled_back_plays_again(database: Database) -> None:
    owned = ("Par", "Mar", "Bre", "Spa", "Por", "Lon", "Lvp", "Edi", "Hol", "Mun", "Ber",
             "Kie", "Den", "Nwy", "Swe", "Ven", "Rom")
    state = get_variant("standard").start_state().evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT),
        units=(Unit("France", UnitType.ARMY, Location("Bur")),
               Unit("England", UnitType.FLEET, Location("NTH"))),
        owners={c: "France" for c in owned})
    game_id = new_game(database, "solo", opened=T0, deadline=T0 + timedelta(hours=1),
                       state=state)
    submit(database, game_id, {"France": ["A Bur - Bel"]}, T0)
    _process(database, game_id)  # France wins: the game is over
    outcome = _roll_back(database, game_id, turn=1)
    assert isinstance(outcome, RolledBack) and outcome.phase == "Fall 1905, Movement"
    assert outcome.resumed is not None and outcome.resumed.status is GameStatus.ACTIVE
    with database.read() as s:
        assert games_repo.get_game(s, game_id).status is GameStatus.ACTIVE
