"""DEFEND's movement orders: keep the centres (gm.bot.policies)."""

from __future__ import annotations

from gm.bot.legal import checked, spec
from gm.bot.position import Position
from gm.engine.orders import AnyOrder, Hold, SupportHold


def defend_movement(pos: Position) -> list[AnyOrder]:
    """DEFEND's movement orders (see the module's docstring)."""
    orders: dict[int, AnyOrder] = {}
    mine = list(pos.mine)
    bound = {u.province for u in mine}
    for n, unit in enumerate(mine):  # an empty own centre under threat: a unit moves in
        if unit.province in pos.owned:
            continue
        for province, move in sorted(pos.moves[unit].items()):
            if province in pos.owned and province not in bound and pos.threat.get(province, 0):
                orders[n] = move
                bound.add(province)
                break
    guarded = [u for u in mine if u.province in pos.owned and pos.threat.get(u.province, 0)]
    for n, unit in enumerate(mine):
        if n in orders:
            continue
        for held in sorted(guarded, key=lambda u: -pos.threat.get(u.province, 0)):
            if held is unit or held.province not in pos.moves[unit]:
                continue
            order = checked(pos.variant, pos.gmap, pos.state, pos.power,
                            SupportHold(spec(unit), spec(held)))
            if order is not None:
                orders[n] = order
                break
        else:
            orders[n] = Hold(spec(unit))
    return [orders[n] for n in range(len(mine))]
