"""The bot's Geophysical terrain orders (rules 1-3, 7; RULINGS: Geophysical), added to its
movement plan:

- one event, only where it helps: each candidate is adjudicated with the plan by the engine
  (the events before movement, then the movement against the others' careful answer, as
  gm.bot.lookahead guesses it) and the position after it is scored on the map the events
  leave: centres held, units on centres to take (a centre created, rule 7, counts), units
  lost, other powers' units destroyed, own centres other powers' units can reach, steps to
  the centres wanted. The best event is given if it scores above the plan alone. Candidates:
  in a Spring, a new centre where a unit of the power will stand (rule 7); an event that
  destroys another power's unit near the power's units or centres (rule 4: an army eroded
  into the water, a fleet's sea uplifted into land, a fleet's coast raised into a mountain),
  never on a centre;
- stabilisations (rule 1b: one per centre owned) of the spaces of its units on its centres,
  its other centres, then its other units, those other powers' units can reach first.
"""

from __future__ import annotations

from collections.abc import Sequence

from gm.bot.lookahead import others_orders
from gm.bot.position import FAR, Position, distances
from gm.engine.game import advance
from gm.engine.geo import Terrain
from gm.engine.map import GameMap
from gm.engine.orders import (
    AnyOrder,
    CreateCentre,
    GeoEvent,
    GeoKind,
    GeoTarget,
    Move,
    Order,
    Stabilize,
)
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.units import NEUTRAL, Unit, UnitType
from gm.engine.variant import OrderKind
from gm.variants.geo_events import check_event

MAX_KILLS = 8  # events against other powers' units tried, nearest first
MAX_CREATIONS = 4  # new centres tried
MARGIN = 0.5  # an event must score this much above the plan alone


def _reach(gmap: GameMap, unit: Unit) -> set[str]:
    if unit.type is UnitType.ARMY:
        return set(gmap.army_adj.get(unit.province, ()))
    return {d.province for d in gmap.fleet_adj.get(unit.location, ())}


def score(pos: Position, after: GameState) -> float:
    """The position `after` the phase for `pos.power`, on the map the phase leaves."""
    power = pos.power
    gmap = pos.variant.map_for(after)
    owned = {c for c in after.centres_of(power) if c in gmap.centres}
    mine = after.units_of(power)
    taking = sum(1 for u in mine if u.province in gmap.centres and u.province not in owned)
    lost = max(0, len(pos.mine) - len(mine))

    def foreign(state: GameState) -> int:
        return sum(1 for u in state.units if u.power not in (power, NEUTRAL)) + sum(
            1 for d in state.dislodged if d.unit.power not in (power, NEUTRAL))

    killed = max(0, foreign(pos.state) - foreign(after))
    reached: set[str] = set()
    for unit in after.units:
        if unit.power not in (power, NEUTRAL):
            reached |= _reach(gmap, unit)
    threatened = len(owned & reached)
    wanted = gmap.centres - owned
    army = distances(gmap.army_adj, wanted)
    fleet = distances(gmap.fleet_adj, [loc for loc in gmap.fleet_adj if loc.province in wanted])
    progress = sum(min(army.get(u.province, FAR) if u.type is UnitType.ARMY
                       else fleet.get(u.location, FAR), 8) for u in mine)
    return (10 * len(owned) + 4 * taking - 6 * lost + 3 * killed - 2 * threatened
            - 0.2 * progress)


def _ends(plan: Sequence[AnyOrder], unit: Unit) -> str:
    """Where `unit` stands after `plan` if its order succeeds."""
    for order in plan:
        if isinstance(order, Order) and order.unit.province == unit.province:
            return order.dest.province if isinstance(order, Move) else unit.province
    return unit.province


def _creations(pos: Position, plan: Sequence[AnyOrder]) -> list[CreateCentre]:
    """Rule 7, in a Spring: a new centre on land where a unit of the power will stand, the
    fewest other powers' units reaching it first."""
    if pos.state.phase.season != "Spring":
        return []
    gmap = pos.gmap
    places = {_ends(plan, u) for u in pos.mine}
    fit = [p for p in places if gmap.terrain.get(p) is Terrain.LAND and p not in gmap.centres
           and p not in gmap.iced]
    fit.sort(key=lambda p: (pos.threat.get(p, 0), p))
    return [CreateCentre(p) for p in fit[:MAX_CREATIONS]]


def _killing(gmap: GameMap, unit: Unit) -> GeoEvent | None:
    """The event that destroys `unit` where it stands (rule 4), or None."""
    terrain = gmap.terrain.get(unit.province)
    if unit.type is UnitType.ARMY:
        kind = GeoKind.ERODE if terrain is Terrain.LAND else None
    elif terrain is not None and terrain.is_water:
        kind = GeoKind.UPLIFT
    else:
        kind = GeoKind.OROGENESIS if terrain is Terrain.LAND else None
    if kind is None:
        return None
    event = GeoEvent(kind, GeoTarget(unit.province))
    return event if check_event(gmap, event) is None else None


def _kills(pos: Position) -> list[GeoEvent]:
    """Events destroying other powers' units off the centres, those that reach the power's
    centres first, then those its units reach."""
    gmap = pos.gmap
    near: set[str] = set()
    for unit in pos.mine:
        near |= set(pos.reach(unit))
    ranked: list[tuple[int, str, GeoEvent]] = []
    for unit in pos.state.units:
        if unit.power in (pos.power, NEUTRAL) or unit.province in gmap.centres \
                or unit.province in gmap.iced:
            continue
        menace = len(pos.owned & set(pos.reach(unit)))
        if not menace and unit.province not in near:
            continue
        event = _killing(gmap, unit)
        if event is not None:
            ranked.append((-menace, unit.province, event))
    ranked.sort(key=lambda r: r[:2])
    return [e for _, _, e in ranked[:MAX_KILLS]]


def _stabilisations(pos: Position, event: AnyOrder | None) -> list[Stabilize]:
    """Rule 1b: one stabilisation per centre owned (see the module's docstring)."""
    target = event.target.province if isinstance(event, GeoEvent) else None
    units = {u.province for u in pos.mine}
    places = sorted(
        (units | set(pos.owned)) - {target},
        key=lambda p: (not (p in units and p in pos.owned), p not in pos.owned,
                       -pos.threat.get(p, 0), p))
    return [Stabilize(GeoTarget(p)) for p in places[:len(pos.owned)]]


def terrain_orders(pos: Position, plan: list[AnyOrder]) -> list[AnyOrder]:
    """`plan` with the power's terrain orders, where the variant has them (see the module's
    docstring)."""
    if OrderKind.GEO not in pos.variant.order_kinds:
        return plan
    others = others_orders(pos)
    mine = [Submitted(pos.power, str(o), o) for o in plan]

    def scored(extra: AnyOrder | None) -> float:
        given = mine if extra is None else [*mine, Submitted(pos.power, str(extra), extra)]
        return score(pos, advance(pos.variant, pos.state, [*given, *others]).state)

    best: tuple[float, AnyOrder | None] = (scored(None) + MARGIN, None)
    candidates: list[AnyOrder] = [*_creations(pos, plan), *_kills(pos)]
    for event in candidates:
        value = scored(event)
        if value > best[0]:
            best = (value, event)
    chosen = best[1]
    return [*plan, *([chosen] if chosen is not None else []), *_stabilisations(pos, chosen)]
