"""Reading and writing many games at once (what `gm tick` does per batch): each set-based call
returns what the one-game calls return, game by game, and the one-statement writes keep the
guarantees of the calls they stand in for (a phase is closed once; the next index is unique)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from gm.store import audit, games, outbound, phases, powers, press
from gm.store import submissions as orders
from gm.store.db import Database
from gm.store.errors import PhaseClosed
from gm.store.rows import Attachment, BodyPart, OrderLine
from gm.store.statuses import GameStatus
from tests.support.store_samples import T0, sample_results, sample_state

MIN = timedelta(minutes=1)


def _games(db: Database, count: int) -> list[int]:
    """`count` games, each with three powers (the second one played from two addresses), an
    adjudicated first phase and an open second one with orders from two powers."""
    ids = []
    with db.transaction() as s:
        for i in range(count):
            gid = games.create_game(s, name=f"g{i}", variant="standard",
                                    gm_address=f"gm{i}@example.org", gm_password_hash="h",
                                    now=T0, status=GameStatus.ACTIVE).id
            for n, name in enumerate(("England", "France", "Germany")):
                addresses = [f"{name}{i}@example.org"] + ([f"b{i}@example.org"] if n == 1 else [])
                powers.add_power(s, gid, name, now=T0, addresses=addresses)
            first = phases.open_phase(s, gid, sample_state(), now=T0)
            phases.record_results(s, first.id, sample_results(sample_state()), now=T0)
            second = phases.open_phase(s, gid, sample_state(), now=T0 + MIN)
            orders.submit_orders(s, second.id, "England", [OrderLine("a", "A Lvp H")], now=T0)
            orders.submit_orders(s, second.id, "England", [OrderLine("b", "A Lvp - Yor")],
                                 now=T0 + MIN)
            orders.submit_orders(s, second.id, "England", [OrderLine("c", None, "bad")],
                                 now=T0 + 2 * MIN)
            orders.submit_orders(s, second.id, "France", [OrderLine("d", "F Bre H")], now=T0)
            press.record_press(s, gid, phase_id=second.id, from_power="France",
                               from_address=f"France{i}@example.org", broadcast=True,
                               body=f"hello {i}", now=T0)
            ids.append(gid)
    return ids


def test_many_games_read_at_once_as_one_by_one(database: Database) -> None:
    ids = _games(database, 3)
    with database.transaction() as s:
        assert games.lock_games(s, ids, skip_locked=True) == set(ids)
        assert games.get_games(s, [*ids, 10_000]) == {g: games.get_game(s, g) for g in ids}
        current = phases.current_phases(s, ids)
        assert current == {g: phases.current_phase(s, g) for g in ids}
        assert all(p.index == 1 and not p.adjudicated for p in current.values())
        assert powers.powers_of_games(s, ids) == {g: powers.list_powers(s, g) for g in ids}
        assert powers.powers_of_games(s, ids)[ids[0]][1].addresses == \
            (f"France{0}@example.org", "b0@example.org")
        stored = orders.latest_valid_orders_of_phases(s, [p.id for p in current.values()])
        assert stored == {p.id: orders.latest_valid_orders(s, p.id) for p in current.values()}
        assert stored[current[ids[0]].id]["England"].lines == (OrderLine("b", "A Lvp - Yor"),)
        assert press.press_of_games(s, ids) == {g: press.list_press(s, g) for g in ids}


def test_phase_closed_once_and_next_opened_after_it(database: Database) -> None:
    (gid,) = _games(database, 1)
    with database.transaction() as s:
        phase = phases.current_phase(s, gid)
        assert phase is not None
        phases.close_phase(s, phase.id, sample_results(phase.state), now=T0 + 5 * MIN,
                           events=["The Baltic freezes."])
        with pytest.raises(PhaseClosed):
            phases.close_phase(s, phase.id, [], now=T0 + 6 * MIN)
        closed = phases.get_phase(s, phase.id)
        assert closed.adjudicated_at == T0 + 5 * MIN and closed.events == ("The Baltic freezes.",)
        nxt = phases.open_next_phase(s, closed, sample_state(), now=T0 + 5 * MIN,
                                     deadline_at=T0 + 60 * MIN)
        assert nxt == phases.current_phase(s, gid)
    with pytest.raises(IntegrityError), database.transaction() as s:  # one phase per index
        phases.open_next_phase(s, closed, sample_state(), now=T0 + 7 * MIN)


def test_many_messages_and_audit_entries_written_at_once(database: Database) -> None:
    ids = _games(database, 2)
    svg = Attachment("map.svg", "image/svg+xml", b"<svg/>")
    with database.transaction() as s:
        outbound.enqueue_many(s, [
            outbound.NewMessage(f"<m{i}@x>", [f"p{i}@example.org"], [("Subject", f"r{i}")],
                                [BodyPart("text/plain", f"body {i}")],
                                (svg,) if i % 2 else (), game_id=ids[i % 2])
            for i in range(4)], now=T0)
        audit.record_actions(s, [
            audit.NewEntry(actor="gm tick", action="process", at=T0, game_id=g,
                           game_name=f"g{n}", details={"phase": "S1901M"})
            for n, g in enumerate(ids)])
    with database.read() as s:
        queued = outbound.list_outbound(s)
        log = audit.audit_log(s, action="process")
    assert [(m.message_id, m.game_id, m.attachments) for m in queued] == [
        ("<m0@x>", ids[0], ()), ("<m1@x>", ids[1], (svg,)),
        ("<m2@x>", ids[0], ()), ("<m3@x>", ids[1], (svg,))]
    assert [(e.game_id, e.game_name, e.details) for e in log] == [
        (ids[0], "g0", {"phase": "S1901M"}), (ids[1], "g1", {"phase": "S1901M"})]
