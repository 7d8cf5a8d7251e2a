"""Abstraction2 (Fred C. Davis Jr.): the Abstraction map, a month by month calendar from July
1914 to December 1918, frozen northern waters, A/F convoys and exchanges of centres.

Rules (rules/abstraction2.txt) and rulings (RULINGS.md, "Abstraction2") as this module plays them:
- rule 1: the map gm/variants/data/abstraction2.map (46 centres, 29 home, 17 neutral) and the
  starting units of the rule, Austria's army for Budapest in Tyrolia;
- rule 2 and RULINGS: a season per month; January, February, April, May, July, August,
  October and November have moves (and retreats), March, June, September and December are
  adjustment months; ownership is updated after the moves and retreats of August, November,
  February and May; the first phase is July 1914, Movement; the game ends after the December
  1918 adjustments;
- rule 3: the A/F rules (kind "af": embark, disembark, fast ferry), gm.engine.army_fleet;
- rule 4: direct passages are map data (the rings and `passage` lines of the map file);
- rule 5: in the movement phases of January, February and April the fleets in ARO, BAR, Arc,
  Lap and Ice may only hold and cannot be dislodged; armies in Lap and Arc cannot be dislodged
  and may leave only overland (`frozen_rules`: the file's `[frozen]`, gm.variants.frozen); Arc
  is a coastal home centre, so Russia may build an army or a fleet there (in March as in every
  adjustment month);
- rule 6: `Exchange Bel Den for Hol Kie with Germany` (kind "exchange"), applied at the end of
  the movement phase in which both powers order matching lists (`exchanges`);
- rule 7: 23 centres at an ownership update win at once; otherwise after the December 1918
  adjustments the power(s) with the most units win (`victory`).
The module keeps no variant state in GameState.extra. The variant is declared by its file,
gm/variants/data/abstraction2.toml (gm.variants.varfile), which names these rules as the hook
set `abstraction2` (`rules()`).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Sequence

from gm.engine.army_fleet import (
    resolve_adjustments_af,
    resolve_retreats_af,
    unit_count,
)
from gm.engine.calendar import Calendar, Season
from gm.engine.orders import Exchange
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import REPLACED, Fate, Reason
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import Hooks, HookStep, OnArrival, OrderKind, Variant, Verdict
from gm.engine.victory import centre_counts
from gm.paths import VARIANT_DATA
from gm.variants.army_fleet_help import HELP_TEXT as AF_HELP
from gm.variants.frozen import FrozenRules, frozen_regions
from gm.variants.special_rules import HookSet

SOLO = 23  # rule 7
LAST_YEAR = 1918  # rule 2: the game ends after the December 1918 adjustments
# Rule 5 and RULINGS, as the file's [frozen] declares them: in January, February and April the
# fleets in ARO, BAR, Arc, Lap and Ice only hold; armies in Lap and Arc cannot be dislodged.
REGIONS = frozen_regions(tomllib.loads(
    (VARIANT_DATA / "abstraction2.toml").read_text(encoding="utf-8"))["frozen"])
FROZEN_MONTHS = REGIONS.months
FROZEN = REGIONS.provinces
FROZEN_ARMIES = REGIONS.armies

_M, _R, _A = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT
_MONTHS = (
    ("January", _M), ("February", _M), ("March", _A), ("April", _M), ("May", _M), ("June", _A),
    ("July", _M), ("August", _M), ("September", _A), ("October", _M), ("November", _M),
    ("December", _A),
)
_UPDATES = frozenset({"February", "May", "August", "November"})  # RULINGS: before adjustments


def calendar() -> Calendar:
    """Rule 2: a season per month, January to December; moves then retreats in a movement
    month, adjustments alone in March, June, September and December."""
    return Calendar(
        tuple(
            Season(
                name,
                (_M, _R) if kind is _M else (_A,),
                code=name[:3],
                updates_ownership=name in _UPDATES,
            )
            for name, kind in _MONTHS
        )
    )


# -- rule 5: frozen regions --------------------------------------------------------------------
def is_frozen(phase: Phase) -> bool:
    """Are the northern spaces frozen in this phase (the movement phases of January, February
    and April, and the retreats after them)?"""
    return REGIONS.is_frozen(phase)


def frozen_rules(state: GameState) -> FrozenRules:
    """Rule 5 for the position (gm.variants.frozen, as the file's `[frozen]` declares it)."""
    return REGIONS.rules(state)


# -- rule 6: exchange of centres ---------------------------------------------------------------
def _exchange_problem(
    variant: Variant, state: GameState, power: str, order: Exchange, partner: str | None,
    *, moved: bool = True,
) -> Reason | None:
    """Why this power's own side of an exchange cannot be carried out, or None. `moved`: the
    phase's moves are done (whether the power still occupies a centre it gives is known only
    then)."""
    if partner is None:
        return Reason(Fate.EXCHANGE_NO_SUCH_POWER, other=order.partner)
    if partner == power:
        return Reason(Fate.EXCHANGE_WITH_ITSELF)
    if not order.give or not order.receive:
        return Reason(Fate.EXCHANGE_CENTRES_UNNAMED)
    if len(order.give) != len(order.receive):
        return Reason(Fate.EXCHANGE_UNEQUAL, count=len(order.give), against=len(order.receive))
    if len(set(order.give)) != len(order.give) or len(set(order.receive)) != len(order.receive):
        return Reason(Fate.EXCHANGE_NAMED_TWICE)
    centres = variant.map_for(state).centres
    for c in order.give:
        if c not in centres:
            return Reason(Fate.EXCHANGE_NOT_A_CENTRE, province=c)
        if state.owners.get(c) != power:
            return Reason(Fate.EXCHANGE_NOT_OWNED, power=power, province=c)
        unit = state.unit_in(c)
        if moved and unit is not None and unit.power == power:
            return Reason(Fate.EXCHANGE_OCCUPIED, power=power, province=c, unit=str(unit))
    for c in order.receive:
        if c not in centres:
            return Reason(Fate.EXCHANGE_NOT_A_CENTRE, province=c)
        if state.owners.get(c) != partner:
            return Reason(Fate.EXCHANGE_NOT_OWNED, power=partner, province=c)
    return None


def exchange_on_arrival(variant: Variant, state: GameState, power: str,
                        order: object) -> OnArrival | None:
    """Taking orders (the `on_arrival` hook): why adjudication will find this power's exchange
    order illegal, judged when it arrives: all but whether the power still occupies a centre it
    gives after the moves (rule 6). None for the other orders."""
    if not isinstance(order, Exchange):
        return None
    if state.phase.type is not _M:
        return OnArrival(Reason(Fate.EXCHANGE_NOT_IN_PHASE))
    partner = variant.power(order.partner)
    return OnArrival(_exchange_problem(variant, state, power, order,
                                       partner.name if partner else None, moved=False))


def exchanges(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> HookStep:
    """Rule 6, at the end of a movement phase (RULINGS): each pair of powers whose exchange
    orders name each other with the same centres swaps them, if neither gives a centre it does
    not own or still occupies. The last exchange order of a power with a given partner counts."""
    latest: dict[tuple[str, str], tuple[Submitted, Exchange]] = {}
    results: list[OrderResult] = []
    for sub in submitted:
        if not isinstance(sub.order, Exchange):
            continue
        partner = variant.power(sub.order.partner)
        key = (sub.power, partner.name if partner else sub.order.partner)
        if key in latest:
            old, old_order = latest[key]
            results.append(
                OrderResult(old.power, old_order, old.text, Outcome.ILLEGAL, REPLACED)
            )
        latest[key] = (sub, sub.order)
    owners = dict(state.owners)
    events: list[str] = []
    done: set[tuple[str, str]] = set()
    for (power, partner_name), (sub, order) in latest.items():
        partner = variant.power(order.partner)
        problem = _exchange_problem(
            variant, state, power, order, partner.name if partner else None
        )
        if problem is not None:
            results.append(OrderResult(power, order, sub.text, Outcome.ILLEGAL, problem))
            continue
        other = latest.get((partner_name, power))
        reason: Reason | None = None
        if other is None:
            reason = Reason(Fate.EXCHANGE_NOT_ORDERED, power=partner_name)
        elif (set(other[1].give), set(other[1].receive)) != (set(order.receive), set(order.give)):
            reason = Reason(Fate.EXCHANGE_DIFFERENT, power=partner_name)
        else:
            other_partner = variant.power(other[1].partner)
            if _exchange_problem(
                variant, state, partner_name, other[1],
                other_partner.name if other_partner else None,
            ) is not None:
                reason = Reason(Fate.EXCHANGE_PARTNER_CANNOT, power=partner_name)
        if reason is not None:
            results.append(OrderResult(power, order, sub.text, Outcome.FAILS, reason))
            continue
        gives, gets = ", ".join(order.give), ", ".join(order.receive)
        results.append(
            OrderResult(power, order, sub.text, Outcome.SUCCEEDS,
                        Reason(Fate.EXCHANGES, power=power, other=partner_name,
                               names=tuple(order.give), more=tuple(order.receive)))
        )
        pair = (min(power, partner_name), max(power, partner_name))
        if pair in done:
            continue
        done.add(pair)
        for c in order.give:
            owners[c] = partner_name
        for c in order.receive:
            owners[c] = power
        events.append(
            f"{power} and {partner_name} exchange centres: {power} gives {gives} to "
            f"{partner_name}, {partner_name} gives {gets} to {power}."
        )
    return HookStep(state.evolve(owners=owners) if events else state, tuple(results),
                    tuple(events))


def before_phase(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    """Take the exchange orders out of the submitted ones: in a movement phase `exchanges`
    carries them out after the moves; in other phases they are void."""
    rest = [s for s in submitted if not isinstance(s.order, Exchange)]
    if state.phase.type is _M:
        return HookStep(state), rest
    void = tuple(
        OrderResult(s.power, s.order, s.text, Outcome.ILLEGAL,
                    Reason(Fate.EXCHANGE_NOT_IN_PHASE))
        for s in submitted
        if isinstance(s.order, Exchange)
    )
    return HookStep(state, void), rest


# -- rule 7: victory ---------------------------------------------------------------------------
def victory(
    variant: Variant, state: GameState, phase: Phase, ownership_updated: bool
) -> Verdict | None:
    """23 centres at an ownership update win at once (two powers with 23 share); after the
    December 1918 adjustments the power with the most units wins, tied powers share."""
    if ownership_updated:
        counts = centre_counts(state.owners, variant.map_for(state).centres)
        winners = tuple(sorted(p for p, n in counts.items() if n >= SOLO))
        if winners:
            return Verdict(winners)
    if phase.type is _A and phase.season == "December" and phase.year >= LAST_YEAR:
        units = Counter({p: n for p in variant.power_names if (n := unit_count(state, p))})
        if not units:
            return Verdict(())
        most = max(units.values())
        return Verdict(tuple(sorted(p for p, n in units.items() if n == most)))
    return None


# -- the variant -------------------------------------------------------------------------------
HELP = """\
Abstraction2 (Fred C. Davis Jr.)

The usual Diplomacy rules apply (the 2000 rulebook as the DATC's preferred options make it
precise), except:

1. The map. 118 spaces, 46 supply centres: 29 home centres and 17 neutral. No space has two
   coasts. Starting units:
     Austria: A Tyr, A Pec, A Vie, F Zar (the army for Budapest starts in Tyrolia)
     England: F Edi, F Lon, A Lvp, F Ply
     France:  F Bre, F Mar, A Lyo, A Par
     Germany: A Ber, A Dre, F Kie, A Mun
     Italy:   F Nap, A Rom, F Sic, A Ven
     Russia:  A Arc, A Mos, F Ode, F StP, A War
     Turkey:  A Con, F Dam, F Sin, A Smy
   Names of this map: Alg Algeria, And Andalucia, ANG Anglican Sea, Ara Arabia, Arc Archangel,
   ARO Arctic Ocean, AZO Azores, BoB Bay of Biscay, Cas Castile, Cat Catalonia, Cau Caucasus,
   Cic Cicilia, CMS Central Mediterranean, Cou Courland, Cro Croatia, CYS Cypriot Sea,
   Dam Damascus, DBS Deep Blue Sea, DMS Denmark Strait, Dre Dresden, EBS/WBS East/West Black
   Sea, Egy Egypt, HBS Hebrides Sea, Ice Iceland, Ire Ireland, Lap Lapland, Leo Leon,
   Lib Libya, Lor Lorraine, Lyo Lyon (the Gulf of Lyon is GoL), Mac Macedonia, MAS Malta Sea,
   Mes Mesopotamia, Mor Morocco, Obe Oberland, Ode Odessa, Pal Palestine, Pec Pecs,
   Per Persia, Ply Plymouth, RIG (or RIS) Riga Sea, SAO South Atlantic, Sar Sardinia,
   Sic Sicily, Sin Sinope, Swa Swabia, Tra Transylvania, Vol Volga, Zar Zara, Zur Zurich.

2. The calendar. Every move is a month: July 1914 is the first. March, June, September and
   December are adjustment months (no moves); the other months have moves and retreats.
   Centres change hands after the moves and retreats of August, November, February and May.
   Phases are written `October 1914, Movement` or `Oct1914M`. An adjustment month in which no
   power has anything to build or remove is passed over, as an empty Winter is. The game ends
   after the December 1918 adjustments (also when there is nothing to adjust then).

3. Army/Fleets (A/F): the rules as this judge reads them are at the end of this text.
   Examples: `A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por` (all in one phase);
   `A/F TYS disembarks Tun, A/F TYS - WMS`; `A/F ENG disembarks A(ENG)-Bre S by F(ENG)`; a
   Fast Ferry (a convoy over one sea by one fleet): `F ENG FF A Lon - Bre` or
   `F ENG C A Lon - Bre`. There is no limit on rations or on the number of A/Fs.

4. Direct passage. Naples-Sicily and Andalucia-Morocco are adjacent for armies and fleets
   (like Denmark-Sweden); fleets still pass CMS-TYS and SAO-WMS. Armies pass Egypt-Arabia.
   Lorraine and Swabia are not adjacent.

5. Frozen regions. In the moves of January, February and April, ARO, BAR, Archangel, Lapland
   and Iceland are frozen: a fleet (or A/F) there may only hold; it cannot support, convoy or
   be dislodged. An army in Lapland or Archangel cannot be dislodged; it may move out over
   land, not by convoy (no Fast Ferry, and it may not board a fleet). An attack on a unit
   that cannot be dislodged fails, but still stands off other attacks there and cuts a
   support given from there. Fleets may enter a frozen space (and must then stand there);
   armies in Iceland follow the usual rules. Retreats after frozen moves follow the usual
   rules. Archangel is a Russian home centre on the coast: Russia may build an army or a
   fleet there, in March as in any adjustment month.

6. Exchange of centres. In a movement phase two powers may swap centres: each orders
   `Exchange Bel Den for Hol Kie with Germany` (what it gives, then what it receives). Both
   lists must match and be equally long; a power cannot give a centre it does not own or
   still occupies with a unit after the moves. The exchange happens at the end of that
   movement phase; the report says so. A power's last exchange order with a partner counts.

7. Victory. A power owning 23 centres at an ownership update wins at once (two powers with
   23 each share the win). Otherwise, after the December 1918 adjustments the power with the
   most units on the board wins; powers tied for the most units share the victory. An A/F
   counts as two units (its army and its fleet), as it does for builds and removals.

"""


def rules() -> HookSet:
    """Abstraction2's special rules, the hook set its file (abstraction2.toml) names: rule 3
    A/F, rule 6 exchanges, rule 7 victory, with the rules text; rule 5's frozen regions are
    the file's `[frozen]`."""
    return HookSet(
        hooks=Hooks(
            before_phase=before_phase,
            resolve_retreats=resolve_retreats_af,
            resolve_adjustments=resolve_adjustments_af,
            after_movement=exchanges,
            victory=victory,
            on_arrival=exchange_on_arrival,
        ),
        order_kinds=frozenset({OrderKind.ARMY_FLEET, OrderKind.EXCHANGE}),
        help=HELP + AF_HELP,
    )



__all__ = ["calendar", "exchanges", "frozen_rules", "rules"]
