"""The bot and the stand-in policies (gm.bot) played against each other on the engine alone.

Three measures (not timed tests: run by hand, figures in the output):

- seats: on the standard board, the bot in each seat against six powers played by one stand-in
  policy (HOLD, REPEAT, DEFEND), N games a seat (the bot's choices are deterministic; the games
  differ only by one random opening move of the bot's first phase, drawn from `--seed`): the bot's
  supply centres after Winter 1910, averaged per seat;
- variants: seven bots (every power a bot, 34 in Chaos II) play YEARS years of each variant
  gm plays built in, counting orders the engine finds illegal and errors;
- CPU: the most and the mean CPU time one power's orders take in a phase (process time).

Run: .venv/bin/python benchmarks/bench_bot.py [--games N] [--years N] [--only seats|variants]
     [--variant NAME] [--seated]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

from gm.bot.policies import StandIn, policy_orders
from gm.engine.game import advance, orders_needed, phase_results
from gm.engine.orders import AnyOrder, Move, Order
from gm.engine.phase import PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.variants.registry import get_variant

VARIANTS = ("standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical")
# the variants' own orders, counted by name (gm.engine.orders)
OWN_KINDS = ("Embark", "Disembark", "Transform", "KeepFleet", "DesignateHome", "Alliance",
             "Convoy", "GeoEvent", "SupportEvent", "CreateCentre", "Stabilize")
Chooser = Callable[[Variant, GameState, str], list[AnyOrder]]


class Stats:
    """What a run counted: orders given, illegal ones, errors, CPU per power and phase."""

    def __init__(self) -> None:
        self.orders = 0
        self.illegal: list[str] = []
        # legal as given, void once other powers' Geophysical events changed the map (the unit
        # destroyed, its move now across water): not the bot's error
        self.voided: list[str] = []
        self.errors: list[str] = []
        self.cpu: list[float] = []
        self.kinds: Counter[str] = Counter()  # the variants' own orders given, by kind


def play(variant: Variant, seats: dict[str, StandIn], *, until: int, stats: Stats,
         rng: random.Random | None = None, seated: bool = False) -> GameState:
    """Play `variant` from its start until after the Winter of `until` (or its end), each
    power by its policy in `seats` (HOLD if not named; `seated`: the bots play as the powers'
    players, declaring Chaos II's alliances)."""
    state = variant.start_state()
    last: dict[str, list[AnyOrder]] = {}
    first = True
    while not state.finished and state.phase.year <= until:
        submitted: list[Submitted] = []
        for power in orders_needed(variant, state):
            policy = seats.get(power, StandIn.HOLD)
            started = time.process_time()
            try:
                orders = policy_orders(policy, variant, state, power, last.get(power, ()),
                                       seated=seated)
            except Exception as exc:  # counted: the run goes on
                stats.errors.append(f"{variant.name} {state.phase} {power}: {exc!r}")
                orders = []
            stats.cpu.append(time.process_time() - started)
            if first and rng is not None and policy is StandIn.BOT:
                orders = _shuffled_opening(variant, state, power, orders, rng)
            if state.phase.type is PhaseType.MOVEMENT:
                last[power] = orders
            submitted.extend(Submitted(power, str(o), o) for o in orders)
            stats.kinds.update(type(o).__name__ for o in orders if type(o).__name__ in OWN_KINDS)
        stats.orders += len(submitted)
        step = advance(variant, state, submitted)
        for report in step.reports[:1]:
            alone: dict[str, set[str]] = {}
            for r in report.results:
                if r.outcome is not Outcome.ILLEGAL or r.text == "":
                    continue
                if r.power not in alone:  # the power's orders alone: what it is to blame for
                    own = [s for s in submitted if s.power == r.power]
                    alone[r.power] = {a.text for a in phase_results(variant, state, own)
                                      if a.outcome is Outcome.ILLEGAL and a.power == r.power}
                line = f"{variant.name} {state.phase} {r.power}: {r.text} ({r.reason})"
                (stats.illegal if r.text in alone[r.power] else stats.voided).append(line)
        state = step.state
        first = False
    return state


def _shuffled_opening(variant: Variant, state: GameState, power: str,
                      orders: list[AnyOrder], rng: random.Random) -> list[AnyOrder]:
    """The bot's first orders with one unit's order swapped for a random legal move: each of
    a seat's games starts differently."""
    from gm.bot.legal import destinations, keep_legal

    gmap = variant.map_for(state)
    units = state.units_of(power)
    if not units:
        return orders
    unit = rng.choice(units)
    moves = list(destinations(variant, gmap, state, unit).values())
    if not moves:
        return orders
    choice = rng.choice(moves)
    kept = [o for o in orders if not (isinstance(o, Order) and (
        o.unit.province == unit.province
        or (isinstance(o, Move) and o.dest.province == choice.dest.province)))]
    return keep_legal(variant, state, power, [*kept, choice])


def seats(games: int, seed: int, policies: Sequence[StandIn]) -> None:
    variant = get_variant("standard")
    for against in policies:
        print(f"bot against six {against.value} powers, centres after Winter 1910 "
              f"({games} games a seat):")
        means = []
        for power in variant.power_names:
            stats = Stats()
            counts = []
            for n in range(games):
                rng = random.Random(f"{seed}-{power}-{against}-{n}")
                policies = dict.fromkeys(variant.power_names, against)
                policies[power] = StandIn.BOT
                state = play(variant, policies, until=1910, stats=stats, rng=rng)
                counts.append(len(state.centres_of(power)))
            means.append(statistics.mean(counts))
            print(f"  {power:<8} mean {statistics.mean(counts):5.2f}  min {min(counts):2d}  "
                  f"max {max(counts):2d}  illegal {len(stats.illegal)}  "
                  f"errors {len(stats.errors)}  cpu max {max(stats.cpu) * 1000:.0f} ms")
        print(f"  all seats: mean {statistics.mean(means):.2f}, lowest seat "
              f"{min(means):.2f}")


def variants(years: int, names: Sequence[str], seated: bool = False) -> None:
    print(f"every power a bot{' (seated: alliances declared)' if seated else ''}, {years} years "
          "of each variant:")
    for name in names:
        variant = get_variant(name)
        stats = Stats()
        started = time.process_time()
        state = play(variant, dict.fromkeys(variant.power_names, StandIn.BOT),
                     until=variant.start_phase.year + years - 1, stats=stats, seated=seated)
        took = time.process_time() - started
        end = (f"won by {', '.join(state.winners) or 'nobody'} in {state.phase}"
               if state.finished else f"to {state.phase}")
        print(f"  {name:<13} powers {len(variant.power_names):2d}  {end}  "
              f"orders {stats.orders:5d}  illegal {len(stats.illegal)}  "
              + (f"void by others' events {len(stats.voided)}  " if stats.voided else "") +
              f"errors {len(stats.errors)}  cpu per power and phase: max "
              f"{max(stats.cpu) * 1000:.0f} ms, mean {statistics.mean(stats.cpu) * 1000:.1f} ms"
              f"  (run {took:.0f} s)")
        if stats.kinds:
            print("      own orders: "
                  + ", ".join(f"{k} {n}" for k, n in sorted(stats.kinds.items())))
        for line in (stats.illegal + stats.errors)[:5]:
            print("     ", line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--years", type=int, default=20)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--only", choices=("seats", "variants"))
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--against", action="append", choices=("HOLD", "REPEAT", "DEFEND"))
    parser.add_argument("--seated", action="store_true",
                        help="the variants' bots play as seated players (Chaos II alliances)")
    args = parser.parse_args(argv)
    if args.only in (None, "variants"):
        variants(args.years, args.variant or VARIANTS, args.seated)
    if args.only in (None, "seats"):
        seats(args.games, args.seed,
              [StandIn(a) for a in args.against or ("HOLD", "REPEAT", "DEFEND")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
