"""Orders as values (gm.engine.order_json): every order kind of every variant, built-in and from
a file, written as JSON and read back to the same order without the grammar or a map; what
the parser reads from a player's text is the value read back; anything else is refused."""

from __future__ import annotations

import inspect
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine import orders as orders_module
from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.order_json import decode, decoded, encode
from gm.engine.orders import (
    Alliance,
    AnyOrder,
    Build,
    Convoy,
    CreateCentre,
    DesignateHome,
    Disband,
    Disembark,
    Embark,
    Exchange,
    GeoEvent,
    GeoKind,
    GeoTarget,
    Hold,
    KeepFleet,
    Move,
    Order,
    Remove,
    Retreat,
    Stabilize,
    SupportEvent,
    SupportHold,
    SupportMove,
    Transform,
    UnitSpec,
    Waive,
)
from gm.engine.phase import PhaseType
from gm.engine.units import UnitType
from gm.engine.variant import OrderKind, Variant
from gm.notation import parse_order, stored_order
from gm.variants.registry import get_variant, names
from gm.variants.varfile import read_variant

ISTHMIA = Path(__file__).resolve().parent.parent / "variants" / "data" / "isthmia.toml"
M, R, ADJ = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT
A, F, AF = UnitType.ARMY, UnitType.FLEET, UnitType.ARMY_FLEET


@cache
def variant_named(name: str) -> Variant:
    if name == "isthmia (file)":
        return read_variant(ISTHMIA).variant
    return get_variant(name)


VARIANTS = [*names(), "isthmia (file)"]


def through_json(order: AnyOrder) -> AnyOrder:
    """`order` written as JSON text and read back, as the store keeps it."""
    return decode(json.loads(json.dumps(encode(order))))


def order_classes() -> set[type]:
    """Every order kind gm.engine.orders defines (its concrete frozen dataclasses)."""
    bases = {Order, UnitSpec, GeoTarget}
    return {c for _, c in inspect.getmembers(orders_module, inspect.isclass)
            if c.__module__ == orders_module.__name__ and c not in bases
            and hasattr(c, "__dataclass_fields__")}


def test_every_order_kind_has_a_json_form() -> None:
    u = UnitSpec(A, Location("Par"))
    samples: list[AnyOrder] = [
        Hold(u), Move(u, Location("Bur")), SupportHold(u, u), SupportMove(u, u, Location("Bur")),
        Convoy(u, u, Location("Bur")), Retreat(u, Location("Bur")), Disband(u), Build(u),
        Remove(u), Waive(), Embark(u, Location("ENG")), Disembark(u, Location("Bre")),
        Transform(u), KeepFleet(u), Exchange("Germany", ("Bel",), ("Hol",)),
        DesignateHome("Bel"), Alliance(("Paris",)), GeoEvent(GeoKind.ERODE, GeoTarget("Mos")),
        SupportEvent("Turkey", GeoEvent(GeoKind.UPLIFT, GeoTarget("NTH"))),
        CreateCentre("Bur"), Stabilize(GeoTarget("Mun", "Ber"), 2),
    ]
    assert {type(o) for o in samples} == order_classes()  # a new kind must be added here
    for order in samples:
        assert encode(order)["kind"] == type(order).__name__
        assert through_json(order) == order


def test_the_json_form_names_the_order_as_written_canonically() -> None:
    order = Move(UnitSpec(F, Location("StP", "sc")), Location("BOT"), via_convoy=False)
    assert encode(order) == {"kind": "Move", "unit": {"type": "F", "at": "StP/sc"}, "to": "BOT"}
    assert encode(SupportHold(UnitSpec(None, Location("Mar")), UnitSpec(A, Location("Par")))) \
        == {"kind": "SupportHold", "unit": {"type": None, "at": "Mar"},
            "target": {"type": "A", "at": "Par"}}


@pytest.mark.parametrize("data", [
    None, [], "A Par H", {}, {"kind": "Teleport", "unit": {"type": "A", "at": "Par"}},
    {"kind": "Move", "unit": {"type": "A", "at": "Par"}},  # no destination
    {"kind": "Move", "unit": {"type": "Z", "at": "Par"}, "to": "Bur"},
    {"kind": "Hold", "unit": {"type": "A", "at": "Spa/"}},
    {"kind": "Stabilize", "target": {"province": "Mos"}, "count": 0},
    {"kind": "GeoEvent", "event": "Flood", "target": {"province": "Mos"}},
    {"kind": "Exchange", "partner": "Germany", "give": "Bel", "receive": ["Hol"]},
])
def test_what_is_not_an_order_value_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        decode(data)
    assert decoded(data) is None


# -- generated orders of every kind, on each variant's own map --------------------------------
def locations_of(gmap: GameMap) -> list[Location]:
    found = []
    for province in sorted(gmap.provinces):
        found.append(Location(province))
        found.extend(Location(province, coast) for coast in gmap.coasts.get(province, ()))
    return found


