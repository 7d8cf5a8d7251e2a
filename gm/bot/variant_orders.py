"""The bot's orders of the variants' own kinds, each candidate kept only where the engine
accepts it (gm.bot.legal.checked, gm.variants.designated.may_designate):

- the A/F rules (Abstraction2 rule 3, Deluge II rule 8): an A/F lands its army on a centre the
  power wants (the fleet holds while it lands); an army with nothing better to do boards a fleet
  of its power that stays in a sea next to a centre it wants and cannot walk to;
- convoys: an idle army next to a sea where a fleet of its power stays is convoyed by that
  fleet across that one sea to an empty centre it wants, which it cannot walk to, else to an
  empty place at least two steps nearer one;
- Chaos II rules 4-5: in a Winter, the owned centres the rules let the power make homes.
"""

from __future__ import annotations

from gm.bot.legal import checked, spec
from gm.bot.position import FAR, Position
from gm.engine.geo import Location
from gm.engine.orders import (
    AnyOrder,
    Convoy,
    DesignateHome,
    Disembark,
    Embark,
    Hold,
    Move,
    Order,
)
from gm.engine.units import Unit, UnitType
from gm.engine.variant import OrderKind
from gm.variants.designated import canonical_state, may_designate


def _given(orders: list[AnyOrder]) -> tuple[set[str], dict[str, Order]]:
    """The provinces the power's units move to or stay in, and each unit's order by place."""
    by_place = {o.unit.province: o for o in orders if isinstance(o, Order)}
    bound = {o.dest.province for o in orders if isinstance(o, Move)}
    bound |= {p for p, o in by_place.items() if not isinstance(o, Move)}
    return bound, by_place


def _landing(pos: Position, unit: Unit, bound: set[str]) -> Disembark | None:
    """A landing of `unit`'s army on a centre the power wants, empty first."""
    targets = sorted((p in pos.occupant, p) for p in pos.fleet_graph.get(unit.province, ())
                     if p in pos.wanted and p not in bound and pos.foreign(p) is None)
    for _, province in targets:
        order = checked(pos.variant, pos.gmap, pos.state, pos.power,
                        Disembark(spec(unit), Location(province)))
        if isinstance(order, Disembark):
            return order
    return None


def _staying(pos: Position, order: Order | None, eager: int) -> bool:
    """May a fleet given `order` stay instead: it holds, or (`eager` 1) it only moves to a
    place that is not a centre the power wants, or (`eager` 2) whatever its order (the plan
    with it is weighed against the plan without, gm.bot.lookahead)?"""
    if isinstance(order, Hold) or eager >= 2:
        return True
    return eager == 1 and isinstance(order, Move) and order.dest.province not in pos.wanted


def _boarding(pos: Position, army: Unit, fleets: list[Unit], by_place: dict[str, Order],
              boarded: set[str], eager: int) -> Embark | None:
    """`army` boards a staying fleet of its power next to a wanted centre it cannot walk to."""
    for fleet in fleets:
        if fleet.province in boarded or not _staying(pos, by_place.get(fleet.province), eager):
            continue
        shore = [p for p in pos.fleet_graph.get(fleet.province, ())
                 if p in pos.wanted and pos.foreign(p) is None
                 and p not in pos.moves[army] and p != army.province]
        if not shore:
            continue
        order = checked(pos.variant, pos.gmap, pos.state, pos.power,
                        Embark(spec(army), fleet.location))
        if isinstance(order, Embark):
            return order
    return None


def _idle(pos: Position, order: AnyOrder) -> bool:
    """Does `order` leave its army idle: holding, or walking where no wanted centre is within
    two steps (boarding, then landing, takes two)?"""
    if isinstance(order, Hold):
        return True
    return isinstance(order, Move) and pos.far(UnitType.ARMY, order.dest.province, sea=True) > 1


