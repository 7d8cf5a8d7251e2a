"""Canonical text round trip: `str(order)` parses back to the same order, for any order over
the standard map's provinces and coasts, in any letter case."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import (
    ADJUSTMENT_ORDERS,
    MOVEMENT_ORDERS,
    RETREAT_ORDERS,
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
from gm.engine.phase import PhaseType
from gm.engine.units import UnitType
from gm.notation import parse_order
from gm.notation.checks import text_error
from gm.variants.maps import standard_map


@cache
def gmap() -> GameMap:
    return standard_map()


def all_locations() -> list[Location]:
    m = gmap()
    found = []
    for province in sorted(m.provinces):
        found.append(Location(province))
        found.extend(Location(province, coast) for coast in m.coasts.get(province, ()))
    return found


locations = st.sampled_from(all_locations())
unit_types = st.sampled_from([None, UnitType.ARMY, UnitType.FLEET, UnitType.ARMY_FLEET])
units = st.builds(UnitSpec, unit_types, locations)
typed_units = st.builds(UnitSpec, unit_types.filter(lambda t: t is not None), locations)

orders: st.SearchStrategy[AnyOrder] = st.one_of(
    st.builds(Hold, units),
    st.builds(Move, units, locations, st.booleans()),
    st.builds(SupportHold, units, units),
    st.builds(SupportMove, units, units, locations),
    st.builds(Convoy, units, units, locations),
    st.builds(Retreat, units, locations),
    st.builds(Disband, units),
    st.builds(Build, typed_units),
    st.builds(Remove, units),
    st.just(Waive()),
)


def phase_of(order: AnyOrder) -> PhaseType:
    if isinstance(order, MOVEMENT_ORDERS):
        return PhaseType.MOVEMENT
    if isinstance(order, RETREAT_ORDERS):
        return PhaseType.RETREAT
    assert isinstance(order, ADJUSTMENT_ORDERS)
    return PhaseType.ADJUSTMENT


@settings(max_examples=1500, deadline=None)
@given(orders)
def test_canonical_text_parses_back_to_the_same_order(order: AnyOrder) -> None:
    text = str(order)
    impossible = text_error(order, text)
    for written in (text, text.upper(), text.lower()):
        for phase in (None, phase_of(order)):
            parsed = parse_order(written, gmap(), phase)
            if impossible is not None:
                # e.g. `A Par - Par`: read, then refused as the text alone proves it illegal
                assert isinstance(parsed, OrderError) and parsed.kind is ErrorKind.ILLEGAL
            else:
                assert parsed == order, (written, phase, parsed)
                assert str(parsed) == text


@settings(max_examples=300, deadline=None)
@given(st.builds(Move, units, locations, st.booleans()))
def test_a_move_in_a_retreat_phase_is_the_retreat_of_the_same_unit(move: Move) -> None:
    parsed = parse_order(str(move), gmap(), PhaseType.RETREAT)
    if move.unit.province == move.dest.province:
        assert isinstance(parsed, OrderError) and parsed.kind is ErrorKind.ILLEGAL
    elif move.via_convoy:
        assert isinstance(parsed, OrderError) and parsed.kind is ErrorKind.ILLEGAL
        assert "convoy" in parsed.message
    else:
        assert parsed == Retreat(move.unit, move.dest)


def test_canonical_forms() -> None:
    a_par = UnitSpec(UnitType.ARMY, Location("Par"))
    f_stp = UnitSpec(UnitType.FLEET, Location("StP", "nc"))
    assert str(Move(a_par, Location("Bur"))) == "A Par - Bur"
    assert str(Move(a_par, Location("Bre"), via_convoy=True)) == "A Par - Bre via convoy"
    assert str(Hold(f_stp)) == "F StP/nc H"
    assert str(SupportHold(a_par, UnitSpec(None, Location("Mar")))) == "A Par S Mar"
    assert str(Convoy(UnitSpec(UnitType.FLEET, Location("ENG")), a_par, Location("Lon"))) == (
        "F ENG C A Par - Lon"
    )
    assert str(Retreat(a_par, Location("Gas"))) == "A Par R Gas"
    assert str(Disband(a_par)) == "A Par D"
    assert str(Build(f_stp)) == "Build F StP/nc"
    assert str(Remove(a_par)) == "Remove A Par"
    assert str(Waive()) == "Waive"
