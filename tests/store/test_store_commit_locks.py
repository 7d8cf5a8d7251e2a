"""Orders stored with the game's lock taken at the commit (gm.store.commit_locks): another
transaction may lock the game meanwhile; a phase adjudicated before the commit fails it, and a
phase still open lets it through. PostgreSQL's row locks (SQLite serialises writers whole)."""

from __future__ import annotations

import pytest

from gm.store import games, phases, powers
from gm.store import submissions as orders
from gm.store.commit_locks import OrdersOutdated, retryable
from gm.store.db import Database
from gm.store.rows import OrderLine
from gm.store.statuses import GameStatus
from tests.support.store_samples import T0, sample_state

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])


def _phase(db: Database) -> tuple[int, int]:
    with db.transaction() as s:
        gid = games.create_game(s, name="g", variant="standard", gm_address="gm@example.org",
                                gm_password_hash="h", now=T0, status=GameStatus.ACTIVE).id
        powers.add_power(s, gid, "England", now=T0)
        return gid, phases.open_phase(s, gid, sample_state(), now=T0).id


def test_a_phase_adjudicated_before_the_commit_fails_it(database: Database) -> None:
    gid, pid = _phase(database)
    with pytest.raises(OrdersOutdated) as failed, database.transaction() as s:
        orders.submit_orders(s, pid, "England", [OrderLine("a", "A Lvp H")], now=T0,
                             game_id=gid, at_commit=True)
        with database.transaction() as other:  # not kept waiting: the game is not locked yet
            assert games.lock_game(other, gid, skip_locked=True)
            phases.record_results(other, pid, [], now=T0)
    assert retryable(failed.value)
    with database.read() as s:
        assert orders.order_sets(s, pid) == []


def test_a_phase_still_open_at_the_commit_keeps_the_orders(database: Database) -> None:
    gid, pid = _phase(database)
    with database.transaction() as s:
        orders.submit_orders(s, pid, "England", [OrderLine("a", "A Lvp H")], now=T0,
                             game_id=gid, at_commit=True)
        with database.transaction() as other:
            assert games.lock_game(other, gid, skip_locked=True)
    with database.read() as s:
        (kept,) = orders.order_sets(s, pid)
    assert kept.power == "England" and kept.valid


def test_without_at_commit_the_game_is_locked_at_once(database: Database) -> None:
    gid, pid = _phase(database)
    with database.transaction() as s:
        orders.submit_orders(s, pid, "England", [OrderLine("a", "A Lvp H")], now=T0,
                             game_id=gid)
        with database.transaction() as other:
            assert not games.lock_game(other, gid, skip_locked=True)
