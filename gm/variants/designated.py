"""Designated homes (Chaos II rules 4, 5 and 7), the option `builds = "designated"` of a
variant file: in a Winter a power may make a centre it owned at the end of the previous Winter
and still owns a home centre (`Home Bel`), at most two such designations in the game (a lost
one is not refunded; its starting homes are free); a home occupied by a foreign unit at the end
of a movement phase or its retreats loses its status (a starting home only in an Autumn), and
a centre that lost it must be owned during two new Winters before it is designated again.
Builds are made in the vacant owned homes (the standard build sites).

State in GameState.extra (the keys PRESTATE_STATE / POSTSTATE_STATE use):

- `winter-owner <Centre>: <Power>`: who owned the centre at the end of the last Winter;
- `designated <Power>: <Centre> <Centre>`: the centres the power has used a designation on;
- `lost <Power>: <Centre> ...`: homes lost since the last Winter (cleared after each Winter);
- `new-homes <Power>: <Centre> ...`: designations accepted this Winter, homes after its builds;
- `alliance: <Power>, <Power>, ...`: Chaos II's alliance (written by the chaos2 hook set).

A power's homes now are GameState.homes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from gm.engine.frozen import replace
from gm.engine.orders import DesignateHome
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Fate, Reason, Void
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import (
    AdjustmentNeeded,
    BeforePhase,
    EndOfPhase,
    Hooks,
    HookStep,
    OptionalOrders,
    Variant,
)

DESIGNATIONS = 2  # Chaos II rule 4: "two conquered supply centers"

WINTER_OWNER = "winter-owner "
DESIGNATED = "designated "
LOST = "lost "
NEW_HOMES = "new-homes "
ALLIANCE = "alliance"


def canonical_state(variant: Variant, state: GameState) -> GameState:
    """The state with its Chaos II keys written canonically (a scenario's PRESTATE_STATE may
    write `winter-owner bel: V` for `winter-owner Bel: Paris`); other keys are kept."""
    gmap = variant.map

    def centre(word: str) -> str:
        return gmap.lookup(word) or word

    def power(word: str) -> str:
        found = variant.power(word)
        return found.name if found is not None else word

    extra: dict[str, str] = {}
    for key, value in state.extra.items():
        words = key.split(None, 1)
        kind = words[0].lower() + " " if len(words) == 2 else key
        if kind == WINTER_OWNER:
            extra[WINTER_OWNER + centre(words[1])] = power(value)
        elif kind in (DESIGNATED, LOST, NEW_HOMES):
            extra[kind + power(words[1])] = " ".join(centre(w) for w in value.split())
        elif key.strip().lower() == ALLIANCE:
            extra[ALLIANCE] = ", ".join(power(w.strip()) for w in value.split(","))
        else:
            extra[key] = value
    return state if extra == dict(state.extra) else state.evolve(extra=extra)


def _words(state: GameState, key: str) -> list[str]:
    return state.extra.get(key, "").split()


def _set_words(extra: dict[str, str], key: str, words: Sequence[str]) -> None:
    if words:
        extra[key] = " ".join(words)
    else:
        extra.pop(key, None)


def _started(variant: Variant, power: str, centre: str) -> bool:
    """Is `centre` a starting home of `power` (Chaos II: its starting centre)?"""
    return centre in variant.homes.get(power, ())


def may_designate(variant: Variant, state: GameState, power: str, centre: str,
                  centres: frozenset[str]) -> Reason | None:
    """Why `power` may not make `centre` a home now (None if it may), RULINGS "Chaos II"."""
    if centre not in centres:
        return Reason(Void.NOT_A_CENTRE, province=centre)
    if centre in state.homes.get(power, ()) or centre in _words(state, NEW_HOMES + power):
        return Reason(Void.ALREADY_HOME, province=centre, power=power)
    if state.owners.get(centre) != power:
        return Reason(Void.NOT_OWNED, power=power, province=centre)
    if state.extra.get(WINTER_OWNER + centre) != power:
        return Reason(Void.NOT_OWNED_LAST_WINTER, power=power, province=centre)
    if centre in _words(state, LOST + power):
        return Reason(Void.HOME_STATUS_LOST, province=centre)
    free = _started(variant, power, centre) or centre in _words(state, DESIGNATED + power)
    if not free and len(_words(state, DESIGNATED + power)) >= DESIGNATIONS:
        return Reason(Void.HOMES_USED, power=power)
    return None


def _designation_possible(variant: Variant, state: GameState, power: str,
                          centres: frozenset[str]) -> bool:
    return any(
        may_designate(variant, state, power, c, centres) is None
        for c in state.centres_of(power)
    )


def winter_orders(
    variant: Variant, state: GameState, submitted: Sequence[Submitted], kind: type,
    void: Reason, carry_out: Callable[[Variant, GameState, Sequence[Submitted]], HookStep],
) -> tuple[HookStep, Sequence[Submitted]]:
    """Take the orders of `kind` out of `submitted`: carried out (`carry_out`) in a Winter,
    void with the reason `void` in any other phase (Chaos II rules 4 and 6)."""
    state = canonical_state(variant, state)
    own = [s for s in submitted if isinstance(s.order, kind)]
    if not own:
        return HookStep(state), submitted
    rest = [s for s in submitted if not isinstance(s.order, kind)]
    if state.phase.type is not PhaseType.ADJUSTMENT:
        results = tuple(OrderResult(s.power, s.order, s.text, Outcome.ILLEGAL, void)
                        for s in own)
        return HookStep(state, results), rest
    return carry_out(variant, state, own), rest


def before_phase(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    """Take the Home orders out: carried out in a Winter, void otherwise."""
    return winter_orders(variant, state, submitted, DesignateHome,
                         Reason(Void.HOME_NOT_IN_WINTER), _designate)


def _designate(variant: Variant, state: GameState, orders: Sequence[Submitted]) -> HookStep:
    """Rules 4, 5 and 7: each Home order in the order given."""
    centres = variant.map_for(state).centres
    results, events = [], []
    for sub in orders:
        assert isinstance(sub.order, DesignateHome)
        power, centre = sub.power, sub.order.province
        why = may_designate(variant, state, power, centre, centres)
        if why is not None:
            results.append(OrderResult(power, sub.order, sub.text, Outcome.ILLEGAL, why))
            continue
        extra = dict(state.extra)
        used = _words(state, DESIGNATED + power)
        if _started(variant, power, centre):
            reason = Reason(Fate.HOME_AGAIN_START, province=centre, power=power)
        elif centre in used:
            reason = Reason(Fate.HOME_AGAIN, province=centre, power=power)
        else:
            used.append(centre)
            _set_words(extra, DESIGNATED + power, used)
            left = DESIGNATIONS - len(used)
            reason = Reason(Fate.BECOMES_HOME, province=centre, power=power, count=left)
        _set_words(extra, NEW_HOMES + power, [*_words(state, NEW_HOMES + power), centre])
        state = state.evolve(extra=extra)
        results.append(OrderResult(power, sub.order, sub.text, Outcome.SUCCEEDS, reason))
        events.append(f"{centre} becomes a home centre of {power} after this Winter's builds.")
    return HookStep(state, tuple(results), tuple(events))


def end_of_phase(variant: Variant, state: GameState, phase: Phase) -> HookStep:
    """After a Winter: the Winter's designations become homes, the owners are recorded and the
    `lost` marks cleared (rule 4). After moves and retreats: homes occupied by a foreign unit
    lose their status (rules 5 and 7)."""
    state = canonical_state(variant, state)
    if phase.type is PhaseType.ADJUSTMENT:
        homes = dict(state.homes)
        for key, value in state.extra.items():
            if key.startswith(NEW_HOMES):
                power = key[len(NEW_HOMES):]
                homes[power] = tuple(sorted({*homes.get(power, ()), *value.split()}))
        extra = {k: v for k, v in state.extra.items()
                 if not k.startswith((WINTER_OWNER, LOST, NEW_HOMES))}
        centres = variant.map_for(state).centres
        for centre, power in state.owners.items():
            if centre in centres:
                extra[WINTER_OWNER + centre] = power
        return HookStep(state.evolve(homes=homes, extra=extra))
    return _lose_homes(variant, state, phase)


def _lose_homes(variant: Variant, state: GameState, phase: Phase) -> HookStep:
    """Rule 5: a designated home occupied by a foreign unit loses its status at the end of any
    movement phase (or of its retreats); rule 7: the starting centre only in Autumn."""
    home_of: dict[str, list[str]] = {}
    for power, centres in state.homes.items():
        for centre in centres:
            home_of.setdefault(centre, []).append(power)
    occupied = [u for u in state.units if u.location.province in home_of]
    if not occupied:
        return HookStep(state)
    autumn = variant.calendar.season_of(phase).updates_ownership
    lost: list[tuple[str, str, str]] = []
    for unit in occupied:
        for owner in home_of[unit.province]:
            if owner == unit.power or (_started(variant, owner, unit.province) and not autumn):
                continue
            lost.append((owner, unit.province, unit.power))
    if not lost:
        return HookStep(state)
    homes = dict(state.homes)
    extra = dict(state.extra)
    events = []
    for owner, centre, by in sorted(lost):
        homes[owner] = tuple(c for c in homes[owner] if c != centre)
        marks = extra.get(LOST + owner, "").split()
        _set_words(extra, LOST + owner, sorted({*marks, centre}))
        events.append(f"{centre} is no longer a home centre of {owner}: a unit of {by} "
                      "occupies it (Chaos II rule " + ("7)." if _started(variant, owner, centre)
                                                        else "5)."))
    return HookStep(state.evolve(homes=homes, extra=extra), events=tuple(events))


def adjustment_needed(variant: Variant, state: GameState) -> bool:
    """A Winter is played if a power builds or removes, or could designate a home (rule 4)."""
    state = canonical_state(variant, state)
    centres = variant.map_for(state).centres
    return adjusts(state, centres) or any(
        _designation_possible(variant, state, p, centres) for p in variant.power_names)


def optional_orders(variant: Variant, state: GameState) -> dict[str, tuple[str, ...]]:
    """In a Winter: the designations each power may make (rule 4)."""
    if state.phase.type is not PhaseType.ADJUSTMENT:
        return {}
    state = canonical_state(variant, state)
    centres = variant.map_for(state).centres
    may: dict[str, tuple[str, ...]] = {}
    for power in variant.power_names:
        homes = tuple(f"Home {c}" for c in state.centres_of(power)
                      if may_designate(variant, state, power, c, centres) is None)
        if homes:
            may[power] = homes
    return may


def adjusts(state: GameState, centres: frozenset[str]) -> bool:
    """Does a power remove, or build with a vacant owned home to build in? (The standard test,
    gm.engine.game.orders_needed, counted once for all powers.)"""
    owned = Counter(p for c, p in state.owners.items() if c in centres)
    units = Counter(u.power for u in state.units)
    if any(units[p] > owned[p] for p in units):
        return True
    occupied = {u.location.province for u in state.units}
    return any(
        any(c not in occupied and state.owners.get(c) == p for c in state.homes.get(p, ()))
        for p, n in owned.items() if n > units[p]
    )


def with_designated_homes(hooks: Hooks) -> Hooks:
    """`hooks` with designated homes played first: Home orders before the set's own orders,
    the Winter's bookkeeping before its end of phase, a Winter needed if either needs it, the
    designations offered before the set's own optional orders."""
    return replace(
        hooks,
        before_phase=_then(before_phase, hooks.before_phase),
        end_of_phase=_then_end(end_of_phase, hooks.end_of_phase),
        adjustment_needed=_either(adjustment_needed, hooks.adjustment_needed),
        optional_orders=_merged(optional_orders, hooks.optional_orders),
    )


