"""How long a Chaos II mid-game movement phase takes: 34 powers, every unit ordered.

A Chaos II board holds at most 34 units after a Winter (one per centre), and at most one unit
per province (75 on the standard map), so "mid-game" is measured twice: 34 units (every centre
supports one) and a crowded 70 units (the most a movement phase can have on this map,
e.g. after captures before the Winter removals). Positions and orders are drawn at random
(fixed seeds): holds, moves, supports of neighbours' holds and moves, convoys; units belong to
the 34 powers, some with several units and designated homes (Chaos II rules 4-5).

Each phase is timed through `gm.engine.game.advance` (the Fall movement, the variant's hooks,
retreat-phase check, the Autumn ownership update, home losses, victory check), the orders read
beforehand by the real parser. Goal: under 2 ms per phase.

Run: .venv/bin/python benchmarks/bench_chaos2.py [--positions N] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gm.engine.game import advance
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.notation import parse_order
from gm.variants.registry import get_variant

PHASE = Phase("Fall", 1905, PhaseType.MOVEMENT)


def _unit_for(gmap: GameMap, province: str, rng: random.Random) -> tuple[UnitType, Location]:
    if gmap.is_water(province):
        return UnitType.FLEET, Location(province)
    fleets = gmap.fleet_locations(province)
    if fleets and rng.random() < 0.4:
        return UnitType.FLEET, rng.choice(fleets)
    return UnitType.ARMY, Location(province)


def position(variant: Variant, units: int, seed: int) -> GameState:
    """A random mid-game position with `units` units among the 34 powers."""
    rng = random.Random(seed)
    gmap = variant.map
    spaces = sorted(p for p in gmap.provinces if gmap.is_passable(p))
    powers = list(variant.power_names)
    active = rng.sample(powers, 20)  # 20 powers still have units
    placed = []
    for province in rng.sample(spaces, units):
        kind, loc = _unit_for(gmap, province, rng)
        placed.append(Unit(rng.choice(active), kind, loc))
    owners = {c: rng.choice(active) for c in sorted(gmap.centres)}
    homes = {p: variant.homes[p] for p in powers}
    for power in active[:8]:  # some powers hold a designated home (Chaos II rule 4)
        extra_home = next((c for c, o in owners.items() if o == power), None)
        if extra_home is not None:
            homes[power] = tuple(sorted({*homes[power], extra_home}))
    return variant.start_state().evolve(
        phase=PHASE, units=tuple(placed), owners=owners, homes=homes
    )


def orders(variant: Variant, state: GameState, seed: int) -> list[Submitted]:
    """One order per unit, as players write them, read by the real parser."""
    rng = random.Random(seed)
    gmap = variant.map
    where = {u.province: u for u in state.units}
    texts: list[tuple[str, str]] = []
    for unit in state.units:
        reach = sorted(
            d.province if unit.type is UnitType.ARMY else str(d)
            for d in (
                [Location(p) for p in gmap.army_adj.get(unit.province, ())]
                if unit.type is UnitType.ARMY else gmap.fleet_adj.get(unit.location, ())
            )
        )
        roll = rng.random()
        neighbours = [where[p] for p in sorted(gmap.borders.get(unit.province, ()))
                      if p in where]
        if reach and roll < 0.5:
            texts.append((unit.power, f"{unit} - {rng.choice(reach)}"))
        elif neighbours and roll < 0.85:
            other = rng.choice(neighbours)
            targets = [d for d in reach if d.split("/")[0] != other.province
                       and gmap.can_reach_province(other.type, other.location, d.split("/")[0])]
            if targets and rng.random() < 0.7:
                dest = rng.choice(targets).split("/")[0]
                texts.append((unit.power, f"{unit} S {other.type.value} {other.province} - {dest}"))
            else:
                texts.append((unit.power, f"{unit} S {other.type.value} {other.province}"))
        elif unit.type is UnitType.FLEET and gmap.is_water(unit.province) and neighbours:
            army = next((n for n in neighbours if n.type is UnitType.ARMY), None)
            if army is not None and reach:
                texts.append((unit.power, f"{unit} C A {army.province} - "
                              f"{rng.choice(reach).split('/')[0]}"))
            else:
                texts.append((unit.power, f"{unit} H"))
        else:
            texts.append((unit.power, f"{unit} H"))
    submitted = []
    for power, text in texts:
        order = parse_order(text, gmap, PhaseType.MOVEMENT, variant.order_kinds)
        submitted.append(Submitted(power, text, None, order) if hasattr(order, "message")
                         else Submitted(power, text, order))  # type: ignore[arg-type]
    return submitted


def measure(variant: Variant, units: int, positions: int, repeat: int) -> list[list[float]]:
    """Seconds per phase: `repeat` timings for each of `positions` positions."""
    samples = []
    for seed in range(positions):
        state = position(variant, units, seed)
        subs = orders(variant, state, seed)
        advance(variant, state, subs)  # warm caches
        timings = []
        for _ in range(repeat):
            start = time.perf_counter()
            advance(variant, state, subs)
            timings.append(time.perf_counter() - start)
        samples.append(timings)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    variant = get_variant("chaos2")
    for units in (34, 70):
        samples = measure(variant, units, args.positions, args.repeat)
        ms = sorted(t * 1000 for timings in samples for t in timings)
        best = sorted(min(timings) * 1000 for timings in samples)
        p90 = ms[int(len(ms) * 0.9)]
        print(f"Chaos II Fall movement, 34 powers, {units} units/orders: median "
              f"{statistics.median(ms):.2f} ms, p90 {p90:.2f} ms over {len(ms)} phases; "
              f"best per position: median {statistics.median(best):.2f} ms, worst "
              f"{best[-1]:.2f} ms ({args.positions} positions; goal: under 2 ms)")


if __name__ == "__main__":
    main()
