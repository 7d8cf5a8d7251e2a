"""Positions and orders for picture tests, read by the real parser and adjudicated by the real
engine: `Power: order` lines as players write them."""

from __future__ import annotations

from gm.engine.errors import OrderError
from gm.engine.game import GameStep, advance
from gm.engine.geo import Location
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.notation import parse_order


def submitted(variant: Variant, state: GameState, *lines: str) -> list[Submitted]:
    """Each `Power: order` line parsed for `state`'s phase (the variant's own orders too)."""
    out = []
    for line in lines:
        power, text = (s.strip() for s in line.split(":", 1))
        parsed = parse_order(text, variant.map_for(state), state.phase.type, variant.order_kinds)
        assert not isinstance(parsed, OrderError), parsed.message
        out.append(Submitted(power, text, parsed))
    return out


def unit(power: str, kind: UnitType, where: str, coast: str | None = None) -> Unit:
    return Unit(power, kind, Location(where, coast))


def burgundy_dislodged(variant: Variant) -> tuple[GameState, GameStep]:
    """Germany takes Burgundy with support: the French army there is dislodged (the position
    before, and the step to the retreat phase)."""
    state = variant.start_state().evolve(units=(
        unit("France", UnitType.ARMY, "Bur"), unit("Germany", UnitType.ARMY, "Ruh"),
        unit("Germany", UnitType.ARMY, "Mun")))
    return state, advance(variant, state, submitted(
        variant, state, "Germany: A Ruh - Bur", "Germany: A Mun S A Ruh - Bur",
        "France: A Bur H"))
