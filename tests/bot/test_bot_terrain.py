"""The bot's Geophysical terrain orders (rules 1-3, 7): an event only where, adjudicated with its
plan by the engine, the position after it on the new map scores better than the plan alone; one
stabilisation per centre owned, its centres first."""

from __future__ import annotations

from gm.bot.policies import StandIn, policy_orders
from gm.engine.game import advance, orders_needed
from gm.engine.geo import Location, Terrain
from gm.engine.orders import AnyOrder, CreateCentre, GeoEvent, Stabilize
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.variants.registry import get_variant

GEO = get_variant("geophysical")
ARMY, FLEET = UnitType.ARMY, UnitType.FLEET


def _position(season: str, *units: tuple[str, UnitType, str]) -> GameState:
    return GEO.start_state().evolve(phase=Phase(season, 1901, PhaseType.MOVEMENT),
                                    units=tuple(Unit(p, t, Location(w)) for p, t, w in units))


def _play(state: GameState, orders: dict[str, list[AnyOrder]]) -> GameState:
    step = advance(GEO, state, [Submitted(p, str(o), o) for p, os in orders.items() for o in os])
    assert not [r for r in step.reports[0].results if r.outcome is Outcome.ILLEGAL]
    return step.state


def test_the_bot_erodes_the_army_that_threatens_its_centres() -> None:
    """Germany's armies in Burgundy and Picardy could take Paris, Marseilles and Brest: eroding
    Burgundy (off the centres) drowns the army that reaches two of them (rule 4)."""
    state = _position("Fall", ("France", ARMY, "Par"), ("France", ARMY, "Mar"),
                      ("France", FLEET, "Bre"), ("Germany", ARMY, "Bur"),
                      ("Germany", ARMY, "Pic"))
    orders = policy_orders(StandIn.BOT, GEO, state, "France")
    events = [o for o in orders if isinstance(o, GeoEvent)]
    assert [str(e) for e in events] == ["Erode Bur"]
    # one stabilisation for each of its three centres, those centres
    assert sorted(str(o) for o in orders if isinstance(o, Stabilize)) == [
        "Stabilize Bre", "Stabilize Mar", "Stabilize Par"]
    after = _play(state, {"France": orders})
    assert GEO.map_for(after).terrain["Bur"].is_water
    assert [str(u) for u in after.units_of("Germany")] == ["A Pic"]
    assert len(after.centres_of("France")) == 3


def test_the_bot_creates_a_centre_where_its_army_stands_and_owns_it_in_the_fall() -> None:
    """Rule 7: in a Spring a power may create a centre anywhere; the bot puts it where its unit
    will stand (its army in Gascony, every centre near owned, steps towards Belgium), and holds
    it through the Fall."""
    state = _position("Spring", ("France", ARMY, "Gas"), ("Italy", ARMY, "Ven"))
    state = state.evolve(owners={**state.owners, "Spa": "France", "Por": "France"})
    orders = policy_orders(StandIn.BOT, GEO, state, "France")
    [created] = [o for o in orders if isinstance(o, CreateCentre)]
    spring = _play(state, {"France": orders})
    [army] = spring.units_of("France")
    assert army.province == created.province
    assert created.province in GEO.map_for(spring).centres
    fall = _play(spring, {"France": policy_orders(StandIn.BOT, GEO, spring, "France")})
    assert fall.owners.get(created.province) == "France"


def test_no_event_where_none_helps() -> None:
    """No other power's unit near, and a Fall (no centre to create): no event, the plan alone
    (moving on to take Spain and Belgium) scores best."""
    state = _position("Fall", ("France", ARMY, "Par"), ("France", ARMY, "Mar"),
                      ("Russia", ARMY, "Mos"))
    orders = policy_orders(StandIn.BOT, GEO, state, "France")
    assert not [o for o in orders if isinstance(o, (GeoEvent, CreateCentre))]
    assert GEO.map_for(_play(state, {"France": orders})).terrain == GEO.map.terrain


def test_seven_bots_give_terrain_orders() -> None:
    """Every power a bot for two years: events, new centres and stabilisations are given, and
    each power's orders are legal (gm.bot.legal.keep_legal)."""
    state = GEO.start_state()
    kinds: set[str] = set()
    for _ in range(6):
        submitted = []
        for power in orders_needed(GEO, state):
            orders = policy_orders(StandIn.BOT, GEO, state, power)
            kinds |= {type(o).__name__ for o in orders}
            submitted += [Submitted(power, str(o), o) for o in orders]
        state = advance(GEO, state, submitted).state
    assert {"CreateCentre", "GeoEvent", "Stabilize"} <= kinds
    assert any(t is not GEO.map.terrain[p] for p, t in GEO.map_for(state).terrain.items()
               if t is not Terrain.MOUNTAIN)
