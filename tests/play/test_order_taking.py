"""Taking orders (gm.play.order_taking) at the play layer: what a power may order now, as typed
refusals; the variant's own orders judged through its hooks; which order replaces which; a
power's count of builds (the mail-level tests are in tests/service, e.g.
test_service_replies.py and test_service_orders_read_once.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from gm.engine.errors import OrderError
from gm.engine.game import orders_needed
from gm.engine.orders import AnyOrder, Build, Exchange, Waive
from gm.engine.phase import PhaseType
from gm.engine.reasons import Fate, Reason
from gm.engine.state import GameState
from gm.notation import parse_order
from gm.play.order_taking import (
    Dropped,
    Refusal,
    Refused,
    Taken,
    order_key,
    refusal,
    verdict,
    within_counts,
)
from gm.store.rows import PhaseRecord
from gm.variants import get_variant
from tests.support.boards import RETREAT, WINTER, position, std

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
STANDARD = get_variant("standard")


def _phase(state: GameState) -> PhaseRecord:
    return PhaseRecord(1, 1, 0, state.phase, state, None, None, T0, None, None)


def _order(text: str, phase: PhaseType = PhaseType.MOVEMENT) -> AnyOrder:
    order = parse_order(text, std(), phase, STANDARD.order_kinds)
    assert not isinstance(order, OrderError)
    return order


def test_a_power_orders_only_its_own_units() -> None:
    state = position("France: A Par", "Germany: A Mun")
    phase, needed = _phase(state), orders_needed(STANDARD, state)
    assert refusal(needed.get("France"), _order("A Par H"), phase, "France") is None
    assert refusal(needed.get("France"), _order("A Mun H"), phase, "France") == Refused(
        Refusal.OTHERS_UNIT, "France", "Mun", unit="A Mun", owner="Germany")
    assert refusal(needed.get("France"), _order("A Bur H"), phase, "France") == Refused(
        Refusal.NO_UNIT_TO_ORDER, "France", "Bur")
    assert refusal(needed.get("France"), Waive(), phase, "France") \
        == Refused(Refusal.WAIVER_NOT_NOW)
    assert refusal(None, _order("A Par H"), phase, "France") \
        == Refused(Refusal.NOTHING_TO_ORDER, "France")


def test_in_a_retreat_phase_only_dislodged_units_are_ordered() -> None:
    state = position("France: A Par", phase=RETREAT,
                     dislodged=[("France: A Bur", "mun")])
    refused = refusal(orders_needed(STANDARD, state).get("France"),
                      _order("A Par - Gas", PhaseType.RETREAT), _phase(state), "France")
    assert refused is not None and refused.why is Refusal.NO_UNIT_TO_ORDER and refused.retreat


def test_builds_go_to_vacant_home_centres_within_the_count() -> None:
    state = position("France: A Par", phase=WINTER)
    needed = orders_needed(STANDARD, state)["France"]
    phase = _phase(state)
    refused = refusal(needed, _order("Build A Mun", PhaseType.ADJUSTMENT), phase, "France")
    assert refused is not None and refused.why is Refusal.NOT_A_BUILD_SITE
    assert refused.province == "Mun" and set(refused.sites) == set(needed.build_sites)
    builds = [_order(f"Build A {c}", PhaseType.ADJUSTMENT) for c in ("Bre", "Mar")]
    taken: Taken = {}
    for n, order in enumerate([*builds, Waive(), Waive()]):
        taken[order_key(order, n)] = ("", order)
    dropped = within_counts(taken, needed)
    assert dropped == [Dropped("build", needed.builds,
                               tuple(str(o) for o in [*builds, Waive()][:4 - needed.builds]))]
    assert sum(isinstance(o, Build | Waive) for _, o in taken.values()) == needed.builds


def test_a_later_order_for_the_same_unit_replaces_the_earlier() -> None:
    assert order_key(_order("A Par H"), 0) == order_key(_order("A Par - Bur"), 1)
    assert order_key(Waive(), 0) != order_key(Waive(), 1)


def test_a_variants_own_order_is_judged_through_its_hooks() -> None:
    variant = get_variant("abstraction2")
    state = variant.start_state()
    while state.phase.type is not PhaseType.MOVEMENT:
        state = state.evolve(phase=variant.calendar.next(state.phase))
    power, partner = variant.power_names[:2]
    mine, theirs = sorted(state.centres_of(power))[0], sorted(state.centres_of(partner))[0]
    assert verdict(variant, state, power, Exchange(partner, (mine,), (theirs,)), []) is None
    assert verdict(variant, state, power, Exchange(power, (mine,), (theirs,)), []) \
        == Reason(Fate.EXCHANGE_WITH_ITSELF)
