"""The bot plays every variant gm plays, built in and from a file, giving only orders the
engine accepts (a few years each: benchmarks/bench_bot.py plays twenty), and the stand-ins'
retreats and adjustments lose nothing the rules let them keep."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from gm.bot.legal import keep_legal, spec
from gm.bot.policies import StandIn, policy_orders
from gm.bot.position import Position
from gm.bot.variant_orders import army_fleet_orders, convoy_orders
from gm.engine.game import advance, orders_needed, phase_results, vacant_build_sites
from gm.engine.geo import Location
from gm.engine.orders import (
    AnyOrder,
    Build,
    Convoy,
    DesignateHome,
    Disembark,
    Embark,
    Hold,
    Move,
    Order,
    Retreat,
)
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import OrderKind, Variant
from gm.variants.designated import WINTER_OWNER
from gm.variants.registry import get_variant
from gm.variants.varfile import read_variant

TESTS = Path(__file__).resolve().parent.parent
FILES = {"marches": TESTS / "variants" / "marches" / "marches.toml",
         "isthmia": TESTS / "variants" / "data" / "isthmia.toml"}
BUILT_IN = ("standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical")


def _variant(name: str) -> Variant:
    if name in FILES:
        return read_variant(FILES[name]).variant
    return get_variant(name)


@pytest.mark.parametrize("name", [*BUILT_IN, *FILES])
def test_bots_give_only_legal_orders(name: str) -> None:
    variant = _variant(name)
    state = variant.start_state()
    moved = 0
    for _ in range(8):  # some two years of phases
        if state.finished:
            break
        submitted = []
        for power in orders_needed(variant, state):
            orders = policy_orders(StandIn.BOT, variant, state, power)
            if state.phase.type is PhaseType.MOVEMENT:  # every unit ordered
                ordered = {o.unit.province for o in orders if isinstance(o, Order)}
                assert ordered == {u.province for u in state.units_of(power)}, power
                moved += sum(isinstance(o, Move) for o in orders)
            submitted += [Submitted(power, str(o), o) for o in orders]
        step = advance(variant, state, submitted)
        illegal = [f"{r.power}: {r.text} ({r.reason})" for r in step.reports[0].results
                   if r.outcome is Outcome.ILLEGAL]
        if OrderKind.GEO in variant.order_kinds:
            # Geophysical rule 4: another power's event may destroy a unit or change the map
            # under an order legal as given; each power's orders alone are all legal
            illegal = [f"{r.power}: {r.text} ({r.reason})" for power in orders_needed(
                variant, state) for r in phase_results(
                    variant, state, [s for s in submitted if s.power == power])
                if r.outcome is Outcome.ILLEGAL]
        assert not illegal, f"{name} {state.phase}: {illegal}"
        state = step.state
    assert moved > 0  # the bots played, not only held


def test_bot_orders_read_back_through_the_order_parser() -> None:
    """A bot's orders are stored as text, as a player's: each reads back to itself."""
    from gm.notation import parse_order

    for name in BUILT_IN:
        variant = _variant(name)
        state = variant.start_state()
        gmap = variant.map_for(state)
        for power in orders_needed(variant, state):
            for order in policy_orders(StandIn.BOT, variant, state, power):
                again = parse_order(str(order), gmap, state.phase.type, variant.order_kinds)
                assert again == order, (name, str(order))


def test_a_stand_in_retreats_rather_than_disbands_and_hold_does_not() -> None:
    variant = get_variant("standard")
    start = variant.start_state()
    unit = Unit("France", UnitType.ARMY, Location("Bur"))
    state = start.evolve(phase=Phase("Spring", 1901, PhaseType.RETREAT),
                         units=tuple(u for u in start.units if u.power != "France"),
                         dislodged=(Dislodged(unit, "Mun"),))
    assert policy_orders(StandIn.HOLD, variant, state, "France") == []
    for policy in (StandIn.DEFEND, StandIn.REPEAT, StandIn.BOT):
        [order] = policy_orders(policy, variant, state, "France")
        assert isinstance(order, Retreat)
        assert order.dest.province in {"Par", "Mar"}  # an own centre first


def test_every_vacant_build_site_is_built_on() -> None:
    variant = get_variant("standard")
    start = variant.start_state()
    owners = {**start.owners, "Spa": "France", "Por": "France", "Bel": "France"}
    state = start.evolve(phase=Phase("Winter", 1901, PhaseType.ADJUSTMENT), owners=owners,
                         units=tuple(u for u in start.units if u.power != "France"))
    sites = vacant_build_sites(variant, state, "France")
    assert policy_orders(StandIn.HOLD, variant, state, "France") == []
    for policy in (StandIn.DEFEND, StandIn.REPEAT, StandIn.BOT):
        orders = policy_orders(policy, variant, state, "France")
        assert all(isinstance(o, Build) for o in orders)
        assert {o.unit.province for o in orders} == set(sites)  # 6 centres, 3 sites: 3 builds
        kinds = {o.unit.province: o.unit.type for o in orders if isinstance(o, Build)}
        assert kinds["Bre"] in (UnitType.ARMY, UnitType.FLEET)


def test_defend_supports_a_threatened_centre() -> None:
    variant = get_variant("standard")
    start = variant.start_state()
    units = (
        *(u for u in start.units if u.power not in ("France", "Germany")),
        Unit("France", UnitType.ARMY, Location("Par")),
        Unit("France", UnitType.ARMY, Location("Pic")),
        Unit("Germany", UnitType.ARMY, Location("Bur")),
    )
    state = start.evolve(units=units)
    orders = {str(o) for o in policy_orders(StandIn.DEFEND, variant, state, "France")}
    assert orders == {"A Par H", "A Pic S A Par"}
    assert all(isinstance(o, Hold) or "S" in str(o)
               for o in policy_orders(StandIn.DEFEND, variant, start, "France"))


def _outcomes(variant: Variant, state: GameState, power: str,
              orders: Sequence[AnyOrder]) -> tuple[GameState, list[Outcome]]:
    step = advance(variant, state, [Submitted(power, str(o), o) for o in orders])
    return step.state, [r.outcome for r in step.reports[0].results if r.power == power]


def test_the_bot_lands_an_af_army_on_a_centre_it_wants() -> None:
    """Abstraction2 rule 3: the A/F in GoL lands its army on an empty centre next to its sea."""
    variant = get_variant("abstraction2")
    af = Unit("England", UnitType.ARMY_FLEET, Location("GoL"))
    state = variant.start_state().evolve(units=(af,))
    orders = policy_orders(StandIn.BOT, variant, state, "England")
    [landing] = [o for o in orders if isinstance(o, Disembark)]
    assert landing.dest.province in {"And", "Mar"}  # the centres next to GoL
    after, outcomes = _outcomes(variant, state, "England", orders)
    assert Outcome.ILLEGAL not in outcomes
    assert Unit("England", UnitType.ARMY, landing.dest) in after.units


def test_an_idle_army_boards_a_staying_fleet_next_to_a_centre_it_cannot_walk_to() -> None:
    """Abstraction2 rule 3: the army in Tus holds; the fleet in GoL stays, next to And and Mar,
    which the army cannot reach in one step: the army boards, and the A/F stands in GoL."""
    variant = get_variant("abstraction2")
    army = Unit("England", UnitType.ARMY, Location("Tus"))
    fleet = Unit("England", UnitType.FLEET, Location("GoL"))
    state = variant.start_state().evolve(units=(army, fleet))
    pos = Position.of(variant, state, "England")
    orders = army_fleet_orders(pos, [Hold(spec(army)), Hold(spec(fleet))])
    assert Embark(spec(army), Location("GoL")) in orders
    after, outcomes = _outcomes(variant, state, "England", orders)
    assert Outcome.ILLEGAL not in outcomes
    assert after.units_of("England") == (Unit("England", UnitType.ARMY_FLEET, Location("GoL")),)
    # an army on its way to a centre a step away does not board
    walking = [Move(spec(army), Location("Rom")), Hold(spec(fleet))]
    assert army_fleet_orders(pos, walking) == walking


def test_the_bot_makes_a_conquered_centre_a_home_in_a_chaos2_winter() -> None:
    """Chaos II rule 4: Ankara owned Con last Winter and owns it now: the bot makes it a home."""
    variant = get_variant("chaos2")
    start = variant.start_state()
    owners = {**start.owners, "Con": "Ankara"}
    units = tuple(u for u in start.units if u.power != "Constantinople")
    state = start.evolve(phase=Phase("Winter", 1901, PhaseType.ADJUSTMENT), owners=owners,
                         units=units, extra={**start.extra, WINTER_OWNER + "Con": "Ankara"})
    orders = policy_orders(StandIn.BOT, variant, state, "Ankara")
    assert DesignateHome("Con") in orders
    after, outcomes = _outcomes(variant, state, "Ankara", orders)
    assert outcomes and Outcome.ILLEGAL not in outcomes
    assert "Con" in after.homes["Ankara"]


def test_an_idle_army_is_convoyed_across_one_sea_to_a_centre_it_wants() -> None:
    """The army in Yor holds and the fleet in NTH holds: the fleet convoys it to an empty
    centre across the North Sea, and the army lands there."""
    variant = get_variant("standard")
    army = Unit("England", UnitType.ARMY, Location("Yor"))
    fleet = Unit("England", UnitType.FLEET, Location("NTH"))
    state = variant.start_state().evolve(units=(army, fleet))
    pos = Position.of(variant, state, "England")
    orders = convoy_orders(pos, [Hold(spec(army)), Hold(spec(fleet))])
    [move] = [o for o in orders if isinstance(o, Move)]
    assert move.via_convoy and move.dest.province in {"Bel", "Den", "Hol", "Nwy"}
    assert Convoy(spec(fleet), spec(army), move.dest) in orders
    assert keep_legal(variant, state, "England", orders) == orders
    after, outcomes = _outcomes(variant, state, "England", orders)
    assert Outcome.ILLEGAL not in outcomes
    assert Unit("England", UnitType.ARMY, move.dest) in after.units
    # a fleet on its way elsewhere convoys nothing
    moving = [Hold(spec(army)), Move(spec(fleet), Location("Nwy"))]
    assert convoy_orders(pos, moving) == moving


def test_a_fleet_on_its_way_to_no_centre_may_convoy_when_asked_eagerly() -> None:
    """The plans the bot weighs include one where a fleet moving to no wanted centre convoys
    instead (gm.bot.policies adjudicates it against the plan without)."""
    variant = get_variant("standard")
    army = Unit("England", UnitType.ARMY, Location("Yor"))
    fleet = Unit("England", UnitType.FLEET, Location("NTH"))
    state = variant.start_state().evolve(units=(army, fleet))
    pos = Position.of(variant, state, "England")
    roaming = [Hold(spec(army)), Move(spec(fleet), Location("SKA"))]
    assert convoy_orders(pos, roaming) == roaming
    eager = convoy_orders(pos, roaming, eager=True)
    assert any(isinstance(o, Convoy) for o in eager)
    assert keep_legal(variant, state, "England", eager) == eager
