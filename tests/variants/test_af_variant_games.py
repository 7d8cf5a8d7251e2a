"""Abstraction2 and Deluge II played over several phases with gm.engine.game.advance: A/F units
through moves, retreats, ownership updates and adjustments (civil disorder included), a power
eliminated, a Winter's removals before the tables apply, and adjustment phases passed over."""

from __future__ import annotations

from gm.engine.errors import OrderError
from gm.engine.game import GameStep, advance
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.notation import parse_orders
from gm.scenario.format import read_text
from gm.scenario.runner import build_state
from gm.variants.registry import get_variant


def _play(variant: Variant, state: GameState, lines: list[str]) -> GameStep:
    """Advance with `Power: order` lines read by the real parser (as a player writes them)."""
    gmap = variant.map_for(state)
    submitted: list[Submitted] = []
    for line in lines:
        power, text = line.split(": ", 1)
        parsed = parse_orders(text, gmap, state.phase.type, variant.order_kinds)
        assert not isinstance(parsed, OrderError), (line, parsed)
        submitted += [Submitted(power, text, order) for order in parsed]
    return advance(variant, state, submitted)


def _units(state: GameState, power: str) -> list[str]:
    return sorted(str(u) for u in state.units_of(power))


def _outcomes(step: GameStep) -> dict[str, tuple[Outcome, str]]:
    return {r.text: (r.outcome, r.reason) for r in step.results}


ABSTRACTION2_OCTOBER = """\
VARIANT_ALL abstraction2
CASE october 1914
PRESTATE_SETPHASE October 1914, Movement
PRESTATE
England: A/F ENG
England: F Lon
England: A Lvp
England: F Edi
France: F Bre
France: F MAO
France: A Par
France: A Lyo
Russia: A Bul
Russia: F WBS
PRESTATE_SUPPLYCENTER_OWNERS
England: Edi Lon Lvp Ply
France: Bre Lyo Mar Par
Russia: Arc Mos StP Ode War Bul
Turkey: Con
END
"""


def test_abstraction2_af_through_retreat_update_and_december() -> None:
    variant = get_variant("Abstraction2")
    state = build_state(read_text(ABSTRACTION2_OCTOBER)[0], variant)

    # October 1914 (Abstraction2 rule 3): the A/F is dislodged while its army lands in Picardy;
    # the landing is unaffected, the fleet alone retreats. Russia enters Constantinople, but
    # October has no ownership update (RULINGS).
    step = _play(variant, state, [
        "France: F(Bre) - ENG", "France: F(MAO) S F(Bre) - ENG",
        "England: A/F(ENG) disembarks A(Pic)", "Russia: A(Bul) - Con"])
    assert _outcomes(step)["A/F(ENG) disembarks A(Pic)"][0] is Outcome.SUCCEEDS
    state = step.state
    assert str(state.phase) == "October 1914, Retreat"
    assert [str(d.unit) for d in state.dislodged] == ["F ENG"]
    assert state.owners["Con"] == "Turkey"

    # The retreat, as a player may still write it (`A/F ENG`): the fleet retreats to IRI.
    step = _play(variant, state, ["England: A/F(ENG) R IRI"])
    state = step.state
    assert str(state.phase) == "November 1914, Movement"
    assert _units(state, "England") == ["A Lvp", "A Pic", "F Edi", "F IRI", "F Lon"]

    # November 1914: England takes Belgium, Russia keeps Constantinople; the update after the
    # November moves (RULINGS) takes Turkey's last centre: Turkey, without units, is out.
    step = _play(variant, state, ["England: army picardy - belgium", "Russia: A Con H"])
    state = step.state
    assert "England takes Bel." in step.events
    assert "Russia takes Con from Turkey." in step.events
    assert "Turkey is eliminated." in step.events
    # December 1914 is played: Russia may build (7 centres, 2 units); England has 5 for 5.
    assert str(state.phase) == "December 1914, Adjustment"
    assert [p.phase.type.value for p in step.reports] == ["Movement", "Retreat"]
    assert not step.reports[1].played  # no dislodgement in November: the retreat is skipped

    # December 1914: Russia sends nothing; its builds are waived; January 1915 follows.
    step = _play(variant, state, [])
    state = step.state
    waived = [r for r in step.results if r.power == "Russia"]
    assert len(waived) == 5 and all(r.reason == "no order: build waived" for r in waived)
    assert str(state.phase) == "January 1915, Movement"


