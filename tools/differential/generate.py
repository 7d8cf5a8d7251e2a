"""The differential corpus: random standard games adjudicated by the `diplomacy` package.

Plays seeded random games with the `diplomacy` package (the `bench` extra: `pip install -e
'.[bench]'`) and writes every phase it adjudicates (movement, retreat and adjustment) as one case
of a scenario file: the position before the phase, the orders given, and the position the package
reached. `gm scenario` on the output then compares this engine with that one, phase by phase.

    python tools/differential/generate.py [--seed N] [--games N] [--last-year YYYY] [-o FILE]

The orders are random but not blind: every unit's order is one of the package's legal orders for
it (Game.get_all_possible_orders), drawn so that the supports and convoys mostly fit what the
other units do (a support names a move or a holding unit that is really ordered so; a fleet
convoys an army that really goes by convoy), with a share of orders drawn from all the legal ones
(supports of nothing, convoys with no army). Retreats and disbands are drawn among the legal
ones; builds and removals too, sometimes fewer than allowed (a waived build; a removal left to
the civil-disorder rule). The output depends only on the seed, the number of games, the last
year and the package's version.

Cases the package is known to adjudicate against the DATC are left out (see `datc_departure`);
the header of the output counts them.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

from diplomacy import Game

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = ROOT / "tests" / "data" / "differential" / "random_games.txt"

SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
TYPES = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}

# How the orders are drawn (probabilities per unit).
P_ANY = 0.12  # any legal order at all, drawn uniformly (void supports, lone convoys ...)
P_HOLD = 0.12  # a hold instead of a move
P_VIA = 0.35  # an army that some fleet could convoy goes by convoy
P_CONVOYER = 0.85  # a fleet able to convoy such an army does
P_SUPPORTER = 0.35  # a unit supports another unit's move or hold
W_ATTACK = 4  # how much likelier a move, or its support, into an occupied province is
P_DISBAND = 0.15  # a dislodged unit disbands though it could retreat
P_UNORDERED = 0.05  # a dislodged unit, or one build or removal, gets no order
P_WAIVE = 0.1  # a build is waived in so many words


# -- orders --------------------------------------------------------------------------------------
def _unit(order: str) -> str:
    """`A LON - BEL VIA` -> `A LON`."""
    return " ".join(order.split()[:2])


def _province(location: str) -> str:
    return location[:3]


def _move_target(order: str) -> str | None:
    """The province an order moves to, or None if it does not move."""
    words = order.split()
    if len(words) >= 4 and words[2] == "-":
        return _province(words[3])
    return None


@dataclass
class Support:
    """A support order read from the package's text: who is supported, to where (or None)."""

    order: str
    target: str  # the supported unit's province
    dest: str | None  # the province it is supported into; None for a support to hold


def _support(order: str) -> Support | None:
    words = order.split()
    if len(words) < 5 or words[2] != "S":
        return None
    dest = _province(words[6]) if len(words) >= 7 and words[5] == "-" else None
    return Support(order, _province(words[4]), dest)


def _convoyed(order: str) -> tuple[str, str] | None:
    """`F NTH C A LON - BEL` -> (`LON`, `BEL`)."""
    words = order.split()
    if len(words) == 7 and words[2] == "C":
        return _province(words[4]), _province(words[6])
    return None


