"""Whole-year flows through `advance`: skipped phases, ownership, elimination, solo victory."""

from __future__ import annotations

import pytest

from gm.engine.errors import OrderError
from gm.engine.game import GameOver, advance, orders_needed, start_state
from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.notation import parse_order
from gm.variants import Variant, get_variant

M, R, A = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT


@pytest.fixture(scope="module")
def std() -> Variant:
    return get_variant("standard")


def orders(variant: Variant, state: GameState, *lines: str) -> list[Submitted]:
    """`Power: order` lines through the real parser."""
    out = []
    for line in lines:
        power, text = (s.strip() for s in line.split(":", 1))
        parsed = parse_order(text, variant.map_for(state), state.phase.type)
        assert not isinstance(parsed, OrderError), parsed.message
        out.append(Submitted(power, text, parsed))
    return out


def unit(power: str, text: str) -> Unit:
    kind, where = text.split()
    return Unit(power, UnitType(kind), Location.parse(where))


def units(*items: tuple[str, str]) -> tuple[Unit, ...]:
    return tuple(unit(p, t) for p, t in items)


def test_first_year_spring_fall_winter(std: Variant) -> None:
    state = start_state(std)
    spring = advance(
        std,
        state,
        orders(
            std, state,
            "England: F Lon - NTH", "England: F Edi - NWG", "England: A Lvp - Yor",
            "France: A Par - Bur", "France: A Mar - Spa", "France: F Bre - MAO",
            "Germany: A Mun - Ruh", "Germany: F Kie - Den", "Germany: A Ber - Kie",
        ),
    )
    # no unit dislodged: Spring retreats are skipped
    assert spring.state.phase == Phase("Fall", 1901, M)
    assert [(r.phase.type, r.played) for r in spring.reports] == [(M, True), (R, False)]
    assert unit("France", "A Bur") in spring.state.units
    assert len(spring.state.units) == 22
    assert spring.state.owners == state.owners  # no ownership change in Spring

    state = spring.state
    fall = advance(
        std,
        state,
        orders(
            std, state,
            "England: F NTH - Nwy", "France: F MAO - Por", "France: A Bur - Bel",
            "Germany: A Ruh - Hol", "Germany: F Den H",
        ),
    )
    state = fall.state
    assert state.phase == Phase("Winter", 1901, A)
    assert [(r.phase, r.played) for r in fall.reports] == [
        (Phase("Fall", 1901, M), True),
        (Phase("Fall", 1901, R), False),
    ]
    # ownership update after Fall: a unit standing in a centre takes it
    for centre, power in [("Nwy", "England"), ("Por", "France"), ("Spa", "France"),
                          ("Bel", "France"), ("Hol", "Germany"), ("Den", "Germany")]:
        assert state.owners[centre] == power
    assert "France takes Bel." in fall.events
    needed = orders_needed(std, state)
    assert set(needed) == {"England", "France", "Germany"}
    assert needed["France"].builds == 3
    assert needed["France"].build_sites == ("Bre", "Mar", "Par")
    assert needed["Germany"].builds == 2
    assert needed["Germany"].build_sites == ("Ber", "Mun")  # Kie is occupied
    assert needed["England"].builds == 1

    winter = advance(
        std,
        state,
        orders(
            std, state,
            "England: Build F Lon", "France: Build A Par", "France: Build F Bre",
            "Germany: Build A Mun",
        ),
    )
    state = winter.state
    assert state.phase == Phase("Spring", 1902, M)
    assert len(state.units) == 26
    assert unit("England", "F Lon") in state.units
    assert unit("Germany", "A Mun") in state.units
    assert len(state.units_of("France")) == 5  # one build left unused


def test_empty_phases_are_skipped(std: Variant) -> None:
    state = start_state(std).evolve(phase=Phase("Fall", 1901, M))
    step = advance(std, state, [])
    # nothing dislodged, no centre changed hands: no retreats, nobody builds, on to Spring 1902
    assert step.state.phase == Phase("Spring", 1902, M)
    assert [(r.phase, r.played) for r in step.reports] == [
        (Phase("Fall", 1901, M), True),
        (Phase("Fall", 1901, R), False),
        (Phase("Winter", 1901, A), False),
    ]
    assert step.state.units == state.units


