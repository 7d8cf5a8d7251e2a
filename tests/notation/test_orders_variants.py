"""The variant orders in the order language: every notation of the rule texts read to its value,
canonical text read back, refused in games whose variant lacks the kind or in the wrong phase,
several orders on one line (gm.notation.lines), and where mailed orders are kept."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import (
    Alliance,
    AnyOrder,
    Convoy,
    CreateCentre,
    DesignateHome,
    Disembark,
    Embark,
    Exchange,
    GeoEvent,
    GeoKind,
    GeoTarget,
    Hold,
    KeepFleet,
    Move,
    Retreat,
    Stabilize,
    SupportEvent,
    SupportMove,
    Transform,
    UnitSpec,
)
from gm.engine.phase import PhaseType
from gm.engine.units import UnitType
from gm.notation import parse_order, parse_orders
from gm.notation.fast import fast_order
from gm.notation.kinds import ADJUSTMENT_KINDS, KIND_NAMES, RETREAT_TOO_KINDS
from gm.notation.parser import _keywords
from gm.play.order_taking import order_key as _key
from gm.store.db import Database
from gm.variants.maps import standard_map

ALL = frozenset(KIND_NAMES)
M, R, ADJ = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT
A, F, AF = UnitType.ARMY, UnitType.FLEET, UnitType.ARMY_FLEET


@cache
def gmap() -> GameMap:
    return standard_map()


def u(kind: UnitType | None, place: str, coast: str | None = None) -> UnitSpec:
    return UnitSpec(kind, Location(place, coast))


def at(place: str, coast: str | None = None) -> Location:
    return Location(place, coast)


def one(text: str, phase: PhaseType | None = M, kinds: frozenset[str] = ALL) -> AnyOrder:
    parsed = parse_order(text, gmap(), phase, kinds)
    assert not isinstance(parsed, OrderError), parsed
    return parsed


def line(text: str, phase: PhaseType | None = M, kinds: frozenset[str] = ALL) -> list[AnyOrder]:
    parsed = parse_orders(text, gmap(), phase, kinds)
    assert not isinstance(parsed, OrderError), parsed
    return parsed


# -- every notation ------------------------------------------------------------------------------
MOVEMENT_FORMS: list[tuple[str, AnyOrder]] = [
    # Abstraction2 rule 3: boarding, disembarking, and FF (fast ferry) for a convoy.
    ("A Lon boards F ENG", Embark(u(A, "Lon"), at("ENG"))),
    ("A(Lon) boards F(ENG)", Embark(u(A, "Lon"), at("ENG"))),
    ("A Lon embarks F ENG", Embark(u(A, "Lon"), at("ENG"))),
    ("a lon BOARDS f eng.", Embark(u(A, "Lon"), at("ENG"))),
    ("A London boards F English Channel", Embark(u(A, "Lon"), at("ENG"))),
    ("A/F ENG disembarks Por", Disembark(u(AF, "ENG"), at("Por"))),
    ("A/F(TYS) disembarks A(Tun)", Disembark(u(AF, "TYS"), at("Tun"))),
    ("A/F(ENG) disembarks A(ENG)-Bre", Disembark(u(AF, "ENG"), at("Bre"))),
    ("A/F ENG - MAO", Move(u(AF, "ENG"), at("MAO"))),
    ("A/F ENG S A Pic - Bre", SupportMove(u(AF, "ENG"), u(A, "Pic"), at("Bre"))),
    ("F ENG FF A Lon - Bre", Convoy(u(F, "ENG"), u(A, "Lon"), at("Bre"))),
    ("F ENG fast ferry A Lon - Bre", Convoy(u(F, "ENG"), u(A, "Lon"), at("Bre"))),
    ("F ENG ferries A Lon to Bre", Convoy(u(F, "ENG"), u(A, "Lon"), at("Bre"))),
    # Deluge II rule 2.
    ("A Bre transforms", Transform(u(A, "Bre"))),
    ("A Bre T F", Transform(u(A, "Bre"))),
    ("A Bre transform to fleet", Transform(u(A, "Bre"))),
    ("A Bre T F Bre", Transform(u(A, "Bre"))),
    ("A(Spa) becomes F(Spa/sc)", Transform(u(A, "Spa"), at("Spa", "sc"))),
    ("A Spa T F Spa/sc", Transform(u(A, "Spa"), at("Spa", "sc"))),
    ("A Spa transforms to F Spain south coast", Transform(u(A, "Spa"), at("Spa", "sc"))),
    # Sahara rule 2.
    ("F ION no change", KeepFleet(u(F, "ION"))),
    ("F ION stays a fleet", KeepFleet(u(F, "ION"))),
    ("F ION does not change", KeepFleet(u(F, "ION"))),
    ("f ion NO CHANGE", KeepFleet(u(F, "ION"))),
    # Abstraction2 rule 6: provinces resolved, the partner kept as written.
    ("Exchange Bel Den for Hol Kie with Germany",
     Exchange("Germany", ("Bel", "Den"), ("Hol", "Kie"))),
    ("Exchange Bel for Hol with German", Exchange("German", ("Bel",), ("Hol",))),
    ("exchange belgium, denmark for holland and kiel with Germany",
     Exchange("Germany", ("Bel", "Den"), ("Hol", "Kie"))),
    ("Exchange North Sea Bel for Hol with Germany",
     Exchange("Germany", ("NTH", "Bel"), ("Hol",))),
    # Geophysical rules 1b, 2, 3, 7.
    ("Uplift NTH", GeoEvent(GeoKind.UPLIFT, GeoTarget("NTH"))),
    ("Erode Mos", GeoEvent(GeoKind.ERODE, GeoTarget("Mos"))),
    ("Erosion mos", GeoEvent(GeoKind.ERODE, GeoTarget("Mos"))),
    ("Orogenesis Bur", GeoEvent(GeoKind.OROGENESIS, GeoTarget("Bur"))),
    ("Orogenisis Burgundy", GeoEvent(GeoKind.OROGENESIS, GeoTarget("Bur"))),
    ("Earthquake Mun-Ber", GeoEvent(GeoKind.EARTHQUAKE, GeoTarget("Mun", "Ber"))),
    ("earthquake munich - berlin", GeoEvent(GeoKind.EARTHQUAKE, GeoTarget("Mun", "Ber"))),
    ("Ice advance BAR", GeoEvent(GeoKind.ICE_ADVANCE, GeoTarget("BAR"))),
    ("ICE  RETREAT bar", GeoEvent(GeoKind.ICE_RETREAT, GeoTarget("BAR"))),
    ("Ice advance Ice", GeoEvent(GeoKind.ICE_ADVANCE, GeoTarget("Ice"))),
    ("Support TURKISH Erode Mos",
     SupportEvent("TURKISH", GeoEvent(GeoKind.ERODE, GeoTarget("Mos")))),
    ("Support Turkey Erode Mos", SupportEvent("Turkey", GeoEvent(GeoKind.ERODE, GeoTarget("Mos")))),
    ("Support Turkey Ice retreat BAR",
     SupportEvent("Turkey", GeoEvent(GeoKind.ICE_RETREAT, GeoTarget("BAR")))),
    ("Create centre Bur", CreateCentre("Bur")),
    ("Create center Bur", CreateCentre("Bur")),
    ("Create supply centre Bur", CreateCentre("Bur")),
    ("Create s.c. Bur", CreateCentre("Bur")),
    ("Marine platform uplift NTH", GeoEvent(GeoKind.UPLIFT, GeoTarget("NTH"))),
    ("Create SC burgundy", CreateCentre("Bur")),
    ("Stabilize Mos", Stabilize(GeoTarget("Mos"))),
    ("Stabilise Mos", Stabilize(GeoTarget("Mos"))),
    ("2 Stabilize Mos", Stabilize(GeoTarget("Mos"), 2)),
    ("Stabilize Mos x2", Stabilize(GeoTarget("Mos"), 2)),
    ("Stabilize Mos 3 times", Stabilize(GeoTarget("Mos"), 3)),
    ("Earthquake along Mun-Ber", GeoEvent(GeoKind.EARTHQUAKE, GeoTarget("Mun", "Ber"))),
    ("Stabilize Mos 2", Stabilize(GeoTarget("Mos"), 2)),
    ("Stabilize Mun-Ber", Stabilize(GeoTarget("Mun", "Ber"))),
]

ADJUSTMENT_FORMS: list[tuple[str, AnyOrder]] = [
    # Chaos II rules 4-6.
    ("Home Bel", DesignateHome("Bel")),
    ("Home centre Belgium", DesignateHome("Bel")),
    ("Declare alliance Paris Berlin", Alliance(("Paris", "Berlin"))),
    ("Home Belgium", DesignateHome("Bel")),
    ("Designate home Bel", DesignateHome("Bel")),
    ("Alliance Paris Berlin Moscow", Alliance(("Paris", "Berlin", "Moscow"))),
    ("Alliance Paris, Berlin, Moscow.", Alliance(("Paris", "Berlin", "Moscow"))),
    ("Alliance Paris and Berlin", Alliance(("Paris", "Berlin"))),
    ("Alliance St Petersburg, Paris and Berlin", Alliance(("St Petersburg", "Paris", "Berlin"))),
    ("Alliance R T", Alliance(("R", "T"))),
    # RULINGS: Chaos II: one-character codes are letters and digits.
    ("Alliance A 3 Z", Alliance(("A", "3", "Z"))),
]


@pytest.mark.parametrize(("text", "expected"), MOVEMENT_FORMS)
def test_movement_phase_forms(text: str, expected: AnyOrder) -> None:
    assert one(text) == expected
    assert line(text) == [expected]


@pytest.mark.parametrize(("text", "expected"), ADJUSTMENT_FORMS)
def test_adjustment_phase_forms(text: str, expected: AnyOrder) -> None:
    assert one(text, ADJ) == expected
    assert line(text, ADJ) == [expected]


@pytest.mark.parametrize(("text", "expected"), MOVEMENT_FORMS + ADJUSTMENT_FORMS)
def test_canonical_text_of_each_form_reads_back(text: str, expected: AnyOrder) -> None:
    phase = ADJ if isinstance(expected, DesignateHome | Alliance) else M
    assert one(str(expected), phase) == expected


# -- several orders on one line (the seed's A/F lines, Abstraction2 rule 3) ----------------------
def test_boarding_moving_and_disembarking_on_one_line() -> None:
    assert line("A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por") == [
        Embark(u(A, "Lon"), at("ENG")),
        Move(u(AF, "ENG"), at("MAO")),
        Disembark(u(AF, "ENG"), at("Por")),
    ]


def test_the_fleet_clause_after_an_af_order_is_that_af_fleet() -> None:
    assert line("A/F(TYS) disembarks A(Tun), F(TYS)-WMS") == [
        Disembark(u(AF, "TYS"), at("Tun")),
        Move(u(AF, "TYS"), at("WMS")),
    ]


def test_a_disembarkation_supported_by_the_af_own_fleet() -> None:
    orders = line("A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)")
    assert orders == [
        Disembark(u(AF, "ENG"), at("Bre")),
        SupportMove(u(AF, "ENG"), u(A, "ENG"), at("Bre")),
    ]
    # The support's canonical text reads back (an A/F's fleet supports its own army).
    assert one(str(orders[1])) == orders[1]


def test_a_fleet_elsewhere_keeps_its_own_type_on_the_line() -> None:
    assert line("A/F ENG - MAO; F NTH H") == [Move(u(AF, "ENG"), at("MAO")), Hold(u(F, "NTH"))]


def test_standard_orders_separated_by_commas_and_semicolons() -> None:
    assert line("A Par - Bur, A Mar H; F Bre - MAO.", kinds=frozenset()) == [
        Move(u(A, "Par"), at("Bur")),
        Hold(u(A, "Mar")),
        Move(u(F, "Bre"), at("MAO")),
    ]


def test_exchange_and_alliance_keep_their_commas() -> None:
    assert line("A Par H; Exchange Bel, Den for Hol, Kie with Germany") == [
        Hold(u(A, "Par")),
        Exchange("Germany", ("Bel", "Den"), ("Hol", "Kie")),
    ]
    assert line("Alliance St Petersburg,", ADJ) == [Alliance(("St Petersburg",))]


def test_a_line_with_a_bad_order_is_the_error_of_that_order() -> None:
    error = parse_orders("A Par - Bur, A Xyz H", gmap(), M, ALL)
    assert isinstance(error, OrderError) and error.kind is ErrorKind.UNKNOWN_PROVINCE
    assert "Xyz" in error.message
    empty = parse_orders(" , ;", gmap(), M, ALL)
    assert isinstance(empty, OrderError) and empty.kind is ErrorKind.UNREADABLE


def test_a_lone_army_disembarking_needs_an_af_before_it() -> None:
    error = parse_orders("A disembarks Por", gmap(), M, ALL)
    assert isinstance(error, OrderError)
    assert "A disembarks Por" in error.message


# -- gating by the variant's kinds and by phase ---------------------------------------------------
KIND_OF: list[tuple[str, str, PhaseType]] = [
    ("A Lon boards F ENG", "af", M),
    ("A/F ENG disembarks Por", "af", M),
    ("F ENG FF A Lon - Bre", "af", M),
    ("A Bre transforms", "transform", M),
    ("F ION no change", "keep fleet", M),
    ("Exchange Bel for Hol with Germany", "exchange", M),
    ("Home Bel", "home", ADJ),
    ("Alliance Paris Berlin", "alliance", ADJ),
    ("Uplift NTH", "geo", M),
    ("Support Turkey Erode Mos", "geo", M),
    ("Create centre Bur", "geo", M),
    ("2 Stabilize Mos", "geo", M),
]


@pytest.mark.parametrize(("text", "kind", "phase"), KIND_OF)
def test_each_kind_is_refused_where_the_variant_lacks_it(
    text: str, kind: str, phase: PhaseType
) -> None:
    for kinds in (frozenset(), ALL - {kind}):
        error = parse_order(text, gmap(), phase, kinds)
        assert isinstance(error, OrderError) and error.kind is ErrorKind.ILLEGAL
        assert f'"{text}"' in error.message
        for variant in KIND_NAMES[kind][1]:
            assert variant in error.message
        assert "exist only in" in error.message
        lined = parse_orders(f"{text}", gmap(), phase, kinds)
        assert lined == error
    assert not isinstance(parse_order(text, gmap(), phase, frozenset({kind})), OrderError)


def test_the_message_names_the_variant() -> None:
    error = parse_order("A Bre transforms", gmap(), M)
    assert isinstance(error, OrderError)
    assert error.message == (
        '"A Bre transforms": Transform orders exist only in Deluge II, not in this game.'
    )


@pytest.mark.parametrize(("text", "kind", "phase"), KIND_OF)
def test_each_kind_is_refused_in_the_wrong_phase(text: str, kind: str, phase: PhaseType) -> None:
    for other in (M, R, ADJ):
        parsed = parse_order(text, gmap(), other, ALL)
        if other is phase:
            assert not isinstance(parsed, OrderError)
            continue
        if text.startswith("A Lon boards") and other is R:
            # Abstraction2 rule 3: an army may retreat onto its fleet; boarding in a retreat
            # phase is that retreat.
            assert parsed == Retreat(UnitSpec(UnitType.ARMY, Location("Lon")), Location("ENG"))
            continue
        if kind in RETREAT_TOO_KINDS and other is R:
            # Sahara rule 2: `no change` is an order "for that season", with the retreats too.
            assert not isinstance(parsed, OrderError)
            continue
        assert isinstance(parsed, OrderError) and parsed.kind is ErrorKind.ILLEGAL
        assert f'"{text}"' in parsed.message
        when = "adjustment phase" if kind in ADJUSTMENT_KINDS else "movement phase"
        assert f"given only in an {when}" in parsed.message or f"only in a {when}" in parsed.message
        article = "an" if other is ADJ else "a"
        assert f"not in {article} {other.value.lower()} phase." in parsed.message
    # Without a phase every form keeps its reading.
    assert not isinstance(parse_order(text, gmap(), None, ALL), OrderError)


def test_home_and_alliance_are_the_adjustment_kinds() -> None:
    assert {"home", "alliance"} == ADJUSTMENT_KINDS


def test_standard_messages_do_not_offer_variant_words() -> None:
    error = parse_order("A Par", gmap(), M)
    assert isinstance(error, OrderError)
    assert error.message == (
        "Cannot read \"A Par\": it stops too early; expected '-', 'H', 'S', 'C', 'R' or 'D' next."
    )
    start = (
        "expected a unit type (A or F), 'D', 'B', 'remove', 'waive' or a province name at the "
        "start, not"
    )
    for text, found in (("- Bur", "-"), ("2 A Par H", "2"), ("S Par H", "S")):
        error = parse_order(text, gmap(), M)
        assert isinstance(error, OrderError)
        assert error.message == f'Cannot read "{text}" at line 1, column 1: {start} "{found}".'
    # A garbled text opening with another variant's word says so.
    error = parse_order("Home Xyz", gmap(), ADJ)
    assert isinstance(error, OrderError)
    assert error.message == '"Home Xyz": Home orders exist only in Chaos II, not in this game.'
    offered = parse_order("A Par", gmap(), M, frozenset({"transform"}))
    assert isinstance(offered, OrderError)
    assert "'T'" in offered.message and "'board'" not in offered.message


# -- Ice is Iceland too ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ice H", Hold(u(None, "Ice"))),
        ("A Ice - NWG", Move(u(A, "Ice"), at("NWG"))),
        ("F NWG - Ice", Move(u(F, "NWG"), at("Ice"))),
        ("F Ice S A Nwy - NWG", SupportMove(u(F, "Ice"), u(A, "Nwy"), at("NWG"))),
        ("Uplift Ice", GeoEvent(GeoKind.UPLIFT, GeoTarget("Ice"))),
        ("Ice advance Iceland", GeoEvent(GeoKind.ICE_ADVANCE, GeoTarget("Ice"))),
    ],
)
def test_ice_is_iceland_except_in_ice_advance_and_retreat(text: str, expected: AnyOrder) -> None:
    assert one(text) == expected
    if not isinstance(expected, GeoEvent):
        assert one(text, kinds=frozenset()) == expected


# -- errors quote the input -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "A Lon boards A ENG",
        "A/F ENG disembarks F Bre",
        "A/F ENG disembarks A Bre - Pic",
        "A Bre T F Par",
        "Erode Xyz",
        "Earthquake Mun-Mun",
        "0 Stabilize Mos",
        "Exchange Bel Xyz for Hol with Germany",
        "Home Xyz",
        "Create centre",
    ],
)
def test_errors_quote_the_input(text: str) -> None:
    phase = ADJ if text.startswith("Home") else M
    error = parse_order(text, gmap(), phase, ALL)
    assert isinstance(error, OrderError), error
    assert error.text == text
    assert text in error.message or "Xyz" in error.message


# -- the shortcut declines the new forms ----------------------------------------------------------
@pytest.mark.parametrize("text", [t for t, _ in MOVEMENT_FORMS + ADJUSTMENT_FORMS])
def test_the_shortcut_declines_every_variant_form(text: str) -> None:
    order = fast_order(text, gmap(), _keywords())
    assert order is None or order == one(text, None)


# -- canonical round trip of generated variant orders ---------------------------------------------
def all_locations() -> list[Location]:
    m = gmap()
    found = []
    for province in sorted(m.provinces):
        found.append(Location(province))
        found.extend(Location(province, coast) for coast in m.coasts.get(province, ()))
    return found


locations = st.sampled_from(all_locations())
provinces = st.sampled_from(sorted(gmap().provinces))
unit_types = st.sampled_from([None, A, F, AF])
units = st.builds(UnitSpec, unit_types, locations)
targets = st.one_of(
    st.builds(GeoTarget, provinces),
    st.builds(GeoTarget, provinces, provinces).filter(lambda t: t.province != t.other),
)
events = st.builds(GeoEvent, st.sampled_from(list(GeoKind)), targets)
powers = st.sampled_from(["Germany", "German", "TURKISH", "Ottoman Empire", "R", "St Petersburg"])


@st.composite
def transforms(draw: st.DrawFn) -> Transform:
    place = draw(locations)
    unit = UnitSpec(draw(st.sampled_from([None, A])), place)
    return Transform(unit, place if place.coast and draw(st.booleans()) else None)


movement_orders: st.SearchStrategy[AnyOrder] = st.one_of(
    st.builds(Embark, units, locations),
    st.builds(Disembark, units, locations),
    transforms(),
    st.builds(KeepFleet, units),
    st.builds(
        Exchange,
        powers,
        st.lists(provinces, min_size=1, max_size=3).map(tuple),
        st.lists(provinces, min_size=1, max_size=3).map(tuple),
    ),
    events,
    st.builds(SupportEvent, powers, events),
    st.builds(CreateCentre, provinces),
    st.builds(Stabilize, targets, st.integers(1, 9)),
)
adjustment_orders: st.SearchStrategy[AnyOrder] = st.one_of(
    st.builds(DesignateHome, provinces),
    st.builds(
        Alliance,
        st.lists(
            st.sampled_from(["Paris", "Berlin", "R", "T", "St Petersburg", "Ottoman Empire"]),
            min_size=1,
            max_size=4,
        ).map(tuple),
    ),
)


@settings(max_examples=600, deadline=None)
@given(movement_orders)
def test_generated_movement_orders_read_back(order: AnyOrder) -> None:
    text = str(order)
    assert one(text) == order, text
    assert one(text, None) == order, text
    if not isinstance(order, Exchange | SupportEvent):  # their partner is kept as written
        assert one(text.upper()) == order, text
        assert one(text.lower()) == order, text


@settings(max_examples=200, deadline=None)
@given(adjustment_orders)
def test_generated_adjustment_orders_read_back(order: AnyOrder) -> None:
    assert one(str(order), ADJ) == order, str(order)


# -- how a mailed order set keeps them (gm.play.order_taking) --------------------------------
def merged(*texts: str, phase: PhaseType = M) -> list[AnyOrder]:
    """The order set after each text in turn, kept as the mail handler keys orders."""
    kept: dict[str, AnyOrder] = {}
    for text in texts:
        for order in line(text, phase):
            kept[_key(order, len(kept))] = order
    return list(kept.values())


def test_a_new_unit_order_replaces_the_earlier_one_but_not_its_disembark_or_keep_fleet() -> None:
    assert merged("A/F ENG - MAO", "A/F ENG disembarks Bre", "A/F ENG H") == [
        Hold(u(AF, "ENG")),
        Disembark(u(AF, "ENG"), at("Bre")),
    ]
    assert merged("F ION - TYS", "F ION no change", "F ION - EMS") == [
        Move(u(F, "ION"), at("EMS")),
        KeepFleet(u(F, "ION")),
    ]
    assert merged("A Lon - Wal", "A Lon boards F ENG") == [Embark(u(A, "Lon"), at("ENG"))]


def test_a_power_has_one_geophysical_event_and_stabilizations_add_up() -> None:
    assert merged("Erode Mos", "Stabilize Mun", "Support Turkey Uplift NTH", "Stabilize Mun") == [
        SupportEvent("Turkey", GeoEvent(GeoKind.UPLIFT, GeoTarget("NTH"))),
        Stabilize(GeoTarget("Mun")),
        Stabilize(GeoTarget("Mun")),
    ]
    assert merged("Erode Mos", "Create centre Bur") == [CreateCentre("Bur")]


def test_homes_and_alliances_accumulate() -> None:
    assert merged("Home Bel", "Home Hol", "Home Bel", "Alliance Paris Berlin", phase=ADJ) == [
        DesignateHome("Bel"),
        DesignateHome("Hol"),
        Alliance(("Paris", "Berlin")),
    ]


# -- the scenario runner reads a line's orders with the variant's kinds --------------------------
SCENARIO = """VARIANT_ALL abstraction2