def army_fleet_orders(pos: Position, orders: list[AnyOrder],
                      eager: int = 0) -> list[AnyOrder]:
    """`orders` with the landings and boardings the A/F rules allow and the bot wants
    (`eager`: which fleets hold instead, to be boarded: see `_staying`)."""
    if OrderKind.ARMY_FLEET not in pos.variant.order_kinds:
        return orders
    bound, by_place = _given(orders)
    out = list(orders)
    for unit in pos.mine:
        if unit.type is not UnitType.ARMY_FLEET:
            continue
        landing = _landing(pos, unit, bound)
        if landing is None:
            continue
        if isinstance(by_place.get(unit.province), Move):  # the fleet holds while it lands
            out = [Hold(spec(unit)) if isinstance(o, Order) and o.unit.province == unit.province
                   else o for o in out]
        out.append(landing)
        bound.add(landing.dest.province)
    fleets = [u for u in pos.mine if u.type is UnitType.FLEET]
    boarded: set[str] = set()
    for n, order in enumerate(out):
        idle = pos.occupant.get(order.unit.province) if isinstance(order, Order) else None
        if idle is None or idle.type is not UnitType.ARMY or idle.power != pos.power \
                or idle.province in pos.gmap.centres or not _idle(pos, order):
            continue
        boarding = _boarding(pos, idle, fleets, by_place, boarded, eager)
        if boarding is not None:
            out[n] = boarding
            boarded.add(boarding.fleet.province)
    return [Hold(o.unit) if isinstance(o, Move) and o.unit.province in boarded else o
            for o in out]


def _convoy(pos: Position, army: Unit, fleet: Unit, bound: set[str],
            centres_only: bool = False) -> list[AnyOrder]:
    """`army` convoyed by `fleet` across its sea to an empty wanted centre, else (unless
    `centres_only`) to an empty place at least two steps nearer one than the army is, both
    orders as the engine resolves them (none if it refuses either)."""
    now = pos.far(UnitType.ARMY, army.province, sea=True)
    shore = sorted(pos.fleet_graph.get(fleet.province, ()),
                   key=lambda p: (p not in pos.wanted, pos.far(UnitType.ARMY, p, sea=True), p))
    for dest in shore:
        if dest in pos.occupant or dest in bound or dest in pos.moves[army] \
                or dest == army.province:
            continue
        if dest not in pos.wanted and (
                centres_only or pos.far(UnitType.ARMY, dest, sea=True) + 2 > now):
            continue
        move = checked(pos.variant, pos.gmap, pos.state, pos.power,
                       Move(spec(army), Location(dest), via_convoy=True))
        convoy = checked(pos.variant, pos.gmap, pos.state, pos.power,
                         Convoy(spec(fleet), spec(army), Location(dest)))
        if isinstance(move, Move) and isinstance(convoy, Convoy):
            return [move, convoy]
    return []


def convoy_orders(pos: Position, orders: list[AnyOrder],
                  eager: int = 0) -> list[AnyOrder]:
    """`orders` with idle armies convoyed across one sea by a holding fleet of the power
    (`eager`: or by one moving elsewhere, see `_staying`; the place it moved to is free; a
    fleet that gives up whatever its order was, `eager` 2, convoys onto a centre only, and
    only an army that cannot walk to any centre it wants, as on an island)."""
    bound, by_place = _given(orders)
    fleets = [u for u in pos.mine if u.type is UnitType.FLEET
              and _staying(pos, by_place.get(u.province), eager)
              and u.province not in pos.gmap.army_adj]  # at sea
    given: dict[str, AnyOrder] = {}
    for order in orders:
        army = pos.occupant.get(order.unit.province) if isinstance(order, Order) else None
        if army is None or army.type is not UnitType.ARMY or army.power != pos.power \
                or army.province in pos.wanted or not _idle(pos, order):
            continue
        for fleet in fleets:
            if fleet.province in given:
                continue
            left = by_place.get(fleet.province)
            free = {left.dest.province} if isinstance(left, Move) else set()
            keen = not _staying(pos, left, 1)  # it gives up its order: `eager` 2
            if keen and pos.army_far.get(army.province, FAR) < FAR:
                continue  # only for an army that cannot walk to any centre it wants
            pair = _convoy(pos, army, fleet, bound - free, centres_only=keen)
            if pair:
                given[army.province], given[fleet.province] = pair
                assert isinstance(pair[0], Move)
                bound.add(pair[0].dest.province)
                break
    return [given.get(o.unit.province, o) if isinstance(o, Order) else o for o in orders]


def designations(pos: Position) -> list[AnyOrder]:
    """In a Winter of a variant with home designations (Chaos II rules 4-5), a Home order for
    each owned centre the rules let the power make a home now, nearest the centres it wants
    first (the rules judge each in turn: one beyond the power's designations is void)."""
    if OrderKind.HOME not in pos.variant.order_kinds:
        return []
    state = canonical_state(pos.variant, pos.state)
    centres = pos.gmap.centres
    may = [c for c in sorted(state.centres_of(pos.power))
           if may_designate(pos.variant, state, pos.power, c, centres) is None]
    may.sort(key=lambda c: (pos.far(UnitType.ARMY, c), c))
    return [DesignateHome(c) for c in may]
