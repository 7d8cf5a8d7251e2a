"""The phase cycle: resolve one phase, then everything up to the next phase that needs orders.

`advance` adjudicates the current phase with the adjudicator for its type, then walks the
calendar: dislodged units with nowhere to go are destroyed; retreat phases without dislodged units
and adjustment phases where nobody builds or removes are skipped (their end-of-phase work still
happens); at the end of a season its scheduled events apply and, in an ownership season (standard:
Fall, after its retreats), every unit standing in a centre takes it; powers left with no units and
no centres are eliminated; the victory rule is checked. The variant's hooks run at their points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gm.engine.adjustments import resolve_adjustments
from gm.engine.army_fleet.legality import retreat_places_af
from gm.engine.movement import resolve_movement
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import NOTHING
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.retreats import resolve_retreats, retreat_options
from gm.engine.state import GameState
from gm.engine.units import NEUTRAL, Unit, UnitType
from gm.engine.variant import HookStep, Variant, Verdict
from gm.engine.victory import centre_victory

# Enum members as module constants (an enum class attribute costs a lookup each time).
_ADJUSTMENT = PhaseType.ADJUSTMENT
_MOVEMENT = PhaseType.MOVEMENT
_RETREAT = PhaseType.RETREAT
_ARMY_FLEET = UnitType.ARMY_FLEET


@dataclass(frozen=True)
class PhaseReport:
    """One phase passed through: its results (empty when skipped) and what happened, in words."""

    phase: Phase
    played: bool
    results: tuple[OrderResult, ...] = ()
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameStep:
    """The result of `advance`: the position at the next phase needing orders (or the final
    position, `state.finished`), a report per phase passed through, and all events in order."""

    state: GameState
    reports: tuple[PhaseReport, ...]

    @property
    def results(self) -> tuple[OrderResult, ...]:
        return tuple(r for rep in self.reports for r in rep.results)

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(e for rep in self.reports for e in rep.events)


@dataclass(frozen=True)
class Needed:
    """What one power must order in the current phase.

    Movement: `units` (all its units). Retreat: `units` (its dislodged units). Adjustment:
    `builds` (surplus of centres over units) with the vacant `build_sites`, or `removals`.
    `may`: the variant's own orders the power may give but need not (`Home Bel`).
    """

    power: str
    units: tuple[Unit, ...] = ()
    builds: int = 0
    removals: int = 0
    build_sites: tuple[str, ...] = ()
    may: tuple[str, ...] = ()

    @property
    def only_optional(self) -> bool:
        """Nothing is owed, only the variant's optional orders are open to the power."""
        return bool(self.may) and not (self.units or self.builds or self.removals)


class GameOver(ValueError):
    """`advance` was called on a finished game."""


# -- public API --------------------------------------------------------------------------------
def start_state(variant: Variant) -> GameState:
    """The position before the variant's first phase."""
    return variant.start_state()


def advance(variant: Variant, state: GameState, submitted: Sequence[Submitted]) -> GameStep:
    """Resolve `state.phase` with `submitted`, then everything until a phase needs orders."""
    if state.finished:
        raise GameOver(f"the game is over ({variant.format_phase(state.phase)})")
    reports = []
    alive_before = alive_powers(state)
    current, report = _play(variant, state, submitted)
    while True:
        phase = current.phase
        current, events, alive_before = _end_of_phase(variant, current, phase, alive_before)
        reports.append(
            PhaseReport(report.phase, report.played, report.results, report.events + events)
        )
        current = current.evolve(phase=variant.calendar.next(phase))
        if current.finished or phase_needs_orders(variant, current):
            return GameStep(current, tuple(reports))
        report = PhaseReport(current.phase, played=False)