def movement_orders(rng: random.Random, options: dict[str, list[str]]) -> dict[str, str]:
    """One order per unit (keyed by its province) for a movement phase."""
    provinces = sorted(options)
    orders: dict[str, str] = {}
    free = set(provinces)
    # Anything at all, for a share of the units.
    for prov in provinces:
        if rng.random() < P_ANY:
            orders[prov] = rng.choice(options[prov])
            free.discard(prov)
    # Armies by convoy, and the fleets that carry them.
    convoy_offers: dict[tuple[str, str], list[str]] = {}
    for prov in provinces:
        for order in options[prov]:
            found = _convoyed(order)
            if found is not None:
                convoy_offers.setdefault(found, []).append(order)

    def carried(move: str) -> bool:
        """Some fleet still without an order could convoy this move."""
        offers = convoy_offers.get((_province(move.split()[1]), _move_target(move) or ""), [])
        return any(_province(c.split()[1]) in free for c in offers)

    for prov in sorted(free):
        vias = [o for o in options[prov] if o.endswith(" VIA") and carried(o)]
        if prov not in free or not vias or rng.random() >= P_VIA:
            continue
        move = rng.choice(vias)
        orders[prov] = move
        free.discard(prov)
        for convoy in convoy_offers.get((prov, _move_target(move) or ""), []):
            fleet = _province(convoy.split()[1])
            if fleet in free and rng.random() < P_CONVOYER:
                orders[fleet] = convoy
                free.discard(fleet)
    # The supporters are chosen before the others' orders are: a support then names an order
    # that is really given.
    supporters = [p for p in sorted(free) if rng.random() < P_SUPPORTER]
    for prov in sorted(free - set(supporters)):
        moves = [o for o in options[prov] if _move_target(o) and not o.endswith(" VIA")]
        if not moves or rng.random() < P_HOLD:
            orders[prov] = f"{_unit(options[prov][0])} H"
        else:
            weights = [W_ATTACK if _move_target(o) in options else 1 for o in moves]
            orders[prov] = rng.choices(moves, weights)[0]
    for prov in supporters:
        fitting: list[Support] = []
        for order in options[prov]:
            s = _support(order)
            if s is None:
                continue
            if s.target in supporters:
                fits = s.dest is None
            elif s.target in orders:
                fits = _move_target(orders[s.target]) == s.dest
            else:
                fits = False
            if fits:
                fitting.append(s)
        if fitting:
            weights = [W_ATTACK if s.dest in options else 1 for s in fitting]
            orders[prov] = rng.choices(fitting, weights)[0].order
        else:
            orders[prov] = f"{_unit(options[prov][0])} H"
    return orders


def retreat_orders(rng: random.Random, options: dict[str, list[str]]) -> dict[str, str]:
    orders: dict[str, str] = {}
    for prov in sorted(options):
        if rng.random() < P_UNORDERED:
            continue
        retreats = [o for o in options[prov] if " R " in o]
        disbands = [o for o in options[prov] if o.endswith(" D")]
        pick = retreats if retreats and rng.random() >= P_DISBAND else disbands
        orders[prov] = rng.choice(pick)
    return orders


def adjustment_orders(rng: random.Random, options: dict[str, list[str]], count: int) -> list[str]:
    """Builds (count > 0) or removals (count < 0), in the project's words: `Build A PAR`,
    `Remove A UKR`; sometimes one fewer than the count, or one build waived."""
    wanted = abs(count)
    if wanted and rng.random() < P_UNORDERED:
        wanted -= 1
    sites = sorted(options)
    rng.shuffle(sites)
    orders: list[str] = []
    for prov in sites[:wanted]:
        if count > 0:
            builds = [o for o in options[prov] if o.endswith(" B")]
            if not builds:
                continue
            if rng.random() < P_WAIVE:
                orders.append("WAIVE")
                continue
            orders.append(f"Build {_unit(rng.choice(builds))}")
        else:
            removals = [o for o in options[prov] if o.endswith(" D")]
            if removals:
                orders.append(f"Remove {_unit(rng.choice(removals))}")
    return orders


# -- cases ---------------------------------------------------------------------------------------
def long_phase(short: str) -> str:
    """`F1902R` -> `Fall 1902, Retreat`."""
    return f"{SEASONS[short[0]]} {short[1:5]}, {TYPES[short[5]]}"


def _power(name: str) -> str:
    return name.capitalize()


