"""Whole stretches of Sahara, Chaos II and Geophysical games through gm.engine.game.advance: the
phase transitions between the rules (retreats, Winters with builds, removals and civil disorder,
eliminations, scheduled and player-made map changes), with every order written as players and
the rule texts write them (`TURKEY : Erode Mos`, `St. Petersburg: ...`, codes, lower case) and
read by the real parser."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gm.engine.errors import OrderError
from gm.engine.game import GameStep, advance, orders_needed
from gm.engine.geo import Location, Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.notation import parse_order
from gm.scenario.format import read_text
from gm.scenario.runner import build_state, split_power
from gm.variants.registry import get_variant


def position(variant: Variant, blocks: str) -> GameState:
    """A position written in the scenario format's PRESTATE blocks (the variant's scheduled map
    changes before its phase applied, as `gm scenario` builds it)."""
    case = read_text(f"VARIANT_ALL {variant.name}\nCASE start\n{blocks}\nEND\n")[0]
    return build_state(case, variant)


def play(variant: Variant, state: GameState, lines: Sequence[str]) -> GameStep:
    """Advance one phase with `Power: order` lines; the power is named as the writer names it
    (capitals, code, dots), the order read by the real parser against the map of the phase."""
    gmap = variant.map_for(state)
    submitted = []
    for line in lines:
        found = split_power(variant, line)
        assert found is not None, line
        power = variant.power(found[0])
        assert power is not None, line
        parsed = parse_order(found[1], gmap, state.phase.type, variant.order_kinds)
        if isinstance(parsed, OrderError):
            submitted.append(Submitted(power.name, found[1], None, parsed))
        else:
            submitted.append(Submitted(power.name, found[1], parsed))
    return advance(variant, state, submitted)


def result(step: GameStep, power: str, text: str) -> tuple[Outcome, str]:
    found = [r for r in step.results if r.power == power and r.text == text]
    assert len(found) == 1, (power, text, [(r.power, r.text) for r in step.results])
    return found[0].outcome, found[0].reason


def units(state: GameState) -> set[str]:
    return {f"{u.power}: {u}" for u in state.units}


# -- Sahara ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sahara() -> Variant:
    return get_variant("Sahara")


def test_sahara_1904_to_1905(sahara: Variant) -> None:
    """Sahara rules 2-5 across Autumn 1904, its retreats, the Winter and Early Summer 1905:
    a retreat into a space closing that season, a fleet retreating onto the drying Channel,
    centres lost forcing removals in civil disorder, a Spring centre (S04 Apulia) taken in the
    Autumn and built in once vacated."""
    state = position(sahara, """PRESTATE_SETPHASE Autumn 1904, Movement
