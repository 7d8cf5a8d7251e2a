"""Chaos II rule 6: a bot seated in a power declares the alliance of the fewest strongest powers
that own 18 centres together (at most a third of the powers left), when its power is one of
them; the bots' declarations tally and the members share the victory. A bot standing in for a
player declares none (ending the game is the player's choice)."""

from __future__ import annotations

from gm.bot.alliance import strongest_alliance
from gm.bot.policies import StandIn, policy_orders
from gm.engine.game import advance, orders_needed
from gm.engine.orders import Alliance
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.notation import parse_order
from gm.variants.registry import get_variant

CHAOS = get_variant("chaos2")


def _winter(owned: dict[str, int]) -> GameState:
    """A Chaos II Winter where each power of `owned` owns that many centres (its own first)."""
    start = CHAOS.start_state()
    free = sorted(c for c in CHAOS.map.centres if start.owners.get(c) not in owned)
    owners = dict(start.owners)
    for power, n in owned.items():
        mine = [c for c, p in start.owners.items() if p == power]
        for centre in [*mine, *free[: n - len(mine)]]:
            owners[centre] = power
        free = free[n - len(mine):]
    return start.evolve(phase=Phase("Winter", 1905, PhaseType.ADJUSTMENT), owners=owners)


def test_seated_bots_declare_the_strongest_alliance_and_share_the_victory() -> None:
    state = _winter({"Paris": 9, "Berlin": 6, "London": 5, "Rome": 4})
    # Paris and Berlin own 15: London is needed too (20); Rome is not
    assert strongest_alliance(CHAOS, state) == ("Paris", "Berlin", "London")
    submitted = []
    for power in orders_needed(CHAOS, state):
        orders = policy_orders(StandIn.BOT, CHAOS, state, power, seated=True)
        declared = [o for o in orders if isinstance(o, Alliance)]
        assert bool(declared) == (power in ("Paris", "Berlin", "London")), power
        for order in declared:  # stored as text, read back the same
            assert parse_order(str(order), CHAOS.map_for(state), PhaseType.ADJUSTMENT,
                               CHAOS.order_kinds) == order
        submitted += [Submitted(power, str(o), o) for o in orders]
    step = advance(CHAOS, state, submitted)
    results = step.reports[0].results
    assert not [r for r in results if r.outcome is Outcome.ILLEGAL]
    assert {r.power for r in results if isinstance(r.order, Alliance)
            and r.outcome is Outcome.SUCCEEDS} == {"Paris", "Berlin", "London"}
    assert step.state.finished and set(step.state.winners) == {"Paris", "Berlin", "London"}


def test_no_alliance_without_18_centres_or_from_a_stand_in() -> None:
    weak = _winter({"Paris": 4, "Berlin": 3})  # the 11 strongest of 34 own 4+3+9 = 16
    assert strongest_alliance(CHAOS, weak) == ()
    assert not [o for o in policy_orders(StandIn.BOT, CHAOS, weak, "Paris", seated=True)
                if isinstance(o, Alliance)]
    strong = _winter({"Paris": 9, "Berlin": 9})
    assert [str(o) for o in policy_orders(StandIn.BOT, CHAOS, strong, "Paris", seated=True)
            if isinstance(o, Alliance)] == ["Alliance Berlin"]
    # standing in for a player away, the bot does not end the game for them
    assert not [o for o in policy_orders(StandIn.BOT, CHAOS, strong, "Paris")
                if isinstance(o, Alliance)]