ABSTRACTION2_MAY = """\
VARIANT_ALL abstraction2
CASE may 1915
PRESTATE_SETPHASE May 1915, Movement
PRESTATE
England: A/F NWG
England: F Edi
England: A Lvp
Russia: F BAR
Russia: A Nwy
Russia: F Lap
PRESTATE_SUPPLYCENTER_OWNERS
England: Edi Lvp Nwy
Russia: Arc StP Mos
END
"""


def test_abstraction2_may_loss_june_civil_disorder_with_af() -> None:
    variant = get_variant("Abstraction2")
    state = build_state(read_text(ABSTRACTION2_MAY)[0], variant)
    # May 1915 (rule 5: thawed): Russia's army stands in England's Norway; the update after
    # the May moves (RULINGS) gives Norway to Russia.
    step = _play(variant, state, ["England: A/F(NWG) H"])
    assert "Russia takes Nwy from England." in step.events
    state = step.state
    # June 1915: England has 2 centres for 4 units (the A/F counts two) and sends no removals:
    # civil disorder takes the A/F whole, the unit farthest from home (Abstraction2 rule 3).
    assert str(state.phase) == "June 1915, Adjustment"
    step = _play(variant, state, [])
    removal = [r for r in step.results if r.power == "England"]
    assert [str(r.order) for r in removal] == ["Remove A/F NWG"]
    assert "its army and its fleet" in removal[0].reason
    state = step.state
    assert _units(state, "England") == ["A Lvp", "F Edi"]
    assert str(state.phase) == "July 1915, Movement"


DELUGE_SCRIPT: dict[str, list[str]] = {
    "W1900A": ["Germany: Build F(Kie)", "Germany: Build A(Ber)", "Germany: Build A(Mun)",
               "Russia: Build A War", "Austria: Build A Vie", "Italy: build a(ven)"],
    "S1901M": ["Germany: F Kie - HEL", "Germany: A Ber - Kie", "Germany: A Mun - Ruh",
               "Russia: A War - Sil", "Austria: A Vie - Boh"],
    # Deluge II rule 8: the army boards; Russia and Austria take Berlin and Munich.
    "F1901M": ["Germany: A(Kie) boards F(HEL)", "Russia: A Sil - Ber", "Austria: A Boh - Mun"],
    "W1901A": [],  # nobody orders: Germany's removals by civil disorder, builds waived
}


def test_deluge2_winter_removals_with_af_then_the_tables() -> None:
    variant = get_variant("Deluge II")
    state = variant.start_state()
    steps: dict[str, GameStep] = {}
    while variant.calendar.short(state.phase) in DELUGE_SCRIPT:
        code = variant.calendar.short(state.phase)
        steps[code] = _play(variant, state, DELUGE_SCRIPT[code])
        state = steps[code].state
    assert str(state.phase) == "Spring 1902, Movement"
    winter = steps["W1901A"]
    # W1901: Germany owns Kiel only, for A/F HEL (two units) and A Ruh: two removals. Civil
    # disorder removes the farthest first; at equal distance the A/F (a fleet) goes first, whole.
    german = [r for r in winter.results if r.power == "Germany"]
    assert [str(r.order) for r in german] == ["Remove A/F HEL"]
    assert _units(state, "Germany") == ["A Ruh"]
    # Then the tables (Deluge II rules 3-5): Venice sinks and Italy's army drowns; Italy keeps
    # Rome and Naples (it is not out); Ruhr becomes a centre, Germany's by its army there.
    assert "Venice is submerged; its supply centre (owned by Italy) is destroyed; A Ven " \
        "(Italy) drowns." in winter.events
    assert "Italy is eliminated." not in winter.events
    assert _units(state, "Italy") == []
    assert {c for c, p in state.owners.items() if p == "Italy"} == {"Rom", "Nap"}
    assert state.owners["Ruh"] == "Germany" and state.owners["Ber"] == "Russia"
    assert state.owners["Mun"] == "Austria"
    assert not state.finished
