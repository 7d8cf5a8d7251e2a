"""The variant model: calendar, registry lookup, the standard variant's data."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gm.engine.calendar import Calendar, Season, standard_calendar
from gm.engine.errors import OrderError
from gm.engine.frozen import replace
from gm.engine.game import advance, orders_needed
from gm.engine.geo import Location, Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.notation import parse_order
from gm.variants import (
    Hooks,
    HookStep,
    ScheduledEvent,
    UnknownVariant,
    Variant,
    Verdict,
    canonical_name,
    get_variant,
    names,
)

M, R, A = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT


# -- calendar ------------------------------------------------------------------------------------
def test_standard_sequence() -> None:
    cal = standard_calendar()
    phase = Phase("Spring", 1901, M)
    seen = []
    for _ in range(6):
        seen.append(cal.short(phase))
        phase = cal.next(phase)
    assert seen == ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert cal.key(Phase("Winter", 1901, A)) < cal.key(Phase("Spring", 1902, M))
    assert cal.is_last_of_season(Phase("Fall", 1901, R))
    assert not cal.is_last_of_season(Phase("Fall", 1901, M))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Spring 1901, Movement", Phase("Spring", 1901, M)),
        ("spring 1901 movement", Phase("Spring", 1901, M)),
        ("Fall 1901, Retreat", Phase("Fall", 1901, R)),
        ("Autumn 1901, Retreats", Phase("Fall", 1901, R)),
        ("Autumn 1901", Phase("Fall", 1901, M)),
        ("Winter 1900, Adjustment", Phase("Winter", 1900, A)),
        ("Winter 1902 builds", Phase("Winter", 1902, A)),
        ("S1901M", Phase("Spring", 1901, M)),
        ("f1901r", Phase("Fall", 1901, R)),
        ("A1901M", Phase("Fall", 1901, M)),  # Autumn's initial
        ("W1900A", Phase("Winter", 1900, A)),
        # jDip names the adjustment phase after Fall "Fall <year>, Adjustment" (DATC 6.I, 6.J)
        ("Fall 1901, Adjustment", Phase("Winter", 1901, A)),
    ],
)
def test_parse_phase(text: str, expected: Phase) -> None:
    assert standard_calendar().parse(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Summer 1901, Movement", "Spring, Movement", "X1901M", "S1901Q", "Winter 1901, Retreat"],
)
def test_parse_phase_rejects(text: str) -> None:
    assert standard_calendar().parse(text) is None


def test_format_and_renamed_seasons() -> None:
    # Sahara rule 6: from 1905 Spring is "Early Summer", Autumn "Late Summer", Winter
    # "Between Summers"; both names are read.
    cal = Calendar(
        (
            Season("Spring", (M, R), renamed=((1905, "Early Summer"),)),
            Season("Autumn", (M, R), aliases=("Fall",), renamed=((1905, "Late Summer"),)),
            Season("Winter", (A,), renamed=((1905, "Between Summers"),)),
        )
    )
    assert cal.format(Phase("Spring", 1904, M)) == "Spring 1904, Movement"
    assert cal.format(Phase("Spring", 1905, M)) == "Early Summer 1905, Movement"
    assert cal.parse("Early Summer 1905, Movement") == Phase("Spring", 1905, M)
    assert cal.parse("Between Summers 1911, Adjustment") == Phase("Winter", 1911, A)
    assert cal.parse("Fall 1902, Retreat") == Phase("Autumn", 1902, R)


def test_monthly_calendar_wraps_the_year() -> None:
    # Abstraction2 rule 2: monthly moves from July 1914; September, December, March and June
    # are adjustment months. Months need three-letter codes: J alone would be ambiguous.
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    adjust = {"September", "December", "March", "June"}
    cal = Calendar(
        tuple(Season(m, (A,) if m in adjust else (M, R), code=m[:3]) for m in months)
    )
    phase = Phase("November", 1914, R)
    assert cal.next(phase) == Phase("December", 1914, A)
    assert cal.next(Phase("December", 1914, A)) == Phase("January", 1915, M)
    assert cal.short(Phase("July", 1914, M)) == "Jul1914M"
    assert cal.parse("Jul1914M") == Phase("July", 1914, M)
    assert cal.parse("September 1914, Adjustment") == Phase("September", 1914, A)


def test_season_codes_must_be_unique() -> None:
    with pytest.raises(ValueError, match="not unique"):
        Calendar((Season("June", (M,)), Season("July", (M,))))


# -- registry --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["standard", "Standard", "STANDARD", " standard ", "Classical"])
def test_lookup_by_name_and_alias_any_case(name: str) -> None:
    assert canonical_name(name) == "standard"
    assert get_variant(name) is get_variant("standard")


def test_unknown_variant_lists_the_known_ones() -> None:
    assert canonical_name("Deluge III") is None
    with pytest.raises(UnknownVariant, match=r"no variant called 'Deluge III'.*standard"):
        get_variant("Deluge III")
    assert "standard" in names()


# -- the standard variant ----------------------------------------------------------------------
def test_standard_powers() -> None:
    v = get_variant("standard")
    assert v.power_names == (
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
    )
    for key in ("Turkey", "turkish", "T", "TURKEY"):
        power = v.power(key)
        assert power is not None and power.name == "Turkey"
    assert v.power("Germnay") is None
    assert [p.letter for p in v.powers] == ["A", "E", "F", "G", "I", "R", "T"]


def test_standard_start() -> None:
    v = get_variant("standard")
    state = v.start_state()
    assert state.phase == Phase("Spring", 1901, M)
    assert state.variant == "standard"
    assert len(state.units) == 22
    assert Unit("Russia", UnitType.FLEET, Location("StP", "sc")) in state.units
    assert Unit("England", UnitType.ARMY, Location("Lvp")) in state.units
    assert state.homes["Russia"] == ("Mos", "Sev", "StP", "War")
    assert state.homes["Austria"] == ("Bud", "Tri", "Vie")
    assert len(state.owners) == 22
    assert state.owners["Smy"] == "Turkey"
    assert "Bel" not in state.owners
    # every home centre holds a unit of its power at the start
    for power, homes in state.homes.items():
        assert {u.province for u in state.units_of(power)} == set(homes)
    assert len(v.map.centres) == 34
    assert v.solo_centres == 18


def test_map_for_a_state_without_overlay_is_the_variant_map() -> None:
    v = get_variant("standard")
    assert v.map_for(v.start_state()) is v.map


# -- hooks: each runs at its point of the phase cycle ----------------------------------------------
def _submit(variant: Variant, state: GameState, *lines: str) -> list[Submitted]:
    """`Power: order` lines; lines the real parser cannot read are submitted with their error
    (a variant's own orders are taken by its hooks before adjudication)."""
    out = []
    for line in lines:
        power, text = (s.strip() for s in line.split(":", 1))
        parsed = parse_order(text, variant.map_for(state), state.phase.type)
        if isinstance(parsed, OrderError):
            out.append(Submitted(power, text, None, parsed))
        else:
            out.append(Submitted(power, text, parsed))
    return out


def test_transform_hooks_take_their_orders_and_act_after_movement() -> None:
    # Deluge II rule 2: an army in a coastal province may be ordered to turn into a fleet; it
    # does if it is not dislodged. The order is the variant's own: before_phase takes it (the
    # army holds), after_movement carries it out.
    def take_transforms(
        variant: Variant, state: GameState, submitted: Sequence[Submitted]
    ) -> tuple[HookStep, Sequence[Submitted]]:
        mine = [s for s in submitted if s.text.lower().startswith("transform ")]
        rest = [s for s in submitted if s not in mine]
        return HookStep(state), rest

    def transform(variant: Variant, state: GameState, submitted: Sequence[Submitted]) -> HookStep:
        wanted = {s.text.split()[-1] for s in submitted if s.text.lower().startswith("transform ")}
        dislodged = {d.unit.province for d in state.dislodged}
        units = tuple(
            u if u.province not in wanted or u.province in dislodged
            else Unit(u.power, UnitType.FLEET, u.location)
            for u in state.units
        )
        return HookStep(state.evolve(units=units), events=("transformed",))

    std = get_variant("standard")
    deluge = replace(
        std, name="transforming",
        hooks=Hooks(before_phase=take_transforms, after_movement=transform),
    )
    state = GameState(
        variant="transforming",
        phase=Phase("Spring", 1901, M),
        units=(Unit("France", UnitType.ARMY, Location("Bre")),
               Unit("France", UnitType.ARMY, Location("Pic")),
               Unit("England", UnitType.ARMY, Location("Gas")),
               Unit("England", UnitType.ARMY, Location("Par"))),
        owners=dict(std.start_state().owners),
        homes=dict(std.homes),
    )
    step = advance(deluge, state, _submit(
        deluge, state, "France: transform Bre", "France: transform Pic",
        "England: A Gas - Bre", "England: A Par S A Gas - Bre",
    ))
    after = {u.province: u for u in step.state.units}
    assert after["Pic"].type is UnitType.FLEET  # transformed
    assert after["Bre"] == Unit("England", UnitType.ARMY, Location("Bre"))  # dislodged: not
    assert "transformed" in step.events


def test_scheduled_events_build_sites_and_victory_hooks() -> None:
    # A variant in the manner of Deluge II: Switzerland opens after the Winter 1901 adjustments
    # (rule 6), any owned vacant centre is a build site (rule 7), the survivor wins after the
    # Winter 1902 adjustments (rule 9, shortened).
    calls: list[str] = []

    def apply(variant: Variant, state: GameState, due: Sequence[ScheduledEvent]) -> HookStep:
        when = variant.calendar.short(state.phase)
        calls.append(f"{due[0].kind} {' '.join(due[0].provinces)} at {when}")
        terrain = dict(state.terrain) | {p: Terrain.LAND for p in due[0].provinces}
        return HookStep(state.evolve(terrain=terrain), events=("Swi opens.",))

    def any_owned(variant: Variant, state: GameState, power: str) -> frozenset[str]:
        return frozenset(c for c, p in state.owners.items() if p == power)

    def survivor(variant: Variant, state: GameState, phase: Phase, updated: bool) -> Verdict | None:
        if phase != Phase("Winter", 1902, A):
            return None
        alive = sorted({u.power for u in state.units})
        return Verdict(tuple(alive) if len(alive) == 1 else ())

    std = get_variant("standard")
    variant = replace(
        std, name="deluging",
        scheduled=(ScheduledEvent("Winter", 1901, "passable", ("Swi",)),),
        hooks=Hooks(apply_scheduled=apply, build_sites=any_owned, victory=survivor),
    )
    state = GameState(
        variant="deluging",
        phase=Phase("Fall", 1901, M),
        units=(Unit("France", UnitType.ARMY, Location("Bur")),),
        owners={"Par": "France", "Bel": "France"},
        homes=dict(std.homes),
    )
    step = advance(variant, state, [])
    # the Winter adjustments are played (France may build in Bel, not a home centre)
    assert step.state.phase == Phase("Winter", 1901, A)
    assert orders_needed(variant, step.state)["France"].build_sites == ("Bel", "Par")
    assert calls == []  # Winter's events come after its adjustments
    step = advance(variant, step.state, _submit(variant, step.state, "France: Build A Bel"))
    assert calls == ["passable Swi at W1901A"]
    assert "Swi opens." in step.events
    assert step.state.terrain == {"Swi": Terrain.LAND}
    assert variant.map_for(step.state).army_can_move("Bur", "Swi")
    assert step.state.phase == Phase("Spring", 1902, M)
    step = advance(variant, step.state, _submit(variant, step.state, "France: A Bur - Swi"))
    step = advance(variant, step.state, [])
    assert step.state.finished and step.state.winners == ("France",)
    assert "France won the game." in step.events


def test_adjustment_needed_hook_keeps_a_winter_without_builds() -> None:
    # Chaos II: Winters carry home designations and alliance declarations.
    std = get_variant("standard")
    chaos = replace(std, name="chaotic", hooks=Hooks(adjustment_needed=lambda v, s: True))
    state = std.start_state().evolve(phase=Phase("Fall", 1901, M))
    assert advance(std, state, []).state.phase == Phase("Spring", 1902, M)
    assert advance(chaos, state, []).state.phase == Phase("Winter", 1901, A)