PRESTATE
Turkey: A Syr
Turkey: A Smy
Turkey: A Ank
Turkey: A Con
Russia: A Arm
Russia: A Sev
France: F Bre
France: A Par
England: A Pic
England: A Gas
Italy: A Apu
PRESTATE_SUPPLYCENTER_OWNERS
Turkey: Ank Con Bul
Russia: Sev Mos Rum
France: Bre Par
England: Lon Edi
Italy: Rom Ven
""")
    # Autumn 1904: Russia dislodges Syria, England Brest; Italy holds on the S04 centre Apulia.
    step = play(sahara, state, [
        "RUSSIA: A Armenia - Syria", "Russia: A Sev S A Arm - Syr",
        "England: A Pic - Bre", "ENGLAND: A Gascony S A Picardy - Brest",
        "italy: a apu h", "TURKEY : A Smy H",
    ])
    state = step.state
    assert state.phase == Phase("Fall", 1904, PhaseType.RETREAT)
    assert result(step, "Russia", "A Sev S A Arm - Syr")[0] is Outcome.ILLEGAL  # not adjacent
    assert state.unit_in("Syr") == Unit("Turkey", UnitType.ARMY, Location("Syr"))
    # Russia's attack bounced: only Brest is dislodged.
    assert {d.unit.province for d in state.dislodged} == {"Bre"}
    assert set(orders_needed(sahara, state)) == {"France"}

    # Autumn 1904 retreats: the French fleet retreats onto the Channel, which dries now
    # (rule 2: still beside the North Sea, so coastal: it stays a fleet). Then A04: Syria
    # and the Eastern Mediterranean become impassable (Turkey's army there is disbanded),
    # Ankara and Constantinople stop being centres, Apulia is taken by the Italian army.
    step = play(sahara, state, ["FRANCE: F Brest - English Channel"])
    state = step.state
    assert state.phase == Phase("Winter", 1904, PhaseType.ADJUSTMENT)
    assert "The English Channel dries up and becomes land." in step.events
    assert "F ENG (France) is left on a coast and stays a fleet." in step.events
    assert "Syria becomes impassable; A Syr (Turkey) is disbanded." in step.events
    assert "Italy takes Apu." in step.events and "England takes Bre from France." in step.events
    assert Unit("France", UnitType.FLEET, Location("ENG")) in state.units
    assert state.terrain["ENG"] is Terrain.LAND and state.terrain["Syr"] is Terrain.IMPASSABLE
    assert state.owners.get("Ank") is None and state.owners["Bul"] == "Turkey"

    # Winter 1904: Turkey has one centre (Bul) and three units and sends nothing: civil
    # disorder removes two; France (one centre, Par, two units) removes the fleet itself;
    # England builds at home in Edinburgh (Brest, its new centre, is occupied).
    needed = orders_needed(sahara, state)
    assert needed["Turkey"].removals == 2 and needed["France"].removals == 1
    assert needed["England"].builds == 1 and "Bre" not in needed["England"].build_sites
    step = play(sahara, state, ["france: remove f eng", "ENGLAND: Build A Edinburgh"])
    state = step.state
    assert state.phase == Phase("Spring", 1905, PhaseType.MOVEMENT)
    assert sahara.format_phase(state.phase).startswith("Early Summer 1905")
    assert [u for u in state.units if u.power == "Turkey"] == [
        Unit("Turkey", UnitType.ARMY, Location("Smy"))]
    assert Unit("England", UnitType.ARMY, Location("Edi")) in state.units
    assert not any(u.power == "France" and u.type is UnitType.FLEET for u in state.units)

    # Early Summer 1905: Italy's army leaves Apulia, which stays Italy's centre until A05.
    step = play(sahara, state, ["ITALY: A Apulia - Naples"])
    state = step.state
    assert state.phase == Phase("Fall", 1905, PhaseType.MOVEMENT)
    assert state.owners["Apu"] == "Italy" and state.unit_in("Apu") is None


def test_sahara_build_in_a_vacated_new_centre(sahara: Variant) -> None:
    """Sahara rules 3 and 4: Galicia becomes a centre in A05 and is taken by the army on it;
    the army leaves in 1906 and Austria builds there in Between Summers 1906 although it is
    not a home."""
    state = position(sahara, """PRESTATE_SETPHASE Late Summer 1905, Movement