def _then(first: BeforePhase, then: BeforePhase | None) -> BeforePhase:
    if then is None:
        return first

    def both(variant: Variant, state: GameState, submitted: Sequence[Submitted]
             ) -> tuple[HookStep, Sequence[Submitted]]:
        step, rest = first(variant, state, submitted)
        step2, rest = then(variant, step.state, rest)
        return HookStep(step2.state, step.results + step2.results,
                        step.events + step2.events), rest

    return both


def _then_end(first: EndOfPhase, then: EndOfPhase | None) -> EndOfPhase:
    if then is None:
        return first

    def both(variant: Variant, state: GameState, phase: Phase) -> HookStep:
        step = first(variant, state, phase)
        step2 = then(variant, step.state, phase)
        return HookStep(step2.state, step.results + step2.results, step.events + step2.events)

    return both


def _either(first: AdjustmentNeeded, other: AdjustmentNeeded | None) -> AdjustmentNeeded:
    if other is None:
        return first

    def needed(variant: Variant, state: GameState) -> bool:
        return first(variant, state) or other(variant, state)

    return needed


def _merged(first: OptionalOrders, other: OptionalOrders | None) -> OptionalOrders:
    if other is None:
        return first

    def merged(variant: Variant, state: GameState) -> Mapping[str, tuple[str, ...]]:
        mine, theirs = first(variant, state), other(variant, state)
        return {p: (*mine.get(p, ()), *theirs.get(p, ())) for p in variant.power_names
                if p in mine or p in theirs}

    return merged
