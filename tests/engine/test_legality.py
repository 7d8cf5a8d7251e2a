"""Order legality on the standard map: resolved orders, and messages that say what is wrong."""

from __future__ import annotations

import pytest

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.legality import (
    check_adjustment_order,
    check_movement_order,
    check_retreat_order,
)
from gm.engine.order_check import check_order
from gm.engine.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitSpec,
    Waive,
)
from gm.engine.state import GameState
from gm.engine.units import UnitType
from tests.support.boards import RETREAT, WINTER, position, std

A, F = UnitType.ARMY, UnitType.FLEET


def loc(text: str) -> Location:
    return Location.parse(text)


def spec(text: str) -> UnitSpec:
    """`A Par`, `F Spa/nc`, or `Par` (no type)."""
    parts = text.split()
    if len(parts) == 1:
        return UnitSpec(None, loc(parts[0]))
    return UnitSpec(UnitType(parts[0]), loc(parts[1]))


def move(unit: str, dest: str, via: bool = False) -> Move:
    return Move(spec(unit), loc(dest), via)


def check(state: GameState, power: str, order: AnyOrder) -> AnyOrder | OrderError:
    return check_movement_order(std(), state, power, order)


def message(result: object) -> str:
    assert isinstance(result, OrderError), result
    return result.message


BOARD = position(
    "France: A Par", "France: F Gas", "France: F MAO", "France: F Spa/sc", "Germany: F Kie",
    "Germany: A Mun", "England: F NTH", "England: A Yor", "England: A Lon", "Italy: F Rom",
    "Italy: A Apu", "Austria: A Ven", "Turkey: F Con", "Russia: F StP/nc", "Turkey: F BLA",
    "Austria: A Rum", "Italy: F ION", "Turkey: A Gre", "Russia: F BOT", "Russia: A Swe",
    "England: F SKA",
)


@pytest.mark.parametrize(
    ("power", "order", "expected"),
    [
        ("France", move("A Par", "Mos"), "A Par cannot move to Mos: not adjacent, and no fleets "
                                         "to convoy it"),
        ("France", move("A Par", "Bur"), None),
        ("France", move("A Par", "ENG"), "A Par cannot move to ENG: an army cannot go to sea"),
        ("Germany", move("F Kie", "Mun"), "F Kie cannot move to Mun: a fleet cannot go inland"),
        ("Germany", move("A Mun", "Swi"), "Swi is impassable"),
        ("Germany", move("A Mun", "Mun"), "A Mun cannot move to its own province"),
        ("Germany", move("A Bur", "Par"), "no unit in Bur"),
        ("France", move("F Kie", "HEL"), "F Kie belongs to Germany"),
        ("Italy", move("F Rom", "Ven"), "F Rom cannot move to Ven: no coast leads there from Rom"),
        ("England", move("F NTH", "Pic"), "F NTH cannot move to Pic: not adjacent"),
        ("France", move("F Gas", "Spa/sc"), "F Gas cannot reach Spa/sc, only Spa/nc"),
        ("England", move("F NTH", "Bel", via=True),
         "F NTH cannot be convoyed: only armies can be convoyed"),
        ("England", move("A Lon", "Tun"),
         "A Lon cannot move to Tun: not adjacent, and no fleets to convoy it"),
        ("England", move("A Lon", "Swe"), None),  # F NTH and F SKA could convoy it
    ],
)
def test_move_legality(power: str, order: Move, expected: str | None) -> None:
    got = check(BOARD, power, order)
    if expected is None:
        assert got == order
    else:
        assert message(got) == expected
        assert isinstance(got, OrderError) and got.kind is ErrorKind.ILLEGAL
        assert got.text == str(order)


def test_ambiguous_coast_says_which_coasts() -> None:
    got = check(BOARD, "France", move("F MAO", "Spa"))
    assert isinstance(got, OrderError)
    assert got.kind is ErrorKind.AMBIGUOUS
    assert got.message == "F MAO - Spa: say which coast, Spa/nc or Spa/sc"


def test_only_coast_is_filled_in() -> None:
    # DATC 6.B.2
    assert check(BOARD, "France", move("F Gas", "Spa")) == move("F Gas", "Spa/nc")


