"""Processing a phase (gm.play.process_phase), the one path of PROCESS and the deadline: what it
writes, what it gives back (the adjudication, the audit entry, the mail), at the play layer
(no mail is sent or read)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.play.process_phase import PhaseProcessed, process_phase
from gm.store import audit
from gm.store import games as games_repo
from gm.store import orders_ahead as ahead_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.outgoing import AUTO_GENERATED
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, address, new_game, spring_orders, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=3)


@dataclass
class Writes:
    """What `gm tick` writes later with the other games' (gm.play.process_phase.Later)."""

    closing: list[phases_repo.ClosedPhase] = field(default_factory=list)
    opening: list[phases_repo.NewPhase] = field(default_factory=list)
    entries: list[audit.NewEntry] = field(default_factory=list)


def _process(db: Database, game_id: int, *, later: Writes | None = None,
             why: str | None = None, disorder: tuple[str, ...] = ()) -> PhaseProcessed:
    with db.transaction() as s:
        game = games_repo.get_game(s, game_id)
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        return process_phase(s, game, phase, now=LATER, actor=GM, service="Judge", why=why,
                             disorder=disorder, inbound_id=None, later=later)


def test_processing_records_the_phase_and_gives_the_reports(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(without=["Italy"]), T0 + timedelta(hours=1))
    processed = _process(database, game_id)
    assert processed.name == "Spring 1901, Movement"
    assert processed.next_name == "Fall 1901, Movement" and not processed.finished
    assert [(row.power, row.disorder) for row in processed.done.late] == [("Italy", False)]
    opened = processed.opened
    assert opened is not None and opened.id != 0 and opened.index == 1
    powers = get_variant("standard").power_names
    assert [m.recipients for m in processed.mail] == [
        *((address("alpha", p),) for p in powers), (GM,)]
    for report in processed.mail:
        assert report.game_id == game_id and "Spring 1901" in report.subject
        assert ("Auto-Submitted", AUTO_GENERATED) in report.headers
        assert report.html is not None and report.message_id is None  # the queue gives it
    assert (processed.entry.actor, processed.entry.action) == (GM, "process")
    assert processed.entry.details == {"phase": "Spring 1901, Movement"}
    with database.read() as s:  # written now: the phase, its results, the audit entry
        first, second = phases_repo.history(s, game_id)
        assert first.adjudicated and second.id == opened.id and not second.adjudicated
        logged = audit.audit_log(s, game_id=game_id, action="process")
        assert [(e.actor, e.details) for e in logged] == [
            (GM, {"phase": "Spring 1901, Movement"})]


def test_processing_for_later_hands_over_the_phases_and_the_audit_entry(
        database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(), T0 + timedelta(hours=1))
    later = Writes()
    processed = _process(database, game_id, later=later, why="deadline", disorder=("Italy",))
    assert processed.opened is None  # not written yet
    assert later.closing == [processed.done.closing]
    assert later.opening == [processed.done.opening]
    assert later.entries == [processed.entry]
    assert processed.entry.details == {"phase": "Spring 1901, Movement", "why": "deadline",
                                       "disorder": ["Italy"]}
    assert len(processed.mail) == len(get_variant("standard").power_names) + 1
    with database.read() as s:  # the phase is still open: the caller writes it
        (only,) = phases_repo.history(s, game_id)
        assert not only.adjudicated
        assert not audit.audit_log(s, game_id=game_id, action="process")


def test_orders_sent_ahead_are_applied_when_the_next_phase_is_written(
        database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(), T0 + timedelta(hours=1))
    with database.transaction() as s:  # a retreat sent ahead: no retreat phase comes
        ahead_repo.add(s, game_id, "France", PhaseType.RETREAT, 0, "a par - bur",
                       now=T0 + timedelta(hours=2))
    processed = _process(database, game_id)
    reports, (notice,) = processed.mail[:-1], processed.mail[-1:]
    assert all("results" in m.subject for m in reports)
    assert notice.recipients == (address("gamma", "France"),)
    assert "orders sent ahead" in notice.subject and notice.game_id == game_id
    assert "a par - bur  ->  not used: no retreat phase came before Fall 1901" in notice.body
    with database.read() as s:
        assert ahead_repo.of_game(s, game_id) == []


def test_processing_the_last_phase_finishes_the_game(database: Database) -> None:
    """France holds 17 centres and takes Belgium in the fall: 18, a solo win (rulebook)."""
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
    processed = _process(database, game_id)
    assert processed.finished and processed.opened is None
    assert processed.done.next_phase is None
    assert "France won the game." in processed.mail[0].body
    with database.read() as s:
        assert games_repo.get_game(s, game_id).status is GameStatus.FINISHED
        assert phases_repo.phase_count(s, game_id) == 1