PRESTATE
Austria: A Gal
Austria: A Vie
PRESTATE_SUPPLYCENTER_OWNERS
Austria: Vie Bud
""")
    step = play(sahara, state, ["AUSTRIA: A Galicia H"])
    state = step.state
    assert "Galicia becomes a supply centre." in step.events
    assert "Austria takes Gal." in step.events
    assert state.phase == Phase("Winter", 1905, PhaseType.ADJUSTMENT)  # a build: Bud is free
    state = play(sahara, state, ["Austria: waive"]).state
    state = play(sahara, state, ["Austria: A Gal - Ukr"]).state
    step = play(sahara, state, ["Austria: A Ukr H"])
    state = step.state
    assert state.phase == Phase("Winter", 1906, PhaseType.ADJUSTMENT)
    assert orders_needed(sahara, state)["Austria"].build_sites == ("Bud", "Gal")
    step = play(sahara, state, ["AUSTRIA: Build A Gal", "AUSTRIA: Build A Budapest"])
    assert Unit("Austria", UnitType.ARMY, Location("Gal")) in step.state.units
    assert Unit("Austria", UnitType.ARMY, Location("Bud")) in step.state.units


# -- Chaos II ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def chaos() -> Variant:
    return get_variant("Chaos II")


INLAND = {"Bud", "Mos", "Mun", "Par", "Ser", "Vie", "War"}


def test_chaos2_34_powers_two_years(chaos: Variant) -> None:
    """Chaos II rules 3-5 and 7 with all 34 powers from Winter 1900: orders signed by name in
    capitals, by code, `St. Petersburg` with a dot; a dislodged army retreats, its power is
    removed in civil disorder and eliminated; a Winter with a build, a removal by code and a
    designation together; a home designation refused after one Winter."""
    coasts = {"StP": "StP/sc", "Spa": "Spa/nc", "Bul": "Bul/sc"}
    build = []
    for p in chaos.powers:
        c = chaos.homes[p.name][0]
        kind = "A" if c in INLAND or c == "Bel" else "F"
        name = "St. Petersburg" if p.name == "St Petersburg" else p.name.upper()
        build.append(f"{name}: Build {kind} {coasts.get(c, c)}")
    build[0] = "A: Build A Ank"  # Ankara by its code
    step = play(chaos, chaos.start_state(), build)
    state = step.state
    assert state.phase == Phase("Spring", 1901, PhaseType.MOVEMENT)
    assert len(state.units) == 34 and all(r.outcome is Outcome.SUCCEEDS for r in step.results)
    assert Unit("St Petersburg", UnitType.FLEET, Location("StP", "sc")) in state.units

    # Spring 1901; Paris is named by its code V, the later order counting.
    step = play(chaos, state, ["Paris: A Par - Bur", "V: A Paris - Picardy",
                               "Munich: A Mun - Bur", "brest: f bre - eng"])
    state = step.state
    assert result(step, "Paris", "A Par - Bur")[0] is Outcome.ILLEGAL  # replaced
    assert state.unit_in("Pic") == Unit("Paris", UnitType.ARMY, Location("Pic"))

    # Fall 1901: Paris takes Belgium with Holland's support; Belgium's army is dislodged.
    step = play(chaos, state, ["PARIS: A Pic - Bel", "K: F Hol S A Pic - Bel",
                               "Vienna: A Vie - Tyr"])
    state = step.state
    assert state.phase == Phase("Fall", 1901, PhaseType.RETREAT)
    assert ("Bel is no longer a home centre of Belgium: a unit of Paris occupies it "
            "(Chaos II rule 7).") in step.events
    assert set(orders_needed(chaos, state)) == {"Belgium"}
    step = play(chaos, state, ["BELGIUM: A Bel - Ruhr"])
    state = step.state
    assert state.phase == Phase("Winter", 1901, PhaseType.ADJUSTMENT)
    assert "Paris takes Bel from Belgium." in step.events

    # Winter 1901: Paris builds at home; Belgium (no centre, one unit) sends nothing: civil
    # disorder removes its army and Belgium is out; Paris may not yet make Bel a home.
    needed = orders_needed(chaos, state)
    assert needed["Belgium"].removals == 1 and needed["Paris"].builds == 1
    step = play(chaos, state, ["PARIS: Build A Paris", "Paris: Home Bel"])
    state = step.state
    assert result(step, "Paris", "Home Bel")[0] is Outcome.ILLEGAL
    assert "Belgium is eliminated." in step.events
    assert not any(u.power == "Belgium" for u in state.units)
    assert state.phase == Phase("Spring", 1902, PhaseType.MOVEMENT)

    # 1902: Vienna takes Munich in the Autumn (Munich's army is away in Burgundy).
    state = play(chaos, state, ["Paris: A Par - Gas"]).state
    step = play(chaos, state, ["Vienna: A Tyr - Mun", "Munich: A Bur H"])
    state = step.state
    assert "Mun is no longer a home centre of Munich: a unit of Vienna occupies it " \
           "(Chaos II rule 7)." in step.events
    assert state.phase == Phase("Winter", 1902, PhaseType.ADJUSTMENT)

    # Winter 1902: Paris designates Belgium (owned at the end of Winter 1901 and now), Vienna
    # builds at home and may not designate Munich (one Winter), Munich removes by its code S.
    needed = orders_needed(chaos, state)
    assert needed["Paris"].may == ("Home Bel",)
    assert needed["Munich"].removals == 1 and needed["Vienna"].builds == 1
    step = play(chaos, state, ["V: Home Belgium", "VIENNA: Home Mun", "vienna: build a vie",
                               "S: Remove A Bur"])
    state = step.state
    assert result(step, "Paris", "Home Belgium") == (
        Outcome.SUCCEEDS, "Bel becomes a home centre of Paris (1 designation left)")
    assert result(step, "Vienna", "Home Mun")[0] is Outcome.ILLEGAL
    assert result(step, "Vienna", "build a vie")[0] is Outcome.SUCCEEDS
    assert result(step, "Munich", "Remove A Bur")[0] is Outcome.SUCCEEDS
    assert "Munich is eliminated." in step.events
    assert state.homes["Paris"] == ("Bel", "Par") and state.homes["Munich"] == ()
    assert state.phase == Phase("Spring", 1903, PhaseType.MOVEMENT)
    assert len({u.power for u in state.units}) == 32


ALLIANCE_START = """PRESTATE_SETPHASE Fall 1906, Movement
PRESTATE
Paris: A Bur
Berlin: A Kie
Vienna: A Rom
Vienna: A Apu
London: F NTH
Edinburgh: F Edi
Liverpool: F Lvp
Moscow: A Mos
Warsaw: A War
Naples: A Nap
PRESTATE_SUPPLYCENTER_OWNERS
Paris: Par Bre Mar Spa Por Bel Tun Gre Bul Rum Smy
Berlin: Ber Kie Mun Hol Den Swe
Vienna: Vie Bud Tri Ser Ven Rom
London: Lon
Edinburgh: Edi
Liverpool: Lvp
Moscow: Mos
Warsaw: War
Naples: Nap
"""


def test_chaos2_alliance_after_an_elimination(chaos: Variant) -> None:
    """Chaos II rule 6 (RULINGS: one third of the powers still in the game): nine powers are
    left before Fall 1906; Vienna takes Naples, whose army is destroyed with no retreat, and
    Naples is out. In Winter 1906 three of the eight powers left are more than a third, so
    the three-power alliance fails; two of them tally and win."""
    state = position(chaos, ALLIANCE_START)
    step = play(chaos, state, ["VIENNA: A Rom - Nap", "Vienna: A Apu S A Rom - Nap",
                               "Naples: A Nap H"])
    state = step.state
    assert "Naples A Nap is destroyed: it has nowhere to retreat." in step.events
    assert "Vienna takes Nap from Naples." in step.events
    assert "Naples is eliminated." in step.events
    assert state.phase == Phase("Winter", 1906, PhaseType.ADJUSTMENT)

    three = ["PARIS: Alliance Berlin, Vienna", "C: Alliance V 8",
             "Vienna: Alliance with Paris and Berlin"]
    step = play(chaos, state, three)
    assert not step.state.winners
    outcome, reason = result(step, "Paris", "Alliance Berlin, Vienna")
    assert outcome is Outcome.FAILS
    assert "more than one third of the 8 powers" in reason, reason

    step = play(chaos, state, ["PARIS: Alliance Vienna", "8: Alliance Paris",
                               "Berlin: Build A Ber"])
    assert step.state.winners == ("Paris", "Vienna")
    assert step.state.finished
    assert "Paris and Vienna declare their alliance and share the victory " \
           "(Chaos II rule 6)." in step.events


# -- Geophysical -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def geo() -> Variant:
    return get_variant("Geophysical")


def test_geophysical_autumn_events_then_winter(geo: Variant) -> None:
    """Geophysical rules 1-4, 7-9 across Fall 1901, Winter 1901 and 1902: Autumn erosions
    that sink a centre (Germany must remove, in civil disorder) and give Paris two coasts and
    Vienna a lake coast; builds on the new coasts (an ambiguous coast refused, then named);
    Germany's stabilisations limited to the centres it has left; an army on ice through a
    retreat phase destroyed at the start of its second movement phase there."""
    state = position(geo, """PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