def test_coast_of_the_ordered_unit_is_the_one_it_is_on() -> None:
    # DATC 6.B.10: the wrong coast of the ordered unit is ignored...
    assert check(BOARD, "France", move("F Spa/nc", "LYO")) == move("F Spa/sc", "LYO")
    # ...and 6.B.11: a fleet on the north coast cannot reach LYO whatever the order says.
    state = position("France: F Spa/nc")
    assert "cannot move to LYO" in message(check(state, "France", move("F Spa/sc", "LYO")))


def test_army_coast_and_unit_type_are_ignored() -> None:
    # DATC 6.B.12, 4.C.1, 4.C.2
    state = position("France: A Gas")
    assert check(state, "France", move("A Gas", "Spa/nc")) == move("A Gas", "Spa")
    assert check(state, "France", move("F Gas", "Spa")) == move("A Gas", "Spa")
    assert check(state, "France", move("Gas", "Spa")) == move("A Gas", "Spa")


def test_convoy_moves_need_fleets_at_sea() -> None:
    # DATC 6.D.8: a move that a fleet could convoy is a move, not a hold...
    assert check(BOARD, "Turkey", move("A Gre", "Nap")) == move("A Gre", "Nap")
    assert check(BOARD, "England", move("A Yor", "Hol")) == move("A Yor", "Hol")
    # ...6.D.32: with no fleet to carry it, it is illegal.
    state = position("Germany: A Yor")
    assert message(check(state, "Germany", move("A Yor", "Hol"))) == (
        "A Yor cannot move to Hol: not adjacent, and no fleets to convoy it")


@pytest.mark.parametrize(
    ("power", "order", "expected"),
    [
        # DATC 6.A.8
        ("Turkey", SupportHold(spec("F Con"), spec("F Con")), "F Con cannot support itself"),
        # DATC 6.A.10
        ("Italy", SupportMove(spec("F Rom"), spec("A Apu"), loc("Ven")),
         "F Rom cannot support a move to Ven: it could not move there itself"),
        # DATC 6.B.5
        ("Russia", SupportHold(spec("F StP/nc"), spec("F BOT")),
         "F StP/nc cannot support F BOT: it could not move to BOT itself"),
        # DATC 6.D.34
        ("Germany", SupportMove(spec("A Mun"), spec("A Par"), loc("Mun")),
         "A Mun cannot support a move into its own province"),
        ("Germany", SupportMove(spec("A Mun"), spec("A Tyr"), loc("Boh")), "no unit in Tyr"),
        ("France", SupportMove(spec("F MAO"), spec("F Gas"), loc("Spa/sc")),
         "the supported move is impossible: F Gas cannot reach Spa/sc, only Spa/nc"),
        # DATC 6.D.31: the fleet cannot both support and convoy.
        ("Turkey", SupportMove(spec("F BLA"), spec("A Rum"), loc("Ank")),
         "the supported move is impossible: A Rum cannot reach Ank"),
        ("England", SupportMove(spec("F NTH"), spec("A Yor"), loc("Yor")),
         "A Yor cannot move to its own province"),
    ],
)
def test_support_legality(power: str, order: AnyOrder, expected: str) -> None:
    assert message(check(BOARD, power, order)) == expected


def test_supports_are_resolved() -> None:
    # A support may leave the coast out (DATC 6.B.7) or give one the fleet can reach (6.B.4).
    got = check(BOARD, "France", SupportMove(spec("F MAO"), spec("Gas"), loc("Spa")))
    assert got == SupportMove(spec("F MAO"), spec("F Gas"), loc("Spa"))
    state = position("France: F Mar", "France: F Gas")
    got = check(state, "France", SupportMove(spec("F Mar"), spec("F Gas"), loc("Spa/nc")))
    assert got == SupportMove(spec("F Mar"), spec("F Gas"), loc("Spa/nc"))
    # An army's destination never keeps a coast.
    got = check(BOARD, "France", SupportMove(spec("F Gas"), spec("A Par"), loc("Bre/nc")))
    assert got == SupportMove(spec("F Gas"), spec("A Par"), loc("Bre"))
    # A foreign unit may be supported; its type is taken from the board.
    got = check(BOARD, "Austria", SupportHold(spec("A Ven"), spec("A Rom")))
    assert got == SupportHold(spec("A Ven"), spec("F Rom"))