@dataclass
class Position:
    """What the package holds at one moment: units, dislodged units, centres, its phase."""

    phase: str
    units: list[tuple[str, str]] = field(default_factory=list)
    dislodged: list[tuple[str, str]] = field(default_factory=list)
    centres: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> Position:
        pos = cls(game.get_current_phase())
        for power, units in sorted(game.get_units().items()):
            for unit in sorted(units):
                if unit.startswith("*"):
                    pos.dislodged.append((power, unit[1:]))
                else:
                    pos.units.append((power, unit))
        for power, centres in sorted(game.get_centers().items()):
            pos.centres.extend((power, c) for c in sorted(centres))
        return pos


def _block(keyword: str, lines: Iterable[str]) -> list[str]:
    return [keyword, *(f"\t{line}" for line in lines)]


def _owned(items: Sequence[tuple[str, str]]) -> list[str]:
    return [f"{_power(p)}: {what}" for p, what in items]


def write_case(
    name: str,
    before: Position,
    results: list[str] | None,
    orders: list[tuple[str, str]],
    after: Position,
) -> list[str]:
    lines = [f"CASE {name}", f"PRESTATE_SETPHASE {long_phase(before.phase)}"]
    lines += _block("PRESTATE", _owned(before.units))
    if before.dislodged:
        lines += _block("PRESTATE_DISLODGED", _owned(before.dislodged))
    if results is not None:
        lines += _block("PRESTATE_RESULTS", results)
    lines += _block("PRESTATE_SUPPLYCENTER_OWNERS", _owned(before.centres))
    lines += _block("ORDERS", _owned(orders))
    lines += _block("POSTSTATE", _owned(after.units))
    lines += _block("POSTSTATE_DISLODGED", _owned(after.dislodged))
    if before.phase.startswith("F") or after.centres != before.centres:
        # Ownership changes only after a Fall phase; elsewhere the block would repeat PRESTATE's.
        lines += _block("POSTSTATE_SUPPLYCENTER_OWNERS", _owned(after.centres))
    lines.append(f"POSTSTATE_SETPHASE {long_phase(after.phase)}")
    lines.append("END")
    return lines


def results_block(game: Game) -> list[str]:
    """The last phase's outcome, order by order: `SUCCESS: Power: order` when the package
    reports nothing against it, `FAILURE: ...` otherwise (a bounce, a cut or void support, a
    dislodged unit, a convoy that did not arrive)."""
    last = game.get_phase_history()[-1]
    lines = []
    for power, orders in sorted(last.orders.items()):
        for order in orders:
            failed = bool(last.results.get(_unit(order)))
            word = "FAILURE" if failed else "SUCCESS"
            lines.append(f"{word}: {_power(power)}: {order}")
    return lines


# -- filtering -----------------------------------------------------------------------------------
def datc_departure(before: Position, orders: list[tuple[str, str]]) -> str | None:
    """Why the package's result for this movement phase may not be the DATC's, or None. A phase
    is left out when its orders include either of:

    - a support naming one coast for a fleet ordered to another coast of that province (DATC
      6.B.9: such a support does not apply; the package applies it in some positions, e.g.
      F POR S F MAO - SPA/NC with F MAO - SPA/SC);
    - a support of another power's move by convoy, given by the power whose unit stands in
      the destination (DATC 6.D.12: a power cannot support the dislodgement of its own unit;
      the package's check of the occupant's owner reads the word VIA as the destination, so
      the support counts and the unit can be dislodged).

    The rule looks at the orders, not at the outcome: such a phase is left out whether or not
    the support decided anything."""
    given = {_province(order.split()[1]): order for _, order in orders}
    mover_of = {_province(order.split()[1]): power for power, order in orders}
    owner_at = {_province(unit.split()[1]): power for power, unit in before.units}
    for power, order in orders:
        s = _support(order)
        if s is None or s.dest is None or s.target not in given:
            continue
        supported = given[s.target]
        if _move_target(supported) != s.dest:
            continue
        named, went = order.split()[6], supported.split()[3]
        if "/" in named and "/" in went and named != went:
            return f"{order} names another coast than {supported} (DATC 6.B.9)"
        foreign = mover_of[s.target] != power
        if supported.endswith(" VIA") and foreign and owner_at.get(s.dest) == power:
            who = _power(power)
            return f"{order}: {who} supports a convoyed attack on its own unit (DATC 6.D.12)"
    return None