def any_order(gmap: GameMap) -> st.SearchStrategy[AnyOrder]:
    locations = st.sampled_from(locations_of(gmap))
    provinces = st.sampled_from(sorted(gmap.provinces))
    units = st.builds(UnitSpec, st.sampled_from([None, A, F, AF]), locations)
    targets = st.one_of(st.builds(GeoTarget, provinces),
                        st.builds(GeoTarget, provinces, provinces))
    events = st.builds(GeoEvent, st.sampled_from(list(GeoKind)), targets)
    words = st.text(min_size=1, max_size=12)
    return st.one_of(
        st.builds(Hold, units), st.builds(Move, units, locations, st.booleans()),
        st.builds(SupportHold, units, units), st.builds(SupportMove, units, units, locations),
        st.builds(Convoy, units, units, locations), st.builds(Retreat, units, locations),
        st.builds(Disband, units), st.builds(Build, units), st.builds(Remove, units),
        st.just(Waive()), st.builds(Embark, units, locations),
        st.builds(Disembark, units, locations),
        st.builds(Transform, units, st.none() | locations), st.builds(KeepFleet, units),
        st.builds(Exchange, words, st.lists(provinces, max_size=3).map(tuple),
                  st.lists(provinces, max_size=3).map(tuple)),
        st.builds(DesignateHome, provinces), st.builds(Alliance, st.lists(words).map(tuple)),
        events, st.builds(SupportEvent, words, events), st.builds(CreateCentre, provinces),
        st.builds(Stabilize, targets, st.integers(1, 99)),
    )


@pytest.mark.parametrize("name", VARIANTS)
def test_generated_orders_of_each_variant_read_back(name: str) -> None:
    variant = variant_named(name)

    @settings(max_examples=300, deadline=None)
    @given(any_order(variant.map))
    def reads_back(order: AnyOrder) -> None:
        again = through_json(order)
        assert again == order
        assert str(again) == str(order)

    reads_back()


# -- what the parser reads from players' text, kept and read back ----------------------------
# Texts of every order kind; each variant reads those of the kinds it allows on its own map.
TEXTS: dict[str | None, list[tuple[str, PhaseType]]] = {
    None: [("A Par - Bur", M), ("F Bre - ENG", M), ("A Par H", M), ("A Mar S A Par - Bur", M),
           ("F Bre S A Par", M), ("F ENG C A Lon - Bre", M), ("A Lon - Bre via convoy", M),
           ("F StP/sc - BOT", M), ("A Par - Bur", R), ("A Par D", R), ("Build A Par", ADJ),
           ("Build F StP/nc", ADJ), ("Remove A Par", ADJ), ("Waive", ADJ)],
    OrderKind.ARMY_FLEET: [("A Lon boards F ENG", M), ("A/F ENG disembarks Bre", M),
                           ("A/F ENG - MAO", M), ("F ENG FF A Lon - Bre", M)],
    OrderKind.TRANSFORM: [("A Bre transforms", M), ("A Spa transforms to F Spa/sc", M)],
    OrderKind.KEEP_FLEET: [("F ION no change", M)],
    OrderKind.EXCHANGE: [("Exchange Bel Den for Hol Kie with Germany", M)],
    OrderKind.HOME: [("Home Bel", ADJ)],
    OrderKind.ALLIANCE: [("Alliance Paris Berlin", ADJ), ("Alliance St Petersburg, Paris", ADJ)],
    OrderKind.GEO: [("Erode Mos", M), ("Earthquake Mun-Ber", M), ("Ice advance BAR", M),
                    ("Support Turkish Uplift NTH", M), ("Create centre Bur", M),
                    ("2 Stabilize Mos", M), ("Stabilize Mun-Ber", M)],
}


def parsed_orders(variant: Variant) -> dict[str | None, list[AnyOrder]]:
    """The TEXTS of the variant's kinds that read on its map, by kind."""
    out: dict[str | None, list[AnyOrder]] = {}
    for kind, texts in TEXTS.items():
        if kind is not None and kind not in variant.order_kinds:
            continue
        for text, phase in texts:
            order = parse_order(text, variant.map, phase, variant.order_kinds)
            if not isinstance(order, OrderError):
                out.setdefault(kind, []).append(order)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_every_kind_a_variant_reads_is_kept_as_the_same_value(name: str) -> None:
    variant = variant_named(name)
    found = parsed_orders(variant)
    # every kind the variant allows is read from some text on its map (so kept and read back)
    assert set(found) == {None, *variant.order_kinds}, name
    for orders in found.values():
        for order in orders:
            again = through_json(order)
            assert again == order and str(again) == str(order)
            # read as stored: the value, never the text (which here reads as nothing)
            assert stored_order(again, "not an order", lambda: variant.map, M,
                                variant.order_kinds) == order


def test_sahara_and_the_file_variant_read_their_kinds_on_their_own_maps() -> None:
    sahara = variant_named("sahara")
    fleet = next(u for u in sahara.start_state().units if u.type is F)
    order = parse_order(f"F {fleet.location} no change", sahara.map, M, sahara.order_kinds)
    assert isinstance(order, KeepFleet) and through_json(order) == order
    isthmia = variant_named("isthmia (file)")
    for unit in isthmia.start_state().units:
        order = parse_order(f"{unit.type.value} {unit.location} H", isthmia.map, M,
                            isthmia.order_kinds)
        assert isinstance(order, Hold) and through_json(order) == order
    ist = parse_order("F Ist/nc - GUL", isthmia.map, M)
    assert not isinstance(ist, OrderError) and through_json(ist) == ist


def test_a_line_stored_without_its_value_is_read_from_its_text() -> None:
    variant = get_variant("standard")
    asked: list[bool] = []

    def board() -> GameMap:
        asked.append(True)
        return variant.map

    assert stored_order(None, "A Par - Bur", board, M, frozenset()) == \
        Move(UnitSpec(A, Location("Par")), Location("Bur"))
    assert asked == [True]
    kept = Hold(UnitSpec(A, Location("Par")))
    assert stored_order(kept, "A Par - Bur", board, M, frozenset()) == kept
    assert asked == [True]  # the map is not even asked for