@pytest.mark.parametrize(
    ("power", "order", "expected"),
    [
        # DATC 6.F.1: fleets in coastal provinces do not convoy.
        ("Turkey", Convoy(spec("F Con"), spec("A Gre"), loc("Sev")),
         "F Con cannot convoy: only fleets at sea convoy"),
        # DATC 6.A.7: only armies are convoyed.
        ("England", Convoy(spec("F NTH"), spec("F Kie"), loc("Yor")),
         "F Kie cannot be convoyed: only armies can be convoyed"),
        # DATC 6.A.5
        ("England", Convoy(spec("F NTH"), spec("A Yor"), loc("Yor")),
         "A Yor cannot move to its own province"),
        # DATC 6.G.7: F BOT cannot be part of any convoy from Swe to Nwy.
        ("Russia", Convoy(spec("F BOT"), spec("A Swe"), loc("Nwy")),
         "F BOT cannot take part in a convoy from Swe to Nwy"),
        ("Italy", Convoy(spec("F ION"), spec("A Gre"), loc("ION")),
         "A Gre cannot be convoyed to ION: an army cannot go to sea"),
    ],
)
def test_convoy_legality(power: str, order: AnyOrder, expected: str) -> None:
    assert message(check(BOARD, power, order)) == expected


def test_convoy_is_resolved() -> None:
    got = check(BOARD, "England", Convoy(spec("F SKA"), spec("Swe"), loc("Nwy")))
    assert got == Convoy(spec("F SKA"), spec("A Swe"), loc("Nwy"))


def test_orders_of_other_phases_are_refused() -> None:
    assert message(check(BOARD, "France", Retreat(spec("A Par"), loc("Bur")))) == (
        "a retreat order is not possible in a movement phase")
    assert message(check(BOARD, "France", Waive())) == (
        "a waive order is not possible in a movement phase")


# -- retreats ---------------------------------------------------------------------------------
RETREATING = position(
    "Russia: F Con", "Russia: F Ank", "Austria: A Vie", "Germany: A Sil",
    phase=RETREAT,
    dislodged=[("Turkey: F Ank", "BLA"), ("Italy: A Boh", "Vie"), ("Russia: F BOT", None)],
    contested=["Gal"],
)


@pytest.mark.parametrize(
    ("power", "order", "expected"),
    [
        ("Turkey", Retreat(spec("F Ank"), loc("BLA")),
         "F Ank cannot retreat to BLA: the attacker came from there"),  # DATC 6.H.5
        ("Turkey", Retreat(spec("F Ank"), loc("Con")),
         "F Ank cannot retreat to Con: it is occupied"),
        ("Italy", Retreat(spec("A Boh"), loc("Gal")),
         "A Boh cannot retreat to Gal: it was left empty by a standoff"),  # DATC 6.H.6
        ("Italy", Retreat(spec("A Boh"), loc("Bur")), "A Boh cannot move to Bur: not adjacent"),
        ("Russia", Retreat(spec("F Con"), loc("AEG")), "no dislodged unit in Con"),  # 6.H.4
        ("Russia", Retreat(spec("A Boh"), loc("Tyr")), "A Boh belongs to Italy"),
        ("Italy", SupportHold(spec("A Boh"), spec("A Vie")),
         "a supporthold order is not possible in a retreat phase; a dislodged unit retreats or "
         "disbands"),  # DATC 6.H.1
        ("Russia", Retreat(spec("F BOT"), loc("Mos")),
         "F BOT cannot move to Mos: a fleet cannot go inland"),
    ],
)
def test_retreat_legality(power: str, order: AnyOrder, expected: str) -> None:
    assert message(check_retreat_order(std(), RETREATING, power, order)) == expected


def test_retreats_are_resolved() -> None:
    got = check_retreat_order(std(), RETREATING, "Turkey", Retreat(spec("Ank"), loc("Arm")))
    assert got == Retreat(spec("F Ank"), loc("Arm"))
    got = check_retreat_order(std(), RETREATING, "Russia", Retreat(spec("F BOT"), loc("StP")))
    assert got == Retreat(spec("F BOT"), loc("StP/sc"))
    got = check_retreat_order(std(), RETREATING, "Italy", Disband(spec("F Boh")))
    assert got == Disband(spec("A Boh"))
    assert check_order(std(), RETREATING, "Italy", Retreat(spec("A Boh"), loc("Mun"))) == (
        Retreat(spec("A Boh"), loc("Mun")))