def phase_results(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[OrderResult, ...]:
    """The results of `state.phase` alone with `submitted`, as `advance` gives them for it (no
    later phase is played): what adjudication will say of each order, for its acknowledgement."""
    return _play(variant, state, submitted)[1].results


def orders_needed(variant: Variant, state: GameState) -> dict[str, Needed]:
    """Who must order what in `state.phase` (powers with nothing to order are left out)."""
    if state.finished:
        return {}
    needed: dict[str, Needed] = {}
    ptype = state.phase.type
    counts = adjustment_counts(variant, state) if ptype is _ADJUSTMENT else {}
    for power in variant.power_names:
        if ptype is _MOVEMENT:
            units = tuple(sorted(state.units_of(power)))
            if units:
                needed[power] = Needed(power, units=units)
        elif ptype is _RETREAT:
            units = tuple(sorted(d.unit for d in state.dislodged if d.unit.power == power))
            if units:
                needed[power] = Needed(power, units=units)
        else:
            n = counts[power]
            if n < 0:
                needed[power] = Needed(power, removals=-n)
            elif n > 0:
                sites = vacant_build_sites(variant, state, power)
                if sites:
                    needed[power] = Needed(power, builds=n, build_sites=sites)
    if variant.hooks.optional_orders is not None:
        for power, may in variant.hooks.optional_orders(variant, state).items():
            if may:
                had = needed.get(power, Needed(power))
                needed[power] = Needed(
                    power, had.units, had.builds, had.removals, had.build_sites, may
                )
    return needed


def phase_needs_orders(variant: Variant, state: GameState) -> bool:
    """Is `state.phase` played? Movement always; retreats if a unit is dislodged; adjustments if
    a power must remove or can build (or the variant says so)."""
    if state.finished:
        return False
    ptype = state.phase.type
    if ptype is _MOVEMENT:
        return True
    if ptype is _RETREAT:
        return bool(state.dislodged)
    if variant.hooks.adjustment_needed is not None:
        return variant.hooks.adjustment_needed(variant, state)
    return bool(orders_needed(variant, state))


# -- the position's derived facts --------------------------------------------------------------
def alive_powers(state: GameState) -> frozenset[str]:
    """Powers with a unit (dislodged or not) or a centre."""
    powers = {u.power for u in state.units}
    powers.update([d.unit.power for d in state.dislodged])
    powers.update(state.owners.values())
    powers.discard(NEUTRAL)  # a neutral garrison is no power
    return frozenset(powers)


def eliminated(variant: Variant, state: GameState) -> tuple[str, ...]:
    """The variant's powers with no units and no centres."""
    alive = alive_powers(state)
    return tuple(p for p in variant.power_names if p not in alive)


def adjustment_counts(variant: Variant, state: GameState) -> dict[str, int]:
    """Centres owned minus units, per power: builds if positive, removals if negative."""
    centres = variant.map_for(state).centres
    # One pass over centres and units (as adjustment_delta for each power).
    counts = dict.fromkeys(variant.power_names, 0)
    for centre, owner in state.owners.items():
        if owner in counts and centre in centres:
            counts[owner] += 1
    for unit in state.units:
        if unit.power in counts:
            # An A/F is two units, its army and its fleet (A/F rules, gm.engine.army_fleet).
            counts[unit.power] -= 2 if unit.type is _ARMY_FLEET else 1
    return counts


def build_sites(variant: Variant, state: GameState, power: str) -> frozenset[str]:
    """Where `power` may build if the place is vacant: its owned home centres (rulebook), or
    what the variant's `build_sites` hook says."""
    if variant.hooks.build_sites is not None:
        return variant.hooks.build_sites(variant, state, power)
    centres = variant.map_for(state).centres
    return frozenset(
        c for c in state.homes.get(power, ()) if c in centres and state.owners.get(c) == power
    )


def vacant_build_sites(variant: Variant, state: GameState, power: str) -> tuple[str, ...]:
    occupied = {u.location.province for u in state.units}
    return tuple(sorted(build_sites(variant, state, power) - occupied))


# -- the cycle ---------------------------------------------------------------------------------
def _play(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[GameState, PhaseReport]:
    """Adjudicate the current phase with the variant's hooks around it."""
    hooks = variant.hooks
    phase = state.phase
    results: list[OrderResult] = []
    events: list[str] = []

    def absorb(step: HookStep) -> GameState:
        results.extend(step.results)
        events.extend(step.events)
        return step.state

    as_submitted = submitted
    if hooks.before_phase is not None:
        step, submitted = hooks.before_phase(variant, state, submitted)
        state = absorb(step)
    gmap = variant.map_for(state)
    if phase.type is _MOVEMENT:
        outcome = (hooks.resolve_movement or resolve_movement)(gmap, state, submitted)
        state = absorb(_as_step(outcome))
        if hooks.after_movement is not None:
            state = absorb(hooks.after_movement(variant, state, as_submitted))
        state = absorb(_destroy_unretreatable(variant, state))
    elif phase.type is _RETREAT:
        outcome = (hooks.resolve_retreats or resolve_retreats)(gmap, state, submitted)
        state = absorb(_as_step(outcome)).evolve(dislodged=(), contested=frozenset())
    else:
        sites: Mapping[str, frozenset[str]] = {
            p: build_sites(variant, state, p) for p in variant.power_names
        }
        resolver = hooks.resolve_adjustments or resolve_adjustments
        if variant.build_only:  # a build of the other kind at such a site is refused first
            kept = [s for s in submitted if variant.build_refused(s.order) is None]
            results.extend(
                OrderResult(s.power, s.order, s.text, Outcome.ILLEGAL,
                            variant.build_refused(s.order) or NOTHING)
                for s in submitted if variant.build_refused(s.order) is not None)
            submitted = kept
        state = absorb(_as_step(resolver(gmap, state, submitted, sites)))
    return state, PhaseReport(phase, True, tuple(results), tuple(events))


def _as_step(outcome: PhaseOutcome) -> HookStep:
    return HookStep(outcome.state, outcome.results, outcome.events)


def _destroy_unretreatable(variant: Variant, state: GameState) -> HookStep:
    """Dislodged units with no place to retreat to, and neutral garrisons (which never
    retreat), are destroyed at once (no retreat phase is needed for them)."""
    gmap = variant.map_for(state)
    options = retreat_places_af if variant.army_fleet else retreat_options  # A/F: onto a fleet
    keep, events = [], []
    for d in state.dislodged:
        if d.unit.power == NEUTRAL:
            events.append(f"The neutral {d.unit} is destroyed: a neutral unit does not "
                          "retreat.")
        elif options(gmap, state, d):
            keep.append(d)
        else:
            events.append(f"{d.unit.power} {d.unit} is destroyed: it has nowhere to retreat.")
    if not events:
        return HookStep(state)
    return HookStep(state.evolve(dislodged=tuple(keep)), events=tuple(events))


def _end_of_phase(
    variant: Variant, state: GameState, phase: Phase, alive_before: frozenset[str]
) -> tuple[GameState, tuple[str, ...], frozenset[str]]:
    """Everything that happens after `phase` (played or skipped), before the next phase; and
    the powers alive after it."""
    hooks = variant.hooks
    events: list[str] = []
    if hooks.end_of_phase is not None:
        step = hooks.end_of_phase(variant, state, phase)
        state = step.state
        events.extend(step.events)
    ownership_updated = False
    if variant.calendar.is_last_of_season(phase):
        due = variant.scheduled_for(phase)
        if due and hooks.apply_scheduled is not None:
            step = hooks.apply_scheduled(variant, state, due)
            state = step.state
            events.extend(step.events)
        if variant.calendar.season_of(phase).updates_ownership:
            state, changes = update_ownership(state, variant.map_for(state).centres)
            events.extend(changes)
            ownership_updated = True
    alive = alive_powers(state)  # the victory check changes no unit or centre
    for power in sorted(alive_before - alive):
        events.append(f"{power} is eliminated.")
    verdict = _victory(variant, state, phase, ownership_updated)
    if verdict is not None:
        state = state.evolve(winners=verdict.winners, finished=verdict.finished)
        if verdict.winners:
            events.append(f"{_and(verdict.winners)} won the game.")
        elif verdict.finished and not verdict.events:
            events.append("The game is over; nobody won.")
        events.extend(verdict.events)
    return state, tuple(events), alive


def _and(names: Sequence[str]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def update_ownership(state: GameState, centres: frozenset[str]) -> tuple[GameState, list[str]]:
    """Every unit standing in a supply centre takes it for its power (rulebook)."""
    old = state.owners
    # Only units in a centre can take one; they are sorted only if one does (events in unit
    # order).
    # a neutral garrison takes no centre: the centre stays as it was
    in_centres = [u for u in state.units
                  if u.location.province in centres and u.power != NEUTRAL]
    if all(old.get(u.location.province) == u.power for u in in_centres):
        return state, []
    owners = dict(old)
    events = []
    for unit in sorted(in_centres):
        prov = unit.province
        if owners.get(prov) != unit.power:
            before = owners.get(prov)
            owners[prov] = unit.power
            events.append(
                f"{unit.power} takes {prov}" + (f" from {before}." if before else ".")
            )
    return state.evolve(owners=owners), events


def _victory(
    variant: Variant, state: GameState, phase: Phase, ownership_updated: bool
) -> Verdict | None:
    rule = variant.hooks.victory or centre_victory
    return rule(variant, state, phase, ownership_updated)
