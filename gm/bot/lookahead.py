"""The bot looks one phase ahead: of the plans its styles make (gm.bot.play.STYLES), it keeps
the one that does best when the phase is adjudicated by the engine against what the other
powers may order, guessed from the board alone as the careful answer (keeping their centres
as DEFEND would: an attack that only ties such a defence is not counted on): centres held,
units on centres to take, no unit lost, units nearer the centres wanted."""

from __future__ import annotations

from collections.abc import Sequence

from gm.bot.defend import defend_movement
from gm.bot.play import STYLES, bot_movement
from gm.bot.position import Position
from gm.engine.game import advance
from gm.engine.orders import AnyOrder
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.units import NEUTRAL


def _score(pos: Position, after: GameState) -> float:
    power = pos.power
    owned = len(after.centres_of(power))
    mine = after.units_of(power)
    taking = sum(1 for u in mine if u.province in pos.wanted and u.province in pos.gmap.centres)
    lost = max(0, len(pos.mine) - len(mine))  # dislodged (or destroyed) in the phase
    # a unit that cannot reach any wanted centre counts as far as the farthest counted
    progress = sum(min(pos.far(u.type, u.location), 8) for u in mine)
    return 10 * owned + 4 * taking - 6 * lost - 0.2 * progress


def others_orders(pos: Position) -> list[Submitted]:
    """What the other powers may order, as DEFEND would."""
    guessed: list[Submitted] = []
    for power in sorted({u.power for u in pos.state.units} - {pos.power, NEUTRAL}):
        other = Position.of(pos.variant, pos.state, power)
        guessed += [Submitted(power, str(o), o) for o in defend_movement(other)]
    return guessed


def best_movement(pos: Position) -> list[AnyOrder]:
    """The best of the styles' plans for `pos.power` (the first if all are one)."""
    plans: list[list[AnyOrder]] = []
    for style in STYLES:
        plan = bot_movement(pos, style)
        if all({str(o) for o in plan} != {str(o) for o in p} for p in plans):
            plans.append(plan)
    return best_plan(pos, plans)


def best_plan(pos: Position, plans: Sequence[list[AnyOrder]]) -> list[AnyOrder]:
    """Of `plans` for `pos.power`, the one the engine's adjudication scores best (the first
    if there is one only, or all score alike)."""
    if len(plans) == 1:
        return plans[0]
    models: Sequence[list[Submitted]] = (others_orders(pos),)  # more guesses may be added
    best: tuple[float, int] | None = None
    for n, plan in enumerate(plans):
        mine = [Submitted(pos.power, str(o), o) for o in plan]
        score = sum(_score(pos, advance(pos.variant, pos.state, [*mine, *model]).state)
                    for model in models)
        if best is None or score > best[0]:
            best = (score, n)
    assert best is not None
    return plans[best[1]]