# -- adjustments ------------------------------------------------------------------------------
BUILDING = position(
    "Russia: A Mos", "Germany: A Ber", "France: A Par",
    phase=WINTER,
    owners={"Mos": "Russia", "StP": "Russia", "Sev": "Russia", "Ber": "Germany",
            "Kie": "Germany", "Par": "France"},
)
SITES = {"Russia": frozenset({"StP", "Sev"}), "Germany": frozenset({"Kie"})}


def build(power: str, order: AnyOrder, delta: int) -> AnyOrder | OrderError:
    return check_adjustment_order(std(), BUILDING, power, order, SITES, delta)


def test_build_legality() -> None:
    assert build("Russia", Build(spec("F StP/nc")), 2) == Build(spec("F StP/nc"))
    assert build("Russia", Build(spec("A Sev")), 2) == Build(spec("A Sev"))
    got = build("Russia", Build(spec("F StP")), 2)  # DATC 6.B.14
    assert isinstance(got, OrderError) and got.kind is ErrorKind.AMBIGUOUS
    assert got.message == "Build F StP: say which coast, StP/nc or StP/sc"
    assert message(build("Russia", Build(spec("A Mos")), 2)) == (
        "cannot build in Mos: A Mos is there")  # DATC 6.I.3
    assert message(build("Russia", Build(spec("A War")), 2)) == (
        "Russia cannot build in War (build sites: Sev, StP)")  # DATC 6.I.5, 6.I.6
    assert message(build("Germany", Build(spec("F Mun")), 1)) == (
        "Germany cannot build in Mun (build sites: Kie)")
    assert message(build("France", Build(spec("A Par")), 0)) == "France has no builds"
    assert message(build("France", Waive(), 0)) == "France has no builds to waive"


def test_fleet_cannot_be_built_inland() -> None:
    # DATC 6.I.2
    sites = {"Russia": frozenset({"Mos", "StP"})}
    state = position("Russia: A StP", phase=WINTER, owners={"Mos": "Russia", "StP": "Russia",
                                                            "War": "Russia"})
    got = check_adjustment_order(std(), state, "Russia", Build(spec("F Mos")), sites, 1)
    assert message(got) == "a fleet cannot be built in Mos"
    # A build without a unit type: an army inland (DATC 4.C.3).
    got = check_adjustment_order(std(), state, "Russia", Build(spec("Mos")), sites, 1)
    assert got == Build(spec("A Mos"))


def test_removal_legality() -> None:
    assert build("France", Remove(spec("Par")), -1) == Remove(spec("A Par"))
    assert build("France", Disband(spec("A Par")), -1) == Remove(spec("A Par"))
    assert message(build("France", Remove(spec("A Ber")), -1)) == "A Ber belongs to Germany"
    assert message(build("France", Remove(spec("A Bur")), -1)) == "no unit in Bur"
    assert message(build("Russia", Remove(spec("A Mos")), 1)) == "Russia has no units to remove"


def test_check_order_follows_the_phase() -> None:
    # With no delta given, it is counted from the position and the map's centres.
    assert check_order(std(), BUILDING, "Russia", Build(spec("A Sev")), SITES) == (
        Build(spec("A Sev")))
    assert message(check_order(std(), BUILDING, "France", Build(spec("A Par")), SITES)) == (
        "France has no builds")
    movement_board = position("France: A Par")
    assert check_order(std(), movement_board, "France", Hold(spec("Par"))) == Hold(spec("A Par"))


def test_an_order_kind_says_its_own_word() -> None:
    """A reply names an order of another phase by the kind's own word (gm.engine.orders
    order_word), the variants' kinds included, not by its class's name."""
    from gm.engine.orders import CreateCentre, DesignateHome, Exchange, KeepFleet, order_word

    spec = UnitSpec(UnitType.ARMY, Location("par"))
    assert order_word(SupportHold(spec, spec)) == "support"
    assert order_word(Remove(spec)) == "removal"
    assert order_word(KeepFleet(spec)) == "keep fleet"
    assert order_word(CreateCentre("bur")) == "centre creation"
    assert order_word(DesignateHome("bel")) == "home"
    assert order_word(Exchange("France", ("bel",), ("hol",))) == "exchange"