# -- games ---------------------------------------------------------------------------------------
@dataclass
class Corpus:
    lines: list[str] = field(default_factory=list)
    cases: int = 0
    left_out: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=lambda: {"M": 0, "R": 0, "A": 0})


def play(corpus: Corpus, rng: random.Random, number: int, last_year: int) -> None:
    game = Game(map_name="standard")
    while not game.is_game_done:
        short = game.get_current_phase()
        if int(short[1:5]) > last_year:
            break
        before = Position.of(game)
        results = results_block(game) if short.endswith("R") else None
        possible = game.get_all_possible_orders()
        owner: dict[str, str] = {}
        options: dict[str, dict[str, list[str]]] = {}
        for power, locations in sorted(game.get_orderable_locations().items()):
            for loc in sorted(locations):
                if possible[loc]:
                    owner[loc[:3]] = power
                    options.setdefault(power, {})[loc[:3]] = sorted(possible[loc])
        chosen: dict[str, list[str]] = {}
        if short.endswith("M"):
            every = {prov: o for by_power in options.values() for prov, o in by_power.items()}
            for prov, order in sorted(movement_orders(rng, every).items()):
                chosen.setdefault(owner[prov], []).append(order)
        for power, own in sorted(options.items()):
            if short.endswith("R"):
                chosen[power] = list(retreat_orders(rng, own).values())
            elif short.endswith("A"):
                count = game.get_state()["builds"][power]["count"]
                chosen[power] = adjustment_orders(rng, own, count)
        given: list[tuple[str, str]] = []
        for power, orders in sorted(chosen.items()):
            # The package reads its own words: `A PAR B`, `A UKR D`.
            game.set_orders(power, [_package_words(o) for o in orders])
            given += [(power, o) for o in orders]
        game.process()
        after = Position.of(game)
        name = f"random.{number}.{short}"
        why = datc_departure(before, given) if short.endswith("M") else None
        if why is not None:
            corpus.left_out.append(f"{name}: {why}")
            continue
        corpus.lines += write_case(name, before, results, given, after)
        corpus.lines.append("")
        corpus.cases += 1
        corpus.counts[short[-1]] += 1


def _package_words(order: str) -> str:
    if order.startswith("Build "):
        return f"{order[len('Build '):]} B"
    if order.startswith("Remove "):
        return f"{order[len('Remove '):]} D"
    return order


def generate(seed: int, games: int, last_year: int) -> Corpus:
    corpus = Corpus()
    for number in range(1, games + 1):
        play(corpus, random.Random(seed * 1000 + number), number, last_year)
    return corpus


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--last-year", type=int, default=1906)
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    corpus = generate(args.seed, args.games, args.last_year)
    command = (
        f"python tools/differential/generate.py --seed {args.seed} --games {args.games} "
        f"--last-year {args.last_year}"
    )
    header = [
        "# Differential cases: random standard games adjudicated by the `diplomacy` package",
        f"# (version {version('diplomacy')}); every case is one phase, its POSTSTATE blocks",
        "# that package's result. Made by tools/differential/generate.py, with:",
        f"#     {command}",
        f"# seed {args.seed}, {args.games} games to {args.last_year}: {corpus.cases} cases "
        f"({corpus.counts['M']} movement, {corpus.counts['R']} retreat, "
        f"{corpus.counts['A']} adjustment).",
    ]
    if corpus.left_out:
        header.append(
            "# Left out (orders where the package departs from the DATC; see datc_departure):"
        )
        header += [f"#     {why}" for why in corpus.left_out]
    else:
        header.append("# No phase was left out (see datc_departure in the generator).")
    text = "\n".join([*header, "VARIANT_ALL Standard", "", *corpus.lines])
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    print(f"{args.output}: {corpus.cases} cases, {len(corpus.left_out)} left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
