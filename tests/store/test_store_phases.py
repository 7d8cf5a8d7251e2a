"""Phases: the game history, states stored losslessly, results immutable, claims of due phases."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome
from gm.store import audit, games, phases, powers
from gm.store import submissions as orders
from gm.store.db import Database
from gm.store.errors import NotFound, PhaseClosed, PhaseStillOpen
from gm.store.rows import OrderLine, StoredResult
from gm.store.statuses import GameStatus
from tests.support.store_samples import T0, phase_sequence, power_name, sample_results, sample_state

HOUR = timedelta(hours=1)


def _game(db: Database, name: str = "g", status: GameStatus = GameStatus.ACTIVE) -> int:
    with db.transaction() as s:
        gid = games.create_game(s, name=name, variant="standard", gm_address="gm@example.org",
                                gm_password_hash="h", now=T0, status=status).id
        for i in range(7):
            powers.add_power(s, gid, power_name(i), now=T0)
        return gid


def test_a_phase_stores_its_state_losslessly(database: Database) -> None:
    gid = _game(database)
    state = sample_state()
    with database.transaction() as s:
        opened = phases.open_phase(s, gid, state, now=T0, deadline_at=T0 + 48 * HOUR)
    with database.read() as s:
        back = phases.get_phase(s, opened.id)
    assert back.state == state
    assert back.state.dumps() == state.dumps()
    assert (back.index, back.phase, back.game_id) == (0, state.phase, gid)
    assert (back.opened_at, back.deadline_at, back.adjudicated_at) == (T0, T0 + 48 * HOUR, None)
    assert back.results is None and back.events is None and not back.adjudicated


def test_results_close_the_phase_for_good(database: Database) -> None:
    gid = _game(database)
    state = sample_state()
    results = sample_results(state)
    with database.transaction() as s:
        p = phases.open_phase(s, gid, state, now=T0)
        done = phases.record_results(s, p.id, results, events=["Hol floods"], now=T0 + HOUR)
    assert done.adjudicated and done.adjudicated_at == T0 + HOUR
    assert done.results is not None and len(done.results) == len(results)
    first = done.results[1]
    assert first == StoredResult(power=results[1].power, text=results[1].text,
                                 canonical=str(results[1].order), outcome=Outcome.FAILS,
                                 reason="bounced with A Mun", dislodged_by="A Mun")
    assert done.events == ("Hol floods",)
    with database.read() as s:
        assert phases.get_phase(s, p.id) == done
    with pytest.raises(PhaseClosed), database.transaction() as s:
        phases.record_results(s, p.id, [], now=T0 + 2 * HOUR)
    with pytest.raises(PhaseClosed), database.transaction() as s:
        phases.set_deadline(s, p.id, T0)
    with database.read() as s:
        assert phases.get_phase(s, p.id) == done  # unchanged


def test_history_is_the_phases_in_order_and_one_opens_at_a_time(database: Database) -> None:
    gid = _game(database)
    seq = phase_sequence(6)
    with database.transaction() as s:
        for i, ph in enumerate(seq):
            p = phases.open_phase(s, gid, sample_state(phase=ph), now=T0 + i * HOUR)
            if i < len(seq) - 1:
                phases.record_results(s, p.id, [], now=T0 + i * HOUR)
    with pytest.raises(PhaseStillOpen), database.transaction() as s:
        phases.open_phase(s, gid, sample_state(), now=T0)
    with database.read() as s:
        hist = phases.history(s, gid)
        assert [p.index for p in hist] == list(range(6))
        assert [p.phase for p in hist] == seq
        assert [p.adjudicated for p in hist] == [True] * 5 + [False]
        current = phases.current_phase(s, gid)
        assert current is not None and current.index == 5
        assert phases.phase_at(s, gid, 2).phase == Phase("Fall", 1901, PhaseType.MOVEMENT)
        assert phases.phase_count(s, gid) == 6
        with pytest.raises(NotFound):
            phases.phase_at(s, gid, 6)


def test_one_phase_row_per_index(database: Database) -> None:
    """The unique key stops a second phase with the same index, whatever the caller does."""
    from sqlalchemy.exc import IntegrityError

    from gm.store.models import PhaseRow

    gid = _game(database)
    with database.transaction() as s:
        phases.open_phase(s, gid, sample_state(), now=T0)
    with pytest.raises(IntegrityError), database.transaction() as s:
        st = sample_state()
        s.add(PhaseRow(game_id=gid, phase_index=0, season="Spring", year=1901,
                       type=PhaseType.MOVEMENT, state=st.to_json(), opened_at=T0))
        s.flush()


def test_due_phases_are_those_of_active_games_past_their_deadline(database: Database) -> None:
    due = _game(database, "due")
    later = _game(database, "later")
    paused = _game(database, "paused", GameStatus.PAUSED)
    nodeadline = _game(database, "nodeadline")
    with database.transaction() as s:
        phases.open_phase(s, due, sample_state(), now=T0, deadline_at=T0 + HOUR)
        phases.open_phase(s, later, sample_state(), now=T0, deadline_at=T0 + 3 * HOUR)
        phases.open_phase(s, paused, sample_state(), now=T0, deadline_at=T0)
        phases.open_phase(s, nodeadline, sample_state(), now=T0)
    now = T0 + 2 * HOUR
    with database.read() as s:
        assert [p.game_id for p in phases.due_phases(s, now)] == [due]
    with database.transaction() as s:
        assert phases.claim_due_phase(s, later, now) is None
        assert phases.claim_due_phase(s, paused, now) is None
        claimed = phases.claim_due_phase(s, due, now)
        assert claimed is not None and claimed.game_id == due
    with database.transaction() as s:
        nxt = phases.claim_next_due_phase(s, now)
        assert nxt is not None and nxt.game_id == due
        phases.record_results(s, nxt.id, [], now=now)
    with database.transaction() as s:
        assert phases.claim_next_due_phase(s, now) is None
        assert phases.claim_due_phase(s, due, now) is None  # adjudicated: no longer due


def test_deadline_of_the_open_phase_can_move(database: Database) -> None:
    gid = _game(database)
    with database.transaction() as s:
        p = phases.open_phase(s, gid, sample_state(), now=T0, deadline_at=T0 + HOUR)
        moved = phases.set_deadline(s, p.id, T0 + 5 * HOUR)
    assert moved.deadline_at == T0 + 5 * HOUR
    with database.read() as s:
        assert phases.due_phases(s, T0 + 2 * HOUR) == []


def test_rollback_reopens_a_phase_and_archives_what_it_removes(database: Database) -> None:
    gid = _game(database)
    seq = phase_sequence(4)
    ids = []
    with database.transaction() as s:
        for i, ph in enumerate(seq):
            p = phases.open_phase(s, gid, sample_state(phase=ph), now=T0)
            ids.append(p.id)
            orders.submit_orders(s, p.id, power_name(0), [OrderLine(f"a p00{i} h", "A P00 H")],
                                 now=T0)
            if i < 3:
                phases.record_results(s, p.id, sample_results(sample_state(phase=ph)), now=T0)
    with database.transaction() as s:
        back = phases.rollback_to(s, gid, 1, actor="gm@example.org", now=T0 + HOUR,
                                  deadline_at=T0 + 24 * HOUR)
    assert (back.index, back.phase, back.adjudicated, back.results) == (1, seq[1], False, None)
    assert back.deadline_at == T0 + 24 * HOUR
    with database.read() as s:
        assert [p.index for p in phases.history(s, gid)] == [0, 1]
        assert len(orders.order_sets(s, ids[1])) == 1  # the reopened phase keeps its orders
        assert orders.order_sets(s, ids[2]) == []
        (entry,) = audit.audit_log(s, game_id=gid, action="rollback")
    discarded = entry.details["discarded"]
    assert [d["index"] for d in discarded] == [1, 2, 3]
    assert discarded[1]["results"] is not None and len(discarded[1]["orders"]) == 1
    assert discarded[2]["state"] == sample_state(phase=seq[3]).to_json()