France: F Bre
France: A Bur
Germany: F Hol
Germany: A Ber
Germany: A Kie
Germany: A Mun
Germany: A Den
England: A Lon
England: F NTH
England: A Nwy
Russia: A StP
Russia: A Mos
Austria: A Vie
Austria: A Boh
Austria: A Tyr
PRESTATE_TERRAIN
NWG: ice
PRESTATE_SUPPLYCENTER_OWNERS
France: Par Bre Mar Spa
Germany: Ber Kie Mun Hol Den
England: Lon Edi Lvp Nwy
Russia: StP Mos Sev War
Austria: Vie Bud Tri
""")
    step = play(geo, state, [
        "ENGLAND : Erode Pic", "FRANCE : Erode Gas", "GERMANY : Erode Boh",
        "AUSTRIA : Support GERMAN Erode Boh", "RUSSIA : Erode Hol",
        "England: A Nwy - NWG", "England: F NTH - Hol", "Germany: F Hol - NTH",
        "austria: a boh - gal", "Austria: A Vie - Gal",
    ])
    state = step.state
    assert state.phase == Phase("Winter", 1901, PhaseType.ADJUSTMENT)
    for line in ("Bohemia (BOH) becomes a lake.", "Holland (HOL) becomes sea.",
                 "Holland is no longer a supply centre: it is under water.",
                 "Austria's A Boh is destroyed: it drowned: its space is now water."):
        assert line in step.events, step.events
    assert result(step, "Austria", "a boh - gal")[0] is Outcome.ILLEGAL
    assert "Hol" not in state.owners
    needed = orders_needed(geo, state)
    assert needed["Germany"].removals == 1  # four centres left, five units
    assert needed["France"].builds == 2 and "Par" in needed["France"].build_sites

    # Winter 1901: `Build F Par` is ambiguous now (Picardy and Gascony are sea); the coast
    # named is built; Austria builds a fleet on the Bohemian lake's coast of Vienna.
    gmap = geo.map_for(state)
    assert gmap.fleet_locations("Par") == (Location("Par", "nc"), Location("Par", "sc"))
    assert gmap.fleet_locations("Vie") == (Location("Vie"),)
    step = play(geo, state, ["FRANCE: Build F Par", "France: build f par/nc",
                             "Austria: Build F Vienna", "ENGLAND: Build F Edi"])
    state = step.state
    outcome, reason = result(step, "France", "Build F Par")
    assert outcome is Outcome.ILLEGAL and "Par/nc" in reason and "Par/sc" in reason, reason
    assert Unit("France", UnitType.FLEET, Location("Par", "nc")) in state.units
    assert Unit("Austria", UnitType.FLEET, Location("Vie")) in state.units
    assert not any(u.power == "Germany" and u.province == "Hol" for u in state.units)
    assert state.phase == Phase("Spring", 1902, PhaseType.MOVEMENT)

    # Spring 1902: Germany has four centres: a fifth stabilisation is refused. France takes
    # Munich, dislodging the German army; the English army starts its first phase on ice.
    step = play(geo, state, [
        "GERMANY: Stabilize Ber", "Germany: Stabilize Kie", "Germany: 2 Stabilize Mun",
        "Germany: Stabilize Mun-Ber", "England: A NWG H",
        "Austria: A Tyr S A Bur - Mun", "France: A Bur - Mun", "France: F Par/nc - PIC",
    ])
    state = step.state
    outcome, reason = result(step, "Germany", "Stabilize Mun-Ber")
    assert outcome is Outcome.ILLEGAL and "owns 4 centre(s)" in reason, reason
    assert state.phase == Phase("Spring", 1902, PhaseType.RETREAT)
    assert state.extra["ice-turns A NWG"] == "1"
    assert state.unit_in("Pic") == Unit("France", UnitType.FLEET, Location("Pic"))

    # Spring 1902 retreats: event orders are refused; the ice count is kept.
    step = play(geo, state, ["Germany: A Mun - Ruh", "GERMANY: Stabilize Ber"])
    state = step.state
    assert result(step, "Germany", "Stabilize Ber")[0] is Outcome.ILLEGAL
    assert state.extra["ice-turns A NWG"] == "1"
    assert state.phase == Phase("Fall", 1902, PhaseType.MOVEMENT)

    # Fall 1902: the army starts a second movement phase on the same ice and is destroyed;
    # France takes Munich; Germany (three centres, four units) must remove.
    step = play(geo, state, ["England: A NWG H"])
    state = step.state
    assert ("England's A NWG is destroyed: it started a second movement phase on the ice of "
            "the Norwegian Sea.") in step.events
    assert "ice-turns A NWG" not in state.extra and state.unit_in("NWG") is None
    assert state.owners["Mun"] == "France"
    assert orders_needed(geo, state)["Germany"].removals == 1
    state = play(geo, state, ["GERMANY: Remove A Ruhr"]).state
    assert state.phase == Phase("Spring", 1903, PhaseType.MOVEMENT)

    # Spring 1903: three centres, three stabilisations.
    step = play(geo, state, ["Germany: 3 Stabilize Ber", "Germany: Stabilize Kie"])
    assert result(step, "Germany", "3 Stabilize Ber")[0] is Outcome.SUCCEEDS
    outcome, reason = result(step, "Germany", "Stabilize Kie")
    assert outcome is Outcome.ILLEGAL and "owns 3 centre(s)" in reason, reason
