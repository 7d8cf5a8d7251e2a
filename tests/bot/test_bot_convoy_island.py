"""An army that cannot walk to any centre it wants (England's, on its island) counts the seas it
could be convoyed across (gm.bot.position), steps to the shore of the sea its fleets go to, and
is convoyed across it onto a centre (gm.bot.variant_orders), the plan with the convoy weighed by
the engine's adjudication against the plan without."""

from __future__ import annotations

from gm.bot.policies import StandIn, policy_orders
from gm.bot.position import FAR, Position
from gm.engine.game import advance
from gm.engine.orders import AnyOrder, Convoy, Move
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import UnitType
from gm.variants.registry import get_variant

STANDARD = get_variant("standard")


def _england(state: GameState) -> tuple[list[AnyOrder], GameState]:
    orders = policy_orders(StandIn.BOT, STANDARD, state, "England")
    step = advance(STANDARD, state, [Submitted("England", str(o), o) for o in orders])
    assert not [r for r in step.reports[0].results if r.outcome is Outcome.ILLEGAL]
    return orders, step.state


def test_englands_army_is_convoyed_to_the_continent() -> None:
    start = STANDARD.start_state()
    pos = Position.of(STANDARD, start, "England")
    assert pos.army_far.get("Lvp", FAR) == FAR  # no walk off the island
    assert pos.far(UnitType.ARMY, "Lvp") == FAR
    assert pos.far(UnitType.ARMY, "Lvp", sea=True) == 4  # Lvp, Yor, into NTH, out of it, Hol
    spring, state = _england(start)
    [army] = [o for o in spring if isinstance(o, Move) and o.unit.province == "Lvp"]
    assert army.dest.province in ("Edi", "Yor")  # the shore of the North Sea
    assert any(isinstance(o, Move) and o.dest.province == "NTH" for o in spring)
    fall, state = _england(state)  # the six others hold
    [convoy] = [o for o in fall if isinstance(o, Convoy)]
    assert convoy.unit.location.province == "NTH"
    landed = convoy.dest.province
    assert any(u.type is UnitType.ARMY and u.province == landed
               for u in state.units_of("England"))
    assert state.owners.get(landed) == "England"
