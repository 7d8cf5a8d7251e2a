"""Pictures with every mark, for the tests that draw them: every variant's start, orders and
their outcomes, retreats, builds, terrain events, frozen regions, passages, power codes, the
legend (tests/pictures/test_picture_paint.py, test_picture_indexed.py)."""

from __future__ import annotations

from collections.abc import Callable

from gm.engine.game import advance
from gm.engine.geo import Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import UnitType
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from gm.variants.registry import names
from tests.support.positions import burgundy_dislodged, submitted, unit


def start(name: str) -> str:
    variant = get_variant(name)
    return render_map_svg(variant, variant.start_state(), f"{variant.title}: the start")


def movement() -> str:
    """Moves that succeed, bounce and are void; supports given and cut; a convoy; a hold."""
    variant = get_variant("standard")
    state = variant.start_state().evolve(units=(
        unit("England", UnitType.FLEET, "NTH"), unit("England", UnitType.ARMY, "Yor"),
        unit("France", UnitType.ARMY, "Par"), unit("France", UnitType.ARMY, "Mar"),
        unit("Germany", UnitType.ARMY, "Mun"), unit("Germany", UnitType.ARMY, "Ber"),
        unit("Germany", UnitType.ARMY, "Sil"), unit("Russia", UnitType.ARMY, "War"),
        unit("Russia", UnitType.ARMY, "Pru"), unit("Austria", UnitType.ARMY, "Vie"),
        unit("Austria", UnitType.ARMY, "Bud"), unit("Italy", UnitType.ARMY, "Ven")))
    step = advance(variant, state, submitted(
        variant, state, "England: F NTH C A Yor - Nwy", "England: A Yor - Nwy",
        "France: A Par - Bur", "France: A Mar S A Par - Bur", "Germany: A Mun - Bur",
        "Germany: A Ber H", "Germany: A Sil S A Mun - Boh", "Russia: A War - Gal",
        "Russia: A Pru - Sil", "Austria: A Vie - Gal", "Austria: A Bud S A Vie - Gal",
        "Italy: A Ven - Lon"))
    return render_map_svg(variant, state, "standard: movement", results=step.reports[0].results)


def retreat() -> str:
    """A dislodged unit beside its province with the places it may retreat to."""
    variant = get_variant("standard")
    state, step = burgundy_dislodged(variant)
    return render_map_svg(variant, step.state, "standard: retreat", previous=state)


def adjustment() -> str:
    variant = get_variant("standard")
    start = variant.start_state()
    state = start.evolve(phase=Phase("Winter", 1901, PhaseType.ADJUSTMENT),
                         units=tuple(u for u in start.units if u.location.province != "Mun"),
                         owners={c: p for c, p in start.owners.items() if c != "War"})
    step = advance(variant, state, submitted(variant, state, "Germany: Build A Mun",
                                           "Russia: Remove A War"))
    return render_map_svg(variant, state, "standard: builds", results=step.reports[0].results)


def terrain_events() -> str:
    """A sunk province, ice, a new centre, a border cut and one opened (their patterns)."""
    variant = get_variant("standard")
    start = variant.start_state().evolve(cut_borders=frozenset({("Gas", "Mar")}))
    state = start.evolve(terrain={"Hol": Terrain.SEA, "Bur": Terrain.MOUNTAIN},
                         iced=frozenset({"BAR"}), cut_borders=frozenset({("Ber", "Mun")}),
                         centres=frozenset({*variant.map.centres, "Bur"} - {"Hol"}))
    return render_map_svg(variant, state, "standard: events", previous=start)


def geophysical_orders() -> str:
    """Geophysical events ordered (their marks are turned squares) and a move."""
    variant = get_variant("geophysical")
    state = variant.start_state()
    step = advance(variant, state, submitted(
        variant, state, "Germany: Erode Ruh", "Russia: Earthquake Kie-Ber",
        "France: A Par - Bur"))
    return render_map_svg(variant, state, "geophysical: events", results=step.reports[0].results)


def deluge_transform() -> str:
    variant = get_variant("deluge2")
    state = variant.start_state().evolve(
        phase=Phase("Spring", 1901, PhaseType.MOVEMENT),
        units=(unit("France", UnitType.ARMY, "Bre"), unit("Germany", UnitType.ARMY, "Mun")))
    step = advance(variant, state, submitted(variant, state, "France: A Bre transforms"))
    return render_map_svg(variant, state, "deluge2: transform", results=step.reports[0].results)


def frozen() -> str:
    """Abstraction2 in January (rule 5: the north frozen), its passages drawn; scaled down."""
    variant = get_variant("abstraction2")
    state = variant.start_state().evolve(phase=Phase("January", 1915, PhaseType.MOVEMENT))
    return render_map_svg(variant, state, "abstraction2: January")


def chaos() -> str:
    """34 powers: every unit with its power's code; orders drawn beside them."""
    variant = get_variant("chaos2")
    state = variant.start_state()
    step = advance(variant, state, submitted(
        variant, state, "Paris: A Par - Bur", "Munich: A Mun - Bur", "London: F Lon - NTH"))
    return render_map_svg(variant, state, "chaos2: orders", results=step.reports[0].results)


PICTURES: dict[str, Callable[[], str]] = {
    **{f"{name} start": (lambda n=name: start(n)) for name in names()},
    "movement": movement, "retreat": retreat, "adjustment": adjustment,
    "terrain events": terrain_events, "geophysical events": geophysical_orders,
    "deluge2 transform": deluge_transform, "abstraction2 frozen": frozen, "chaos2": chaos,
}
