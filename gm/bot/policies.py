"""The stand-in policies' orders for one power in one phase (gm.play.stand_in says when a
stand-in plays):

- HOLD gives no orders: the rules' defaults apply (units hold, a dislodged unit is disbanded,
  no build is made, removals by the rulebook's civil disorder rule; DATC 6.J), as for any
  power without orders.
- DEFEND keeps the centres: a unit on a centre of its power holds, a unit next to such a unit
  that another power could attack supports it, an empty centre of the power another power could
  enter gets a unit; the others hold.
- REPEAT gives again the power's orders of its last movement phase where they are still legal
  (the same unit in the same place); its other units hold.
- BOT plays (gm.bot.play), with the variants' own orders (gm.bot.variant_orders) and
  Geophysical's terrain orders (gm.bot.terrain); a bot
  seated in a power (`seated`: it is the power's player, not standing in for one) also
  declares Chaos II's alliances (gm.bot.alliance), which end the game.

Every policy but HOLD retreats a dislodged unit rather than lose it (to a centre first, no two
units to one place), builds on every vacant site its centres allow (an army, or a fleet where a
fleet is nearer the centres it wants) and removes the units farthest from its home centres.
Every order is checked by the engine (gm.bot.legal)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from gm.bot.alliance import alliance_orders
from gm.bot.defend import defend_movement
from gm.bot.legal import checked, keep_legal, retreat_targets, spec, try_build
from gm.bot.lookahead import best_movement, best_plan
from gm.bot.position import FAR, Position
from gm.bot.terrain import terrain_orders
from gm.bot.variant_orders import army_fleet_orders, convoy_orders, designations
from gm.engine.civil_disorder import disorder_removals
from gm.engine.game import orders_needed
from gm.engine.orders import (
    AnyOrder,
    Disband,
    Hold,
    Order,
    Remove,
    Retreat,
    Transform,
)
from gm.engine.phase import PhaseType
from gm.engine.rulebook import plays_2023
from gm.engine.state import GameState
from gm.engine.units import UnitType
from gm.engine.variant import OrderKind, Variant


class StandIn(StrEnum):
    """A stand-in policy (SET STANDIN)."""

    HOLD = "HOLD"
    DEFEND = "DEFEND"
    REPEAT = "REPEAT"
    BOT = "BOT"


def repeat_movement(pos: Position, last: Sequence[AnyOrder]) -> list[AnyOrder]:
    """REPEAT's movement orders: `last` (the power's orders of its last movement phase) where
    the same unit stands in the same place and the engine accepts the order again."""
    here = {u.province: u for u in pos.mine}
    given: dict[str, AnyOrder] = {}
    for order in last:
        if not isinstance(order, Order):
            continue
        unit = here.get(order.unit.province)
        if unit is None or (order.unit.type is not None and order.unit.type is not unit.type):
            continue
        again = checked(pos.variant, pos.gmap, pos.state, pos.power, order)
        if again is not None:
            given[unit.province] = again
    return [given.get(u.province, Hold(spec(u))) for u in pos.mine]


def retreats(pos: Position) -> list[AnyOrder]:
    """A retreat for each dislodged unit of the power, to the best free place (an own centre,
    then a wanted one, then the nearest to a wanted centre), else a disband."""
    orders: list[AnyOrder] = []
    taken: set[str] = set()
    for dislodged in sorted(pos.state.dislodged, key=lambda d: d.unit):
        unit = dislodged.unit
        if unit.power != pos.power:
            continue
        best: tuple[tuple[int, int, str], AnyOrder] | None = None
        for place in retreat_targets(pos.gmap, pos.state, dislodged):
            if place.province in taken:
                continue
            order = checked(pos.variant, pos.gmap, pos.state, pos.power,
                            Retreat(spec(unit), place))
            if order is None:
                continue
            rank = (0 if place.province in pos.owned else 1 if place.province in pos.wanted
                    else 2, pos.far(unit.type, place.province), place.province)
            if best is None or rank < best[0]:
                best = (rank, order)
        if best is None:
            orders.append(Disband(spec(unit)))
        else:
            assert isinstance(best[1], Retreat)
            taken.add(best[1].dest.province)
            orders.append(best[1])
    return orders


def adjustments(pos: Position) -> list[AnyOrder]:
    """Builds on every vacant site the power's centres allow (each an army or a fleet, as is
    nearer the centres it wants), or the removals the civil disorder rule would choose."""
    needed = orders_needed(pos.variant, pos.state).get(pos.power)
    if needed is None:
        return []
    orders: list[AnyOrder] = []
    if needed.removals:
        homes = (pos.owned if plays_2023(pos.state)
                 else frozenset(pos.state.homes.get(pos.power, ())))
        for unit, _ in disorder_removals(pos.gmap, pos.mine, homes, needed.removals,
                                         plays_2023(pos.state)):
            orders.append(Remove(spec(unit)))
        return orders
    sites = sorted(needed.build_sites,
                   key=lambda s: (min(pos.far(UnitType.ARMY, s), pos.far(UnitType.FLEET, s)), s))
    fleets = sum(u.type is not UnitType.ARMY for u in pos.mine)
    armies = len(pos.mine) - fleets
    for site in sites:
        if len(orders) >= needed.builds:
            break
        army, fleet = pos.far(UnitType.ARMY, site), pos.far(UnitType.FLEET, site)
        prefer_fleet = fleet < army or (fleet == army < FAR and fleets * 2 < armies)
        kinds = ([UnitType.FLEET, UnitType.ARMY] if prefer_fleet
                 else [UnitType.ARMY, UnitType.FLEET])
        build = try_build(pos.variant, pos.gmap, pos.state, pos.power, site, kinds)
        if build is not None:
            orders.append(build)
            if build.unit.type is UnitType.ARMY:
                armies += 1
            else:
                fleets += 1
    return orders


def _transforms(pos: Position, orders: list[AnyOrder]) -> list[AnyOrder]:
    """Where the variant lets an army become a fleet (Deluge II rule 2), an army that only
    holds on a coast, and would be nearer the centres it wants as a fleet, transforms."""
    if OrderKind.TRANSFORM not in pos.variant.order_kinds:
        return orders
    changed: list[AnyOrder] = []
    for order in orders:
        unit = pos.occupant.get(order.unit.province) if isinstance(order, Hold) else None
        if unit is not None and unit.type is UnitType.ARMY \
                and pos.gmap.is_coastal(unit.province) and len(
                    pos.gmap.fleet_locations(unit.province)) == 1 \
                and pos.far(UnitType.FLEET, unit.province) < pos.far(UnitType.ARMY,
                                                                      unit.province):
            changed.append(Transform(spec(unit)))
        else:
            changed.append(order)
    return changed


def _with_variant_orders(pos: Position, plan: list[AnyOrder]) -> list[AnyOrder]:
    """`plan`, or the plan with the landings, boardings and convoys the variant allows
    (gm.bot.variant_orders: with the fleets that hold, or also those moving to no centre, or
    any fleet),
    whichever the engine's adjudication scores best (gm.bot.lookahead)."""
    plans = [plan]
    for eager in (0, 1, 2):
        other = convoy_orders(pos, army_fleet_orders(pos, plan, eager), eager)
        if all({str(o) for o in other} != {str(o) for o in p} for p in plans):
            plans.append(other)
    return best_plan(pos, plans)


def policy_orders(policy: StandIn, variant: Variant, state: GameState, power: str,
                  last: Sequence[AnyOrder] = (), *, seated: bool = False) -> list[AnyOrder]:
    """What `policy` orders for `power` in `state`'s phase (HOLD: nothing; `last`: the
    power's orders of its last movement phase, for REPEAT; `seated`: the bot plays the power
    as its player), every order legal."""
    if policy is StandIn.HOLD or power not in orders_needed(variant, state):
        return []
    pos = Position.of(variant, state, power)
    ptype = state.phase.type
    if ptype is PhaseType.MOVEMENT:
        if not pos.mine:
            return []
        if policy is StandIn.BOT:
            chosen = terrain_orders(pos, _with_variant_orders(
                pos, _transforms(pos, best_movement(pos))))
        elif policy is StandIn.REPEAT:
            chosen = repeat_movement(pos, last)
        else:
            chosen = defend_movement(pos)
    elif ptype is PhaseType.RETREAT:
        chosen = retreats(pos)
    else:
        chosen = adjustments(pos)
        if policy is StandIn.BOT:
            chosen += designations(pos)
            if seated:
                chosen += alliance_orders(variant, state, power)
    return keep_legal(variant, state, power, chosen)