def test_fall_retreat_then_ownership_update_then_builds(std: Variant) -> None:
    state = GameState(
        variant="standard",
        phase=Phase("Fall", 1902, M),
        units=units(("France", "A Pic"), ("France", "A Bur"), ("Germany", "A Bel")),
        owners={"Par": "France", "Bre": "France", "Mar": "France", "Bel": "Germany",
                "Ber": "Germany", "Kie": "Germany", "Mun": "Germany"},
        homes=dict(std.homes),
    )
    attack = orders(std, state, "France: A Pic - Bel", "France: A Bur S A Pic - Bel")
    step = advance(std, state, attack)
    state = step.state
    assert state.phase == Phase("Fall", 1902, R)
    assert [d.unit for d in state.dislodged] == [unit("Germany", "A Bel")]
    assert state.dislodged[0].attacker_from == "Pic"
    assert state.owners["Bel"] == "Germany"  # not before the Fall retreats
    needed = orders_needed(std, state)
    assert list(needed) == ["Germany"] and needed["Germany"].units == (unit("Germany", "A Bel"),)

    step = advance(std, state, orders(std, state, "Germany: A Bel - Hol"))
    state = step.state
    assert state.phase == Phase("Winter", 1902, A)
    assert state.dislodged == ()
    assert state.owners["Bel"] == "France"
    assert state.owners["Hol"] == "Germany"  # the retreated unit takes Hol
    needed = orders_needed(std, state)
    assert needed["France"].builds == 2 and needed["Germany"].builds == 3


def test_removals_are_needed_and_played(std: Variant) -> None:
    state = GameState(
        variant="standard",
        phase=Phase("Winter", 1903, A),
        units=units(("Italy", "A Ven"), ("Italy", "A Rom"), ("Italy", "F ION")),
        owners={"Ven": "Italy", "Rom": "Italy"},
        homes=dict(std.homes),
    )
    needed = orders_needed(std, state)
    assert needed["Italy"].removals == 1
    step = advance(std, state, orders(std, state, "Italy: Remove F ION"))
    assert step.state.phase == Phase("Spring", 1904, M)
    assert set(step.state.units) == set(units(("Italy", "A Ven"), ("Italy", "A Rom")))


def test_unit_with_nowhere_to_retreat_is_destroyed_and_power_eliminated(std: Variant) -> None:
    state = GameState(
        variant="standard",
        phase=Phase("Fall", 1903, M),
        units=units(("Italy", "A Apu"), ("Austria", "A Nap"), ("Austria", "A Rom"),
                    ("Austria", "A Ven")),
        owners={"Nap": "Austria", "Rom": "Austria", "Ven": "Austria"},
        homes=dict(std.homes),
    )
    step = advance(
        std, state, orders(std, state, "Austria: A Nap - Apu", "Austria: A Rom S A Nap - Apu")
    )
    # Apu's land neighbours are all occupied or the attacker's origin: no retreat phase
    assert step.state.dislodged == ()
    assert step.state.units_of("Italy") == ()
    assert any("nowhere to retreat" in e for e in step.events)
    assert "Italy is eliminated." in step.events
    assert step.state.phase.type is not R


def test_solo_victory_at_the_fall_update(std: Variant) -> None:
    french = ["Par", "Bre", "Mar", "Spa", "Por", "Bel", "Hol", "Mun", "Ber", "Kie", "Den",
              "Lon", "Lvp", "Edi", "Nwy", "Swe", "Tun"]
    assert len(french) == 17
    owners = {c: "France" for c in french} | {"Mos": "Russia"}
    state = GameState(
        variant="standard",
        phase=Phase("Fall", 1908, M),
        units=units(("France", "A Pie"), ("Russia", "A Mos")),
        owners=owners,
        homes=dict(std.homes),
    )
    step = advance(std, state, orders(std, state, "France: A Pie - Ven"))
    assert step.state.winners == ("France",)
    assert step.state.finished
    assert "France won the game." in step.events
    assert orders_needed(std, step.state) == {}
    with pytest.raises(GameOver):
        advance(std, step.state, [])


def test_seventeen_centres_is_not_a_win(std: Variant) -> None:
    owners = {c: "France" for c in ["Par", "Bre", "Mar", "Spa", "Por", "Bel", "Hol", "Mun",
                                    "Ber", "Kie", "Den", "Lon", "Lvp", "Edi", "Nwy", "Swe"]}
    state = GameState(
        variant="standard",
        phase=Phase("Fall", 1908, M),
        units=units(("France", "A Pie")),
        owners=owners,
        homes=dict(std.homes),
    )
    step = advance(std, state, orders(std, state, "France: A Pie - Ven"))
    assert step.state.owners["Ven"] == "France"
    assert not step.state.finished and step.state.winners == ()


def test_orders_needed_in_movement_lists_every_unit(std: Variant) -> None:
    needed = orders_needed(std, start_state(std))
    assert set(needed) == set(std.power_names)
    assert len(needed["Russia"].units) == 4
