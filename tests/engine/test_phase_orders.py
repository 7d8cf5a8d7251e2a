"""What each kind of phase takes (gm.engine.orders.PHASE_ORDERS), the one table the reply to an
order of another phase reads: every unit order class, the variants' included, is some phase's,
and a phase takes no order of another (Rulebook: orders by phase)."""

from __future__ import annotations

from gm.engine import orders
from gm.engine.orders import PHASE_ORDERS, Disband, Embark, Order, Waive
from gm.engine.phase import PhaseType


def _unit_order_classes() -> set[type]:
    return {value for value in vars(orders).values()
            if isinstance(value, type) and issubclass(value, Order) and value is not Order}


def test_every_unit_order_and_the_waiver_belong_to_a_phase() -> None:
    assert set(PHASE_ORDERS) == set(PhaseType)
    taken = {kind for kinds in PHASE_ORDERS.values() for kind in kinds}
    assert _unit_order_classes() | {Waive} <= taken
    assert Embark in PHASE_ORDERS[PhaseType.MOVEMENT]  # Abstraction2 rule 3: before movement


def test_only_a_disband_is_taken_in_two_phases() -> None:
    seen: dict[type, list[PhaseType]] = {}
    for phase, kinds in PHASE_ORDERS.items():
        for kind in kinds:
            seen.setdefault(kind, []).append(phase)
    assert {kind for kind, phases in seen.items() if len(phases) > 1} == {Disband}
