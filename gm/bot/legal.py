"""What a power's units may do, as the engine judges it: candidate orders from the map's
adjacency, each checked by the engine's legality (gm.engine.order_check, the A/F rules where the
variant plays them), and a whole set checked by the variant's own adjudication
(`keep_legal`: an order the adjudicator would find illegal is dropped, so the unit holds)."""

from __future__ import annotations

from collections.abc import Sequence

from gm.engine.errors import OrderError
from gm.engine.game import build_sites, orders_needed, phase_results
from gm.engine.geo import Location
from gm.engine.legality import retreat_places
from gm.engine.map import GameMap
from gm.engine.order_check import check_order
from gm.engine.orders import AnyOrder, Build, Hold, Move, Order, UnitSpec, Waive
from gm.engine.phase import PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant

__all__ = ["checked", "destinations", "keep_legal", "retreat_targets", "spec", "try_build"]


def spec(unit: Unit) -> UnitSpec:
    """`unit` as an order names it."""
    return UnitSpec(unit.type, unit.location)


def checked(variant: Variant, gmap: GameMap, state: GameState, power: str,
            order: AnyOrder) -> AnyOrder | None:
    """`order` as the engine resolves it, or None if the engine refuses it."""
    sites = ({power: build_sites(variant, state, power)}
             if state.phase.type is PhaseType.ADJUSTMENT else None)
    if variant.build_refusal(order) is not None:
        return None
    result = check_order(gmap, state, power, order, sites, army_fleet=variant.army_fleet)
    return None if isinstance(result, OrderError) else result


def destinations(variant: Variant, gmap: GameMap, state: GameState,
                 unit: Unit) -> dict[str, Move]:
    """The legal moves of `unit` to a neighbouring province (no convoy), by province."""
    if unit.type is UnitType.ARMY:
        places = [Location(p) for p in sorted(gmap.army_adj.get(unit.province, ()))]
    else:
        places = sorted(gmap.fleet_adj.get(unit.location, ()))
    moves: dict[str, Move] = {}
    for place in places:
        if place.province in moves:
            continue
        move = checked(variant, gmap, state, unit.power, Move(spec(unit), place))
        if isinstance(move, Move):
            moves[place.province] = move
    return moves


def retreat_targets(gmap: GameMap, state: GameState, dislodged: Dislodged) -> list[Location]:
    """Where a dislodged unit may retreat (the standard rule's places; the A/F rules' extra
    places onto a fleet are left to the player)."""
    return list(retreat_places(gmap, state, dislodged))


def try_build(variant: Variant, gmap: GameMap, state: GameState, power: str, site: str,
              kinds: Sequence[UnitType]) -> Build | None:
    """The first build of `kinds` the engine accepts at `site` (any coast), or None."""
    for kind in kinds:
        places = [Location(site)]
        if kind is not UnitType.ARMY:
            places = list(gmap.fleet_locations(site)) or places
        for place in places:
            order = checked(variant, gmap, state, power, Build(UnitSpec(kind, place)))
            if isinstance(order, Build):
                return order
    return None


def keep_legal(variant: Variant, state: GameState, power: str,
               orders: Sequence[AnyOrder]) -> list[AnyOrder]:
    """`orders` less those the variant's adjudication finds illegal (given alone, every other
    unit holding; in a movement phase the unit is ordered to hold instead), checked again
    until none is. In a phase where `power` has nothing to order, none."""
    if power not in orders_needed(variant, state):
        return []
    kept = list(orders)
    for _ in range(len(kept) + 1):
        if not kept:
            return kept
        submitted = [Submitted(power, f"#{n}", o) for n, o in enumerate(kept)]
        bad = {int(r.text[1:]) for r in phase_results(variant, state, submitted)
               if r.power == power and r.outcome is Outcome.ILLEGAL
               and r.text.startswith("#") and r.text[1:].isdigit()}
        if not bad:
            return kept
        dropped = [o for n, o in enumerate(kept) if n in bad]
        kept = [o for n, o in enumerate(kept) if n not in bad]
        if state.phase.type is PhaseType.MOVEMENT:  # a unit whose order went holds, said so
            kept += [Hold(o.unit) for o in dropped if isinstance(o, Order)
                     and not isinstance(o, Hold)]
    return kept


def holds(units: Sequence[Unit]) -> list[AnyOrder]:
    """Each of `units` holds."""
    return [Hold(spec(u)) for u in units]


def is_unit_order(order: AnyOrder) -> bool:
    """An order for one unit (not a power's order, not a waived build)."""
    return isinstance(order, Order) and not isinstance(order, Waive)
