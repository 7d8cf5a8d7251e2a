"""Orders: every submission kept line by line; the latest valid set per power is the one used."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.orders import Move, UnitSpec
from gm.engine.results import Submitted
from gm.engine.units import UnitType
from gm.store import games, inbound, phases, powers
from gm.store import submissions as orders
from gm.store.db import Database
from gm.store.errors import NotFound, PhaseClosed
from gm.store.rows import OrderLine
from gm.store.statuses import GameStatus
from tests.support.store_samples import T0, sample_state

MIN = timedelta(minutes=1)


def _phase(db: Database) -> int:
    with db.transaction() as s:
        gid = games.create_game(s, name="g", variant="standard", gm_address="gm@example.org",
                                gm_password_hash="h", now=T0, status=GameStatus.ACTIVE).id
        for name in ("England", "France", "Germany"):
            powers.add_power(s, gid, name, now=T0)
        return phases.open_phase(s, gid, sample_state(), now=T0).id


def test_lines_are_kept_as_received_with_canonical_form_or_error(database: Database) -> None:
    pid = _phase(database)
    move = Move(UnitSpec(UnitType.FLEET, Location("Lon")), Location("NTH"))
    error = OrderError(ErrorKind.UNKNOWN_PROVINCE, "a xyz h",
                       "\"a xyz h\": there is no province 'xyz'")
    lines = [
        OrderLine.of(Submitted("England", "f lon - nth", move)),
        OrderLine.of(Submitted("England", "a xyz h", None, error)),
    ]
    assert lines[0] == OrderLine("f lon - nth", "F Lon - NTH", None)
    with database.transaction() as s:
        msg = inbound.receive_inbound(s, raw=b"orders", sender="e@example.org",
                                      message_id="<1@x>", now=T0).record
        sub = orders.submit_orders(s, pid, "England", lines, inbound_id=msg.id, now=T0 + MIN)
    assert not sub.valid
    with database.read() as s:
        (back,) = orders.order_sets(s, pid)
    assert back == sub
    assert back.lines == tuple(lines)
    assert (back.power, back.inbound_id, back.submitted_at) == ("England", msg.id, T0 + MIN)


def test_latest_valid_set_per_power_is_what_adjudication_uses(database: Database) -> None:
    pid = _phase(database)
    with database.transaction() as s:
        orders.submit_orders(s, pid, "England", [OrderLine("a", "A Lvp H")], now=T0)
        orders.submit_orders(s, pid, "England", [OrderLine("b", "A Lvp - Yor")], now=T0 + MIN)
        orders.submit_orders(s, pid, "England", [OrderLine("c", None, "unreadable")],
                             now=T0 + 2 * MIN)  # invalid: the previous set stands
        orders.submit_orders(s, pid, "France", [OrderLine("x", None, "bad")], now=T0)
        orders.submit_orders(s, pid, "Germany", [], now=T0)  # an empty set: no orders
    with database.read() as s:
        used = orders.latest_valid_orders(s, pid)
        assert sorted(used) == ["England", "Germany"]
        assert used["England"].lines == (OrderLine("b", "A Lvp - Yor"),)
        assert used["Germany"].lines == ()
        assert [x.lines[0].text for x in orders.order_sets(s, pid, power="England")] == [
            "a", "b", "c"
        ]
        assert len(orders.order_sets(s, pid)) == 5


def test_orders_for_an_adjudicated_phase_are_refused(database: Database) -> None:
    pid = _phase(database)
    with database.transaction() as s:
        phases.record_results(s, pid, [], now=T0)
    with pytest.raises(PhaseClosed, match="too late"), database.transaction() as s:
        orders.submit_orders(s, pid, "England", [OrderLine("a", "A Lvp H")], now=T0)
    with database.read() as s:
        assert orders.order_sets(s, pid) == []


def test_orders_need_a_known_phase_and_power(database: Database) -> None:
    pid = _phase(database)
    with pytest.raises(NotFound), database.transaction() as s:
        orders.submit_orders(s, pid, "Italy", [], now=T0)
    with pytest.raises(NotFound), database.transaction() as s:
        orders.submit_orders(s, pid + 99, "England", [], now=T0)


def test_a_whole_game_of_orders_in_one_call(database: Database) -> None:
    pid = _phase(database)
    with database.transaction() as s:
        gid = phases.get_phase(s, pid).game_id
        orders.submit_orders(s, pid, "England", [OrderLine("a", "A Lvp H")], now=T0)
        phases.record_results(s, pid, [], now=T0)
        nxt = phases.open_phase(s, gid, sample_state(), now=T0).id
        orders.submit_orders(s, nxt, "France", [OrderLine("b", "A Par H")], now=T0)
        orders.submit_orders(s, nxt, "France", [OrderLine("c", "A Par - Bur")], now=T0)
    with database.read() as s:
        by_phase = orders.order_sets_for_game(s, gid)
        assert sorted(by_phase) == [pid, nxt]
        assert [x.lines[0].text for x in by_phase[nxt]] == ["b", "c"]
        assert by_phase[pid] == orders.order_sets(s, pid)
