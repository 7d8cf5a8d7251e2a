"""The bot's movement orders: a simple, sound heuristic on the engine's legal moves.

In order: units standing on a centre the power wants, or on its own centre while another
power's unit could move in, stay (they may support); a centre held by another power is
attacked where enough units reach it (one moves, the others support, one more than its
occupant and that power's units next to it); an empty wanted centre gets the nearest free unit
(and, when another power could move in too, a supporter); the other units step towards the
nearest wanted centre; what is left supports a move of its own power or holds a threatened
unit, else holds. Two units of the power never move to one place.
"""

from __future__ import annotations

from gm.bot.legal import checked, spec
from gm.bot.position import FAR, Position
from gm.engine.geo import Location
from gm.engine.orders import AnyOrder, Hold, Move, SupportHold, SupportMove
from gm.engine.units import Unit


class _Plan:
    """Orders being chosen for one power's units."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.orders: dict[Unit, AnyOrder] = {}
        self.staying: set[Unit] = set()  # units that stay where they are (hold or support)
        self.bound: set[str] = set()  # provinces a unit of the power moves to or stays in

    def free(self) -> list[Unit]:
        return [u for u in self.pos.mine if u not in self.orders and u not in self.staying]

    def move(self, unit: Unit, province: str) -> None:
        self.orders[unit] = self.pos.moves[unit][province]
        self.bound.add(province)

    def can_enter(self, unit: Unit, province: str) -> bool:
        """May `unit` move to `province` without meeting a unit of its own power?"""
        if province not in self.pos.moves[unit] or province in self.bound:
            return False
        there = self.pos.occupant.get(province)
        if there is None or there.power != self.pos.power:
            return True
        # a unit of the power leaves it (a move given already)
        return isinstance(self.orders.get(there), Move)

    def support(self, helper: Unit, mover: Unit, province: str) -> bool:
        """`helper` supports `mover` into `province`, if the engine allows it."""
        order = checked(self.pos.variant, self.pos.gmap, self.pos.state, self.pos.power,
                        SupportMove(spec(helper), spec(mover), Location(province)))
        if order is None:
            return False
        self.orders[helper] = order
        return True

    def support_hold(self, helper: Unit, held: Unit) -> bool:
        order = checked(self.pos.variant, self.pos.gmap, self.pos.state, self.pos.power,
                        SupportHold(spec(helper), spec(held)))
        if order is None:
            return False
        self.orders[helper] = order
        return True

    def helpers(self, province: str, exclude: Unit) -> list[Unit]:
        """The power's units that could support a move into `province` (free or staying)."""
        return [u for u in self.pos.mine if u is not exclude and u not in self.orders
                and province in self.pos.moves[u]]


def _stay(plan: _Plan) -> None:
    pos = plan.pos
    for unit in pos.mine:
        here = unit.province
        if (here in pos.wanted and here in pos.gmap.centres) or \
                (here in pos.owned and pos.threat.get(here, 0) > 0):
            plan.staying.add(unit)
            plan.bound.add(here)


def _attack(plan: _Plan) -> None:
    pos = plan.pos
    held = [p for p in sorted(pos.wanted) if pos.foreign(p) is not None]
    held.sort(key=lambda p: pos.threat.get(p, 0))
    for target in held:
        if target in plan.bound:
            continue
        occupant = pos.foreign(target)
        assert occupant is not None
        guards = sum(1 for u in pos.state.units
                     if u.power == occupant.power and u is not occupant
                     and pos.gmap.adjacent(u.province, target))
        needed = 2 + min(guards, 1)
        movers = [u for u in plan.free() if target in pos.moves[u]]
        if not movers:
            continue
        mover = min(movers, key=lambda u: (u.province in pos.owned, u.province))
        helpers = plan.helpers(target, mover)
        if 1 + len(helpers) < needed:
            continue
        plan.move(mover, target)
        given = 0
        for helper in helpers:
            if given >= needed - 1:
                break
            if plan.support(helper, mover, target):
                given += 1


def _occupy(plan: _Plan) -> None:
    pos = plan.pos
    autumn = pos.variant.calendar.season_of(pos.state.phase).name.lower().startswith(("f", "a"))
    empty = [p for p in sorted(pos.wanted) if p not in pos.occupant]
    if autumn:  # an own centre another power could walk into
        empty += [p for p in sorted(pos.owned) if p not in pos.occupant
                  and pos.threat.get(p, 0) > 0]
    for target in empty:
        if target in plan.bound:
            continue
        movers = [u for u in plan.free() if plan.can_enter(u, target)]
        if not movers:
            continue
        mover = min(movers, key=lambda u: (pos.threat.get(u.province, 0) > 0
                                           and u.province in pos.owned, u.province))
        plan.move(mover, target)
        if pos.threat.get(target, 0) > 0:
            for helper in plan.helpers(target, mover):
                if helper in plan.staying and plan.support(helper, mover, target):
                    break


def _advance(plan: _Plan) -> None:
    pos = plan.pos
    for _ in range(2):  # a second pass: places left by the first pass's moves
        for unit in plan.free():
            now = pos.far(unit.type, unit.province)
            best: tuple[int, int, str] | None = None
            for province in pos.moves[unit]:
                if not plan.can_enter(unit, province) or pos.foreign(province) is not None:
                    continue
                far = pos.far(unit.type, province)
                if far >= now or far >= FAR:
                    continue
                key = (far, pos.threat.get(province, 0), province)
                if best is None or key < best:
                    best = key
            if best is not None:
                plan.move(unit, best[2])


def _help(plan: _Plan) -> None:
    pos = plan.pos
    moving = [(u, o) for u, o in plan.orders.items() if isinstance(o, Move)]
    moving.sort(key=lambda m: (pos.foreign(m[1].dest.province) is None, m[0].province))
    for unit in [*plan.free(), *sorted(plan.staying)]:
        if unit in plan.orders:
            continue
        for mover, move in moving:
            if move.dest.province in pos.moves[unit] and plan.support(unit, mover,
                                                                      move.dest.province):
                break
        else:
            threatened = [u for u in pos.mine if u in plan.staying and u is not unit
                          and pos.threat.get(u.province, 0) > 0
                          and u.province in pos.moves[unit]]
            for held in threatened:
                if plan.support_hold(unit, held):
                    break
            else:
                plan.orders[unit] = Hold(spec(unit))


def bot_movement(pos: Position) -> list[AnyOrder]:
    """The bot's orders for every unit of `pos.power` in a movement phase."""
    plan = _Plan(pos)
    _stay(plan)
    _attack(plan)
    _occupy(plan)
    _advance(plan)
    _help(plan)
    return [plan.orders.get(u, Hold(spec(u))) for u in pos.mine]