CASE orders.compound
PRESTATE_SETPHASE July 1914, Movement
PRESTATE
England: A Lon
England: F ENG
France: F TYS
ORDERS
England: A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por
France: F TYS - WMS
Germany: Exchange Bel Den for Hol Kie with France
France: A Bre transforms
POSTSTATE
END
"""


def test_the_scenario_runner_gives_every_order_of_a_line() -> None:
    from gm.scenario.format import read_text
    from gm.scenario.runner import build_state, submissions
    from gm.variants.registry import get_variant

    variant = get_variant("abstraction2")
    (case,) = read_text(SCENARIO)
    submitted, void = submissions(variant, build_state(case, variant), case)
    assert void == []
    by_text = [(s.power, s.order) for s in submitted]
    assert by_text[:3] == [
        ("England", Embark(u(A, "Lon"), at("ENG"))),
        ("England", Move(u(AF, "ENG"), at("MAO"))),
        ("England", Disembark(u(AF, "ENG"), at("Por"))),
    ]
    assert by_text[3] == ("France", Move(u(F, "TYS"), at("WMS")))
    assert by_text[4] == ("Germany", Exchange("France", ("Bel", "Den"), ("Hol", "Kie")))
    # Deluge II's Transform is not an Abstraction2 order (Abstraction2 has "af" and "exchange").
    refused = submitted[5]
    assert refused.order is None and refused.error is not None
    assert "only in Deluge II" in refused.error.message


# -- by mail: a line's orders are stored, keyed as the handler keys them --------------------------
def test_mailed_variant_orders_are_read_with_the_game_variant(
    database: Database, tmp_path: Path
) -> None:
    from gm.service.clock import FixedClock
    from gm.service.ingest import Disposition, ingest
    from gm.store import outbound as outbound_repo
    from tests.support.service_support import GM, PLAYERS, START, maildir_config, message, unwrapped

    def send(sender: str, body: str) -> str:
        result = ingest(database, message(sender, body), config=maildir_config(tmp_path),
                        clock=FixedClock(START))
        assert result.outcome is Disposition.ANSWERED, result
        with database.read() as s:
            replies = [o for o in outbound_repo.list_outbound(s)
                       if o.message_id == result.reply_message_id]
        return unwrapped(replies[0].parts[0].text)

    for game, variant in (("sand", "sahara"), ("plain", "standard")):
        lines = [f"CREATE {game} {variant} gmpass"]
        lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        lines.append("START")
        assert f"{game} has started" in send(GM, "\n".join(lines))

    # Sahara rule 2: the fleet's move and its KeepFleet are kept side by side; a later move
    # replaces the earlier one only.
    reply = send(PLAYERS["England"], "SIGNON England sand pwengland\n"
                 "F Lon - NTH, F Lon no change\nF Lon - ENG\n")
    orders = reply.split("Orders of England for", 1)[1]
    assert "F Lon - ENG" in orders and "F Lon no change" in orders
    assert "F Lon - NTH\n" not in orders
    # A standard game refuses it, quoting it and naming the variant that has it.
    reply = send(PLAYERS["England"], "SIGNON England plain pwengland\nF Lon no change\n")
    assert '"F Lon no change": Keep-fleet (no change) orders exist only in Sahara' in reply
