"""Chaos II (Michel Feron): 34 one-centre powers on the standard map.

Each power is named after its starting centre and has a one-character code (the powers are
declared with the variant in gm/variants/data/chaos2.toml, read by gm.variants.varfile; the
hook set `chaos2` below is its rules). The game starts with Winter 1900 builds (rule 3).
Powers designate conquered centres as homes (rules 4, 5, 7: gm.variants.designated, the file's
`builds = "designated"`) and may win by a declared alliance (rule 6) as rules/RULINGS.md
"Chaos II" reads them; the standard 18-centre solo also applies.

Variant state in GameState.extra (the keys PRESTATE_STATE / POSTSTATE_STATE use):

- `winter-owner <Centre>: <Power>`: who owned the centre at the end of the last Winter (written
  after every Winter adjustment phase, played or not; absent: nobody).
- `designated <Power>: <Centre> <Centre>`: the centres on which the power has used one of its
  two designations (rule 4); a lost designation stays listed (rule 5: it is not refunded).
- `lost <Power>: <Centre> ...`: homes the power lost since the last Winter; such a centre needs
  two new Winters before it can be designated again (rule 5). Cleared at the end of each Winter.
- `new-homes <Power>: <Centre> ...`: designations accepted in the current Winter; they become
  homes at the end of that Winter, after its builds (only within a Winter phase).
- `alliance: <Power>, <Power>, ...`: the members of the alliance whose declarations tallied
  (rule 6), written in the Winter they won.

The power's home centres now (starting centre unless lost, plus valid designations) are
GameState.homes; builds are made in the vacant owned ones (the standard build sites).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from gm.engine.game import alive_powers
from gm.engine.orders import Alliance
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Fate, Reason, Void
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import Hooks, HookStep, OrderKind, Variant, Verdict
from gm.engine.victory import centre_victory
from gm.paths import VARIANT_DATA
from gm.variants.designated import (
    ALLIANCE,
    adjusts,
    canonical_state,
    winter_orders,
)
from gm.variants.special_rules import HookSet

FILE = VARIANT_DATA / "chaos2.toml"

SOLO = 18
ALLIANCE_CENTRES = 18  # rule 6: "own more than 17 centers"



# -- the powers --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChaosPower:
    """One power of the file: code, starting centre (its home), name."""

    code: str
    centre: str
    name: str


@cache
def chaos_powers() -> tuple[ChaosPower, ...]:
    """The 34 powers as gm/variants/data/chaos2.toml lists them (its home is its centre)."""
    declared = tomllib.loads(FILE.read_text(encoding="utf-8"))
    return tuple(ChaosPower(p["code"], p["homes"][0], p["name"]) for p in declared["powers"])


@cache
def starting_centres() -> Mapping[str, str]:
    """Power name -> its starting centre."""
    return MappingProxyType({p.name: p.centre for p in chaos_powers()})


# -- state helpers -----------------------------------------------------------------------------
# -- hooks -------------------------------------------------------------------------------------
def _before_phase(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    """Take the Alliance orders out: carried out in a Winter, void otherwise (the Home orders
    are the designated homes' own, gm.variants.designated)."""
    return winter_orders(variant, state, submitted, Alliance,
                         Reason(Void.ALLIANCE_NOT_IN_WINTER), _declare)


def _declare(variant: Variant, state: GameState, orders: Sequence[Submitted]) -> HookStep:
    """Rule 6: alliance declarations; a set of members whose lists all tally wins."""
    results: list[OrderResult] = []
    declared: dict[str, frozenset[str]] = {}
    last: dict[str, Submitted] = {}
    for sub in orders:
        assert isinstance(sub.order, Alliance)
        named, unknown = alliance_members(variant, sub.order.powers)
        members = frozenset({sub.power, *named})
        if unknown:
            unknown_names = Reason(Void.NO_SUCH_POWER, names=tuple(unknown))
            results.append(OrderResult(sub.power, sub.order, sub.text, Outcome.ILLEGAL,
                                       unknown_names))
            continue
        if sub.power in last:
            old = last[sub.power]
            replaced = Reason(Void.DECLARATION_REPLACED)
            results.append(OrderResult(old.power, old.order, old.text, Outcome.ILLEGAL,
                                       replaced))
        declared[sub.power] = frozenset(members)
        last[sub.power] = sub
    alive = alive_powers(state)
    limit = len(alive) // 3
    centres = variant.map_for(state).centres
    counts = Counter(p for c, p in state.owners.items() if c in centres)
    winners: frozenset[str] = frozenset()
    for power, sub in last.items():
        members = declared[power]
        why = _alliance_fails(members, declared, counts, len(alive), limit)
        if why is not None:
            results.append(OrderResult(power, sub.order, sub.text, Outcome.FAILS, why))
            continue
        winners = members
        total = sum(counts[m] for m in members)
        results.append(OrderResult(power, sub.order, sub.text, Outcome.SUCCEEDS,
                                   Reason(Fate.ALLIANCE_TALLIES, names=tuple(sorted(members)),
                                          count=total)))
    if not winners:
        return HookStep(state, tuple(results))
    extra = dict(state.extra)
    extra[ALLIANCE] = ", ".join(sorted(winners))
    event = (f"{_names(sorted(winners))} declare their alliance and share the victory "
             "(Chaos II rule 6).")
    return HookStep(state.evolve(extra=extra), tuple(results), (event,))


_FILLERS = frozenset({"with", "and", "&", ":"})  # `Alliance with Paris and Berlin`


def alliance_members(variant: Variant, written: Sequence[str]) -> tuple[list[str], list[str]]:
    """The powers an Alliance order names, and the words naming none. Names are read as
    written: a power's name (several words: `St Petersburg`), code or starting centre (`Par`),
    separated by spaces or commas (`with`, `and` are skipped); the longest run of words naming
    a power is taken."""
    words = [w for w in " ".join(written).replace(",", " ").split()
             if w.lower() not in _FILLERS]
    by_centre = {p.centre.lower(): p.name for p in chaos_powers()}
    found: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            text = " ".join(words[i:j]).replace(".", "")  # `St. Petersburg`
            power = variant.power(text)
            name = power.name if power is not None else by_centre.get(text.lower())
            if name is not None:
                found.append(name)
                i = j
                break
        else:
            unknown.append(words[i])
            i += 1
    return found, unknown


def _alliance_fails(
    members: frozenset[str],
    declared: dict[str, frozenset[str]],
    counts: Counter[str],
    alive: int,
    limit: int,
) -> Reason | None:
    """Why the alliance `members` does not win (None if it does)."""
    if len(members) < 2:
        return Reason(Fate.ALLIANCE_ALONE)
    silent = sorted(m for m in members if m not in declared)
    if silent:
        return Reason(Fate.ALLIANCE_NOT_DECLARED, names=tuple(silent))
    differ = sorted(m for m in members if declared[m] != members)
    if differ:
        return Reason(Fate.ALLIANCE_OTHERS_NAMED, names=tuple(differ))
    if len(members) > limit:
        return Reason(Fate.ALLIANCE_TOO_MANY, count=len(members), against=alive, other=str(limit))
    total = sum(counts[m] for m in members)
    if total < ALLIANCE_CENTRES:
        return Reason(Fate.ALLIANCE_TOO_SMALL, count=total, against=ALLIANCE_CENTRES)
    return None


def _names(powers: Sequence[str]) -> str:
    if len(powers) <= 1:
        return "".join(powers)
    return ", ".join(powers[:-1]) + " and " + powers[-1]


def _alliance_possible(variant: Variant, state: GameState) -> bool:
    """Could a set of at most a third of the powers left own 18 centres (rule 6)?"""
    centres = variant.map_for(state).centres
    alive = alive_powers(state)
    counts = Counter(p for c, p in state.owners.items() if c in centres)
    strongest = sorted(counts.values(), reverse=True)[: len(alive) // 3]
    return len(strongest) >= 2 and sum(strongest) >= ALLIANCE_CENTRES


def _adjustment_needed(variant: Variant, state: GameState) -> bool:
    """A Winter is played if a power builds or removes, or a set of at most a third of the
    powers left owns 18 centres (rule 6); the designated homes add theirs (rule 4)."""
    state = canonical_state(variant, state)
    return adjusts(state, variant.map_for(state).centres) or _alliance_possible(variant, state)


def _optional_orders(variant: Variant, state: GameState) -> dict[str, tuple[str, ...]]:
    """In a Winter, when a third of the powers left could own 18 centres, the alliance
    declaration (rule 6); the designations are offered by the designated homes (rule 4)."""
    if state.phase.type is not PhaseType.ADJUSTMENT:
        return {}
    state = canonical_state(variant, state)
    if not _alliance_possible(variant, state):
        return {}
    alive = alive_powers(state)
    return {p: ("Alliance <the other members>",) for p in variant.power_names if p in alive}


def _victory(variant: Variant, state: GameState, phase: Phase, updated: bool) -> Verdict | None:
    """Rule 6's alliance, written by the Winter's declarations; else the 18-centre solo."""
    members = state.extra.get(ALLIANCE)
    if members and phase.type is PhaseType.ADJUSTMENT:
        return Verdict(tuple(members.split(", ")))
    return centre_victory(variant, state, phase, updated)


# -- the variant -------------------------------------------------------------------------------
def _help() -> str:
    table = "\n".join(
        f"  {p.code}  {p.centre:<4} {p.name}" for p in chaos_powers()
    )
    return HELP.format(codes=table)


HELP = """\
Chaos II (Michel Feron, rh06)

Rules
1. The rules and map of regular Diplomacy are used, except as noted below.
2. There are 34 players, each starting with one supply centre.
3. In a preliminary season (Winter 1900) each player builds a unit on his centre (armies on
   land-locked provinces, armies or fleets on coastal ones).
4. Each player may make two conquered supply centres 'home' centres during the game, and then
   builds on them as on his starting centre. The centre must have been controlled by the same
   player during two consecutive Winters, and the player must ask for it.
5. Such a centre loses its home status when occupied (even during a Spring season only) by a
   foreign unit. It may be made a home again by recapturing it, controlling it during two new
   Winters and asking again. The loss does not allow a third centre to be made a home.
6. If no more than one third of the remaining powers (those in civil disorder included) own
   more than 17 centres, they may declare their alliance during a Winter season. Each of them
   sends the complete list of the other members; if all lists tally, they share the victory.
7. The starting centre does not lose its home status when occupied during a Spring only.

How this judge reads them (rulings)
- Winter 1900: each power builds one unit on its centre: an army inland, an army or a fleet
  on the coast; a fleet in St Petersburg, Spain or Bulgaria names its coast (Build F StP/nc).
- Orders, in a Winter (adjustment) phase:  Home Bel   and   Alliance Paris Berlin Kiel
  (also Designate Bel as home centre, Erect Bel into a home supply centre; Declaration of
  alliance Paris, Berlin, Kiel)
  (powers by name, code or starting centre, spaces or commas between them; the declarer need
  not name itself; if a power declares twice in one Winter, the last declaration counts).
- Home Bel is accepted if you owned Bel at the end of the previous Winter and own it now, and
  have used fewer than two designations. It takes effect at the end of that Winter, after its
  builds: you build there from the next Winter on. A lost designation is not refunded; the
  same centre may be made a home again after recapture and two new Winters, without using a
  designation.
- A designated home loses its status when a foreign unit stands in it at the end of any
  movement phase or of the retreats after it (Spring too). The starting centre loses it only
  when a foreign unit stands there at the end of an Autumn movement phase or its retreats; it
  is regained like a designation (Home Par), without using one.
- You build only in vacant home centres you own.
- Alliance: the members (the declarer and the powers named) must number at most one third of
  the powers still in the game, every power with a unit or a centre (with 34 powers: 11; with
  10: 3), own 18 or more centres together, and every
  member must name exactly the same set. They share the victory at once.
- The standard victory (18 centres at the Autumn update) also applies.
- A Winter is played when someone builds or removes, can make a centre a home, or when some
  powers numbering at most a third of those left own 18 centres together (an alliance is
  possible); otherwise it is skipped.
- Sign on with the power's name (SIGNON St Petersburg mygame secret) or its code
  (SIGNON 3mygame secret). St Petersburg may be written St. Petersburg.
- Scenario files (gm scenario) give this game's state in PRESTATE_STATE and POSTSTATE_STATE
  lines: `winter-owner Bel: Paris` (Paris owned Bel at the end of the last Winter),
  `designated Paris: Bel Bre` (the designations Paris has used, lost ones included),
  `lost Paris: Bel` (homes lost since the last Winter), `alliance: Berlin, Paris` (the
  alliance that won); centres and powers in any case, powers also by code.

Powers and codes
{codes}
"""


@cache
def rules() -> HookSet:
    """Chaos II's special rules, the hook set its file (chaos2.toml) names: rule 6's alliance
    victory; the designated homes of rules 4, 5 and 7 are the file's `builds = "designated"`
    (gm.variants.designated)."""
    return HookSet(
        hooks=Hooks(
            before_phase=_before_phase,
            adjustment_needed=_adjustment_needed,
            optional_orders=_optional_orders,
            victory=_victory,
        ),
        order_kinds=frozenset({OrderKind.ALLIANCE}),
        help=_help(),
    )

