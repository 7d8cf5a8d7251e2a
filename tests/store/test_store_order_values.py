"""Orders kept as values: each line read on arrival is stored with its order as a value
(gm.engine.order_json) beside its text, read back as that value by every reader (adjudication,
the tick, later messages, the pictures), and a line stored without one is read from its
canonical text as before."""

from __future__ import annotations

import sqlalchemy as sa

from gm.engine.geo import Location
from gm.engine.orders import Hold, Move, SupportMove, UnitSpec
from gm.engine.results import OrderResult, Outcome
from gm.engine.units import UnitType
from gm.pictures.render import results_from_stored
from gm.play.adjudicate import submissions
from gm.store import games, phases, powers
from gm.store import submissions as orders
from gm.store.db import Database
from gm.store.models import OrderLineRow
from gm.store.rows import OrderLine, StoredResult
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.store_samples import T0

A, F = UnitType.ARMY, UnitType.FLEET
A_PAR = UnitSpec(A, Location("Par"))
TO_BUR = Move(A_PAR, Location("Bur"))


def _phase(db: Database) -> int:
    with db.transaction() as s:
        gid = games.create_game(s, name="g", variant="standard", gm_address="gm@example.org",
                                gm_password_hash="h", now=T0, status=GameStatus.ACTIVE).id
        for name in ("England", "France"):
            powers.add_power(s, gid, name, now=T0)
        return phases.open_phase(s, gid, get_variant("standard").start_state(), now=T0).id


def test_a_line_is_stored_with_its_value_and_read_back_as_it(database: Database) -> None:
    pid = _phase(database)
    support = SupportMove(UnitSpec(A, Location("Mar")), A_PAR, Location("Bur"))
    with database.transaction() as s:
        orders.submit_orders(s, pid, "France", [OrderLine.taken("a par-bur", TO_BUR),
                                                OrderLine.taken("mar s par-bur", support)],
                             now=T0)
    with database.read() as s:
        stored = s.scalars(sa.select(OrderLineRow.value).order_by(OrderLineRow.position)).all()
        assert stored[0] == {"kind": "Move", "unit": {"type": "A", "at": "Par"}, "to": "Bur"}
        for read in (orders.latest_valid_orders(s, pid)["France"],
                     orders.latest_valid_orders_of(s, pid, "France"),
                     orders.order_sets(s, pid)[0]):
            assert read is not None
            assert [(ln.text, ln.canonical, ln.order) for ln in read.lines] == [
                ("a par-bur", "A Par - Bur", TO_BUR),
                ("mar s par-bur", "A Mar S A Par - Bur", support)]


def test_adjudication_reads_the_value_not_the_text(database: Database) -> None:
    """The value is what counts: a line whose kept value says `A Par H` is adjudicated as a
    hold whatever its texts say (they are not read again)."""
    pid = _phase(database)
    hold = Hold(A_PAR)
    with database.transaction() as s:
        orders.submit_orders(s, pid, "France",
                             [OrderLine("a par - bur", "A Par - Bur", order=hold)], now=T0)
        phase = phases.get_phase(s, pid)
        (submitted,) = submissions(s, get_variant("standard"), phase)
    assert (submitted.power, submitted.text, submitted.order) == ("France", "a par - bur", hold)


def test_a_line_stored_without_a_value_is_read_from_its_canonical_text(
        database: Database) -> None:
    pid = _phase(database)
    with database.transaction() as s:
        orders.submit_orders(s, pid, "France", [OrderLine("a par-bur", "A Par - Bur"),
                                                OrderLine("a mar x", "A Mar - Xyz")], now=T0)
        assert s.scalars(sa.select(OrderLineRow.value)).all() == [None, None]
        phase = phases.get_phase(s, pid)
        read, unreadable = submissions(s, get_variant("standard"), phase)
    assert read.order == TO_BUR
    assert unreadable.order is None and unreadable.error is not None
    assert "Xyz" in unreadable.error.message


def test_a_result_is_stored_with_its_order_and_drawn_from_it() -> None:
    result = OrderResult("France", TO_BUR, "a par-bur", Outcome.SUCCEEDS)
    stored = StoredResult.of(result)
    data = stored.to_json()
    assert data["order"] == {"kind": "Move", "unit": {"type": "A", "at": "Par"}, "to": "Bur"}
    again = StoredResult.from_json(data)
    assert again.order == TO_BUR and again == stored
    variant = get_variant("standard")
    # drawn from the value: the text (here changed to one that reads otherwise) is not read
    (drawn,) = results_from_stored(variant, variant.start_state(),
                                   [StoredResult.from_json({**data, "canonical": "A Par H"})])
    assert drawn.order == TO_BUR
    # a result stored before values were kept: its canonical text is read
    old = {k: v for k, v in data.items() if k != "order"}
    assert StoredResult.from_json(old).order is None
    (drawn,) = results_from_stored(variant, variant.start_state(), [StoredResult.from_json(old)])
    assert drawn.order == TO_BUR
