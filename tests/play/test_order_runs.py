"""A message's orders as a use case (gm.play.order_runs) at the play layer, no mail: each line's
typed outcome, the run's orders stored at its end with what stands, the phase closed to the
message, refused lines keeping the power from being ready (the mail-level tests are in
tests/service, e.g. test_service_replies.py and test_service_readiness.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.engine.errors import OrderError
from gm.engine.orders import Hold, Move
from gm.play.order_runs import (
    Accepted,
    Closed,
    FollowsOn,
    LineRead,
    NotReady,
    NotTaken,
    Orderer,
    OrderRun,
    Shut,
    Stored,
    Unreadable,
    WrongPower,
)
from gm.play.order_taking import Dropped, Refusal, Refused
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.boards import WINTER, position
from tests.support.tick_support import new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
DEADLINE = T0 + timedelta(hours=48)
READER = "france@example.org"


def _orderer(database: Database, game_id: int, power: str = "France", *,
             master: bool = False) -> Orderer:
    with database.read() as s:
        return Orderer(games_repo.get_game(s, game_id), power, master)


def _read(outcome: LineRead | Closed) -> LineRead:
    assert isinstance(outcome, LineRead), outcome
    return outcome


def test_a_run_is_stored_at_its_end_with_the_units_left_without_orders(
        database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=DEADLINE)
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW, NOW, None)
        (taken,) = _read(run.line(who, "A Par - Bur")).outcomes
        assert isinstance(taken, Accepted) and isinstance(taken.order, Move)
        assert taken.text == "A Par - Bur"
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        assert orders_repo.latest_valid_orders_of(s, phase.id, "France") is None  # not yet
        stored = run.end(who, READER)
        assert isinstance(stored, Stored)
        assert [str(o) for o in stored.summary.orders] == ["A Par - Bur"]
        assert [str(u) for u in stored.summary.without or ()] == ["A Mar", "F Bre"]
        assert stored.twice == () and stored.dropped == () and not stored.tell_player
        kept = orders_repo.latest_valid_orders_of(s, phase.id, "France")
        assert kept is not None and [line.canonical for line in kept.lines] == ["A Par - Bur"]
        assert run.end(who, READER) is None  # the run is over: nothing more to store
        assert run.keep_refusals(lambda refused, view: "") == []


def test_each_refused_line_has_a_typed_outcome_and_keeps_the_power_from_being_ready(
        database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=DEADLINE)
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW, NOW, None)
        (others,) = _read(run.line(who, "A Mun H")).outcomes
        assert isinstance(others, NotTaken) and others.why == Refused(
            Refusal.OTHERS_UNIT, "France", "Mun", unit="A Mun", owner="Germany")
        (unread,) = _read(run.line(who, "A Par jumps Bur")).outcomes
        assert isinstance(unread, Unreadable) and isinstance(unread.error, OrderError)
        assert not unread.landing
        (wrong,) = _read(run.line(who, "GERMANY: A Mun H")).outcomes
        assert wrong == WrongPower("GERMANY: A Mun H", "France")
        line = _read(run.line(who, "A Mun H, A Mun - Ruh"))
        assert line.several
        first, second = line.outcomes
        assert isinstance(first, NotTaken) and isinstance(first.order, Hold)
        assert isinstance(second, FollowsOn) and second.head == first.order
        (illegal,) = _read(run.line(who, "A Par - Mun")).outcomes
        assert isinstance(illegal, NotTaken) and isinstance(illegal.why, OrderError)
        (taken,) = _read(run.line(who, "A Mar H")).outcomes
        assert isinstance(taken, Accepted)
        stored = run.end(who, READER)
        assert stored is not None and [str(o) for o in stored.summary.orders] == ["A Mar H"]
        worded: list[str] = []
        assert run.keep_refusals(lambda refused, view: worded.append(refused.text) or "no") \
            == [NotReady("France", 6)]
        assert worded == ["A Mun H", "A Par jumps Bur", "GERMANY: A Mun H", "A Mun H",
                          "A Mun - Ruh", "A Par - Mun"]
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        kept = orders_repo.latest_valid_orders_of(s, phase.id, "France")
        assert kept is not None and [line.canonical for line in kept.lines] == ["A Mar H"]


def test_two_orders_for_a_unit_keep_the_later_and_builds_stay_within_the_count(
        database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=DEADLINE,
                       state=position("France: A Par", phase=WINTER))
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW, NOW, None)
        for line in ("Build A Bre", "Build F Bre", "Waive", "Build A Mar"):
            (taken,) = _read(run.line(who, line)).outcomes
            assert isinstance(taken, Accepted)
        stored = run.end(who, READER)
        assert stored is not None
        ((earlier, later),) = stored.twice
        assert (str(earlier), str(later)) == ("Build A Bre", "Build F Bre")
        # two builds due, three given: the earliest is dropped
        assert stored.dropped == (Dropped("build", 2, ("Build F Bre",)),)
        summary = stored.summary
        assert [str(o) for o in summary.orders] == ["Waive", "Build A Mar"]
        assert summary.builds == (2, 2) and summary.removals is None
        assert summary.without is None


def test_after_the_deadline_the_line_is_refused_once_at_length_but_the_gm_may_order(
        database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=T0 + timedelta(minutes=30))
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW, NOW, None)
        first, again = run.line(who, "A Par H"), run.line(who, "A Mar H")
        assert isinstance(first, Closed) and first.why is Shut.PAST_DEADLINE
        assert isinstance(again, Closed) and again.why is Shut.TOO_LATE
        assert run.end(who, READER) is None  # nothing was read for the phase
        standing_in = _orderer(database, game_id, master=True)
        (taken,) = _read(run.line(standing_in, "A Par H")).outcomes
        assert isinstance(taken, Accepted)
        stored = run.end(standing_in, READER)
        assert stored is not None and stored.tell_player  # its player is told


def test_clear_withdraws_the_orders_and_orders_lists_them(database: Database) -> None:
    game_id = new_game(database, "epsilon", opened=T0, deadline=DEADLINE)
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW, NOW, None)
        _read(run.line(who, "A Par H"))
        run.end(who, READER)
        listed = run.listing(who, READER)
        assert isinstance(listed, Stored)
        assert [str(o) for o in listed.summary.orders] == ["A Par H"]
        cleared = run.clear(who, READER)
        assert isinstance(cleared, Stored) and cleared.summary.orders == ()
        assert cleared.kept_late is None
        run.end(who, READER)
        listed = run.listing(who, READER)
        assert isinstance(listed, Stored) and listed.summary.orders == ()


def test_a_paused_game_takes_no_orders(database: Database) -> None:
    game_id = new_game(database, "zeta", opened=T0, deadline=DEADLINE)
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.PAUSED, now=T0)
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW, NOW, None)
        closed = run.line(who, "A Par H")
        assert isinstance(closed, Closed) and closed.why is Shut.NOT_ACTIVE
        assert run.end(who, READER) is None


def _second_phase(database: Database, name: str, *, first_deadline: datetime) -> int:
    """A game whose first phase (deadline `first_deadline`) was adjudicated at T0 + 2h, with
    no orders, and whose next phase opened then."""
    game_id = new_game(database, name, opened=T0, deadline=first_deadline)
    with database.transaction() as s:
        first = phases_repo.current_phase(s, game_id)
        assert first is not None
        opened = T0 + timedelta(hours=2)
        phases_repo.close_phase(s, first.id, [], now=opened)
        state = first.state.evolve(phase=get_variant("standard").calendar.next(first.phase))
        phases_repo.open_next_phase(s, first, state, now=opened,
                                    deadline_at=opened + timedelta(hours=48))
    return game_id


def test_orders_read_after_their_phase_are_kept_for_it_when_in_time(
        database: Database) -> None:
    game_id = _second_phase(database, "eta", first_deadline=DEADLINE)
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW + timedelta(hours=3), NOW, None)  # arrived in the first phase
        read = _read(run.line(who, "A Par H"))
        assert read.view.late and read.view.phase is not None
        assert read.view.phase.index == 0 and read.kept_late is not None
        assert read.kept_late.index == 1  # the phase open now: said once
        assert _read(run.line(who, "A Mar H")).kept_late is None
        stored = run.end(who, READER)
        assert stored is not None and len(stored.summary.orders) == 2
        first = phases_repo.phase_at(s, game_id, 0)
        # kept aside for the adjudicated phase, not among its orders (the GM may REPROCESS)
        assert orders_repo.latest_valid_orders_of(s, first.id, "France") is None
        (kept,) = orders_repo.late_sets(s, first.id)
        assert [line.canonical for line in kept.lines] == ["A Par H", "A Mar H"]


def test_orders_read_after_their_phase_are_refused_when_late_for_it(
        database: Database) -> None:
    game_id = _second_phase(database, "theta", first_deadline=T0 + timedelta(minutes=30))
    who = _orderer(database, game_id)
    with database.transaction() as s:
        run = OrderRun(s, NOW + timedelta(hours=3), NOW, None)  # after the first's deadline
        first, again = run.line(who, "A Par H"), run.line(who, "A Mar H")
        assert isinstance(first, Closed) and first.why is Shut.ARRIVED_EARLY
        assert isinstance(again, Closed) and again.why is Shut.EARLIER_PHASE
        assert run.end(who, READER) is None
