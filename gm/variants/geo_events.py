"""Geophysical Diplomacy: the terrain events of a movement phase, adjudicated before movement.

Geophysical rule 4: events are adjudicated before movement, then units left in illegal positions
are destroyed. The steps (RULINGS: Geophysical):

1. Each power's orders are checked: one event (rule 1a: `Erode Mos`, a support of another power's
   event, or in Spring a new centre, rule 7), the last one given counting; stabilisations up to
   the number of centres it owns (rule 1b), counted in the order given; of a count beyond
   what is left of the allowance, the part it covers counts and the rest is refused.
2. A support counts only if the named power ordered exactly that event (rule 3).
3. An event succeeds if its strength (1 + supports) exceeds the stabilisations of its target
   (rule 3). Successful elevation events on one space add up (rule 6): sea or lake 0, land 1,
   mountain 2; eroded land becomes a lake if no sea borders it, else sea.
4. Earthquakes toggle a border (cut, or reopen a cut one, rule 2d); ice advances and retreats
   (rule 2e); new centres appear (rule 7). Centres under water or on a mountain are downgraded.
5. Units where they cannot be are destroyed (rule 4); fleets follow their coasts as they are
   recomputed (rule 9); an army starting a second movement phase on the same ice is destroyed
   (rule 8, tracked in `GameState.extra` as `ice-turns A BAR: 1`).
6. The remaining unit orders are read again against the new map (rule 9: a coast that became
   ambiguous must be named); orders of destroyed units, and moves of engulfed fleets, are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gm.engine.errors import OrderError
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap
from gm.engine.orders import (
    CreateCentre,
    GeoEvent,
    GeoKind,
    GeoTarget,
    Hold,
    Move,
    Order,
    Stabilize,
    SupportEvent,
    UnitSpec,
)
from gm.engine.phase import PhaseType
from gm.engine.reasons import Fate, Reason, Void
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.topology import border_key
from gm.engine.units import Unit, UnitType
from gm.engine.variant import HookStep, OnArrival, Variant
from gm.notation import parse_order
from gm.variants.terrain_schedule import with_article

GEO_ORDERS = (GeoEvent, SupportEvent, CreateCentre, Stabilize)
EventOrder = GeoEvent | SupportEvent | CreateCentre
ICE_KEY = "ice-turns"
ELEVATION = {Terrain.SEA: 0, Terrain.LAKE: 0, Terrain.LAND: 1, Terrain.MOUNTAIN: 2}
DELTA = {GeoKind.UPLIFT: 1, GeoKind.ERODE: -1, GeoKind.OROGENESIS: 1}


# -- names -------------------------------------------------------------------------------------
def display_name(province: str, gmap: GameMap) -> str:
    """Rule 9: a space keeps its name, in capitals while it is water (`BUR`), else in title case
    (`Bur`, `Nth`, `StP`)."""
    if province not in gmap.terrain:
        return province
    if gmap.is_water(province):
        return province.upper()
    return province.capitalize() if province.isupper() else province


def display_location(loc: Location, gmap: GameMap) -> str:
    name = display_name(loc.province, gmap)
    return name if loc.coast is None else f"{name}/{loc.coast}"


def display_unit(unit: Unit, gmap: GameMap) -> str:
    return f"{unit.type.value} {display_location(unit.location, gmap)}"


def display_text(text: str, gmap: GameMap) -> str:
    """An order as rule 9 writes it: each province abbreviation (`Bur`, `NTH`, `StP/nc`, also in
    `A(Bel)`) in capitals while water, else in title case; `Ice advance` stays a keyword."""
    words = text.split(" ")
    out = []
    for i, word in enumerate(words):
        keyword = word == "Ice" and i + 1 < len(words) and words[i + 1] in ("advance", "retreat")
        out.append(word if keyword else _PLACE.sub(lambda m: _shown_place(m, gmap), word))
    return " ".join(out)


_PLACE = re.compile(r"(?<![A-Za-z])([A-Za-z]{3})(?=$|[/)\-,.;:])")


def _shown_place(match: re.Match[str], gmap: GameMap) -> str:
    word = match.group(1)
    return display_name(word, gmap) if word in gmap.terrain else word


def ice_key(unit: Unit) -> str:
    """The `extra` key counting the movement phases an army started on this ice."""
    return f"{ICE_KEY} {unit.type.value} {unit.location.province}"


def _ice_counts(state: GameState, gmap: GameMap) -> dict[str, str]:
    """The ice counters in `state.extra`, their province written canonically."""
    out: dict[str, str] = {}
    for key, value in state.extra.items():
        words = key.split()
        if len(words) == 3 and words[0] == ICE_KEY:
            prov = gmap.lookup(words[2]) or words[2]
            out[f"{ICE_KEY} {words[1].upper()} {prov}"] = value
    return out


# -- checking one order --------------------------------------------------------------------------
def _on_board(gmap: GameMap, province: str) -> Reason | None:
    """Why `province` cannot take part in events, or None."""
    if gmap.terrain[province] is Terrain.IMPASSABLE:
        return Reason(Fate.OFF_THE_BOARD, province=gmap.provinces[province].name)
    return None


def _target_problem(gmap: GameMap, target: GeoTarget) -> Reason | None:
    """Why a space or border cannot be the target of events or stabilisations, or None."""
    for p in (target.province, target.other):
        if p is None:
            continue
        if p not in gmap.terrain:
            return Reason(Fate.NO_SUCH_SPACE, province=p)
        problem = _on_board(gmap, p)
        if problem:
            return problem
    if target.other is not None and not gmap.adjacent(target.province, target.other):
        return Reason(Fate.NO_SHARED_BORDER, province=target.province, other=target.other)
    return None


def _polar_reach(gmap: GameMap, province: str) -> bool:
    """Rule 2e: does `province` border the polar ice or an iced space?"""
    return province in gmap.polar or any(q in gmap.iced for q in gmap.borders[province])


def _surrounded(gmap: GameMap, province: str) -> bool:
    """Rule 2e: is every neighbour of `province` iced? The polar edge counts as ice; the other
    board edges and spaces off the board (Ireland) are ignored."""
    return all(q in gmap.iced for q in gmap.borders[province]
               if gmap.terrain[q] is not Terrain.IMPASSABLE)


def check_event(gmap: GameMap, event: GeoEvent) -> Reason | None:
    """Why `event` cannot be ordered on this map (rule 2), or None."""
    target = event.target
    problem = _target_problem(gmap, target)
    if problem:
        return problem
    kind = event.kind
    if kind is GeoKind.EARTHQUAKE:
        if target.other is None:
            return Reason(Fate.EARTHQUAKE_ON_A_SPACE)
        return None
    if target.other is not None:
        return Reason(Fate.EVENT_ON_A_BORDER, other=kind.value)
    p = target.province
    terrain = gmap.terrain[p]
    name = display_name(p, gmap)
    if kind is GeoKind.UPLIFT and not terrain.is_water:
        return Reason(Fate.UPLIFT_NOT_WATER, province=name, other=terrain.value)
    if kind is GeoKind.ERODE and terrain not in (Terrain.LAND, Terrain.MOUNTAIN):
        return Reason(Fate.ERODE_NOT_LAND, province=name, other=terrain.value)
    if kind is GeoKind.OROGENESIS and terrain is not Terrain.LAND:
        return Reason(Fate.OROGENESIS_NOT_LAND, province=name, other=terrain.value)
    if kind is GeoKind.ICE_ADVANCE:
        if p in gmap.iced:
            return Reason(Fate.ALREADY_ICED, province=name)
        if not _polar_reach(gmap, p):
            return Reason(Fate.ICE_OUT_OF_REACH, province=name)
    if kind is GeoKind.ICE_RETREAT:
        if p not in gmap.iced:
            return Reason(Fate.NOT_ICED, province=name)
        if _surrounded(gmap, p):
            return Reason(Fate.ICE_SURROUNDED, province=name)
    return None


def event_on_arrival(variant: Variant, state: GameState, power: str,
                     order: object) -> OnArrival | None:
    """Taking orders (the `on_arrival` hook): an event the map as it is now rules out (rule
    2), refused; None for anything else (the trial adjudication judges it)."""
    if not isinstance(order, GeoEvent):
        return None
    why = check_event(variant.map_for(state), order)
    return None if why is None else OnArrival(why)


# -- the phase's event orders ------------------------------------------------------------------
@dataclass
class _Power:
    """One power's accepted event order and stabilisations."""

    event: tuple[Submitted, EventOrder] | None = None
    stabilised: list[tuple[Submitted, Stabilize]] = field(default_factory=list)


@dataclass
class _Tally:
    """What the orders add up to, and the results so far."""

    powers: dict[str, _Power] = field(default_factory=dict)
    results: list[OrderResult] = field(default_factory=list)
    # Stabilisations cut down to the allowance (rule 1b), by id of the Submitted: what to say.
    trimmed: dict[int, Reason] = field(default_factory=dict)

    def refuse(self, sub: Submitted, reason: Reason) -> None:
        """`sub` is void, for `reason`."""
        self.results.append(OrderResult(sub.power, sub.order, sub.text, Outcome.ILLEGAL, reason))


def _collect(variant: Variant, state: GameState, gmap: GameMap,
             orders: Sequence[Submitted]) -> _Tally:
    """Rules 1, 2, 7: the event and stabilisations each power may order, checked."""
    tally = _Tally()
    spring = state.phase.season == "Spring"
    for sub in orders:
        order = sub.order
        mine = tally.powers.setdefault(sub.power, _Power())
        if isinstance(order, Stabilize):
            problem = _target_problem(gmap, order.target)
            owned = sum(1 for c in state.centres_of(sub.power) if c in gmap.centres)
            used = sum(s.count for _, s in mine.stabilised)
            if problem:
                tally.refuse(sub, problem)
            elif order.count < 1:
                tally.refuse(sub, Reason(Fate.STABILISE_NONE))
            elif used >= owned:
                tally.refuse(sub, Reason(Fate.STABILISE_ALLOWANCE, power=sub.power, count=owned,
                                         other=str(used)))
            elif used + order.count > owned:
                # Rule 1b gives one stabilisation per centre owned and rule 3 allows several
                # on one space: what the allowance covers counts, the rest is refused.
                kept = owned - used
                mine.stabilised.append((sub, Stabilize(order.target, kept)))
                tally.trimmed[id(sub)] = Reason(
                    Fate.STABILISE_TRIMMED_AFTER if used else Fate.STABILISE_TRIMMED,
                    power=sub.power, count=kept, against=order.count, other=str(owned),
                    province=str(used))
            else:
                mine.stabilised.append((sub, order))
            continue
        assert isinstance(order, EventOrder)
        problem = _event_problem(variant, gmap, sub.power, order, spring)
        if problem:
            tally.refuse(sub, problem)
            continue
        if mine.event is not None:
            old_sub, _ = mine.event
            tally.refuse(old_sub, Reason(Void.EVENT_REPLACED))
        mine.event = (sub, order)
    return tally


def _event_problem(variant: Variant, gmap: GameMap, power: str, order: EventOrder,
                   spring: bool) -> Reason | None:
    if isinstance(order, CreateCentre):
        p = order.province
        if not spring:
            return Reason(Fate.CREATE_NOT_IN_SPRING)
        problem = _on_board(gmap, p)
        if problem:
            return problem
        if gmap.terrain[p] is not Terrain.LAND:
            return Reason(Fate.CREATE_NOT_ON_LAND, province=display_name(p, gmap),
                          other=gmap.terrain[p].value)
        if p in gmap.centres:
            return Reason(Fate.ALREADY_A_CENTRE, province=p)
        return None
    if isinstance(order, SupportEvent):
        other = variant.power(order.power)
        if other is None:
            return Reason(Fate.SUPPORT_NO_SUCH_POWER, other=order.power)
        if other.name == power:
            return Reason(Fate.SUPPORT_OWN_EVENT)
        return check_event(gmap, order.event)
    return check_event(gmap, order)


# -- strengths ---------------------------------------------------------------------------------
def _key(target: GeoTarget) -> tuple[str, ...]:
    return target.key


@dataclass(frozen=True)
class _Outcome:
    """An event's fate: who ordered it, its strength and the stabilisations against it."""

    power: str
    event: GeoEvent
    strength: int
    stabilisations: int

    @property
    def succeeds(self) -> bool:
        return self.strength > self.stabilisations



def _adjudicate(variant: Variant, tally: _Tally) -> tuple[list[_Outcome], list[CreateCentre]]:
    """Rule 3: supports that match, strengths against stabilisations."""
    stabs: dict[tuple[str, ...], int] = {}
    for mine in tally.powers.values():
        for _, s in mine.stabilised:
            stabs[_key(s.target)] = stabs.get(_key(s.target), 0) + s.count
    events = {
        p: order for p, mine in tally.powers.items()
        if mine.event is not None and isinstance(order := mine.event[1], GeoEvent)
    }
    support: dict[str, int] = {}
    support_results: list[tuple[Submitted, str, SupportEvent]] = []
    for mine in tally.powers.values():
        if mine.event is None:
            continue
        sub, order = mine.event
        if not isinstance(order, SupportEvent):
            continue
        power = variant.power(order.power)
        assert power is not None
        theirs = events.get(power.name)
        if theirs is not None and theirs.kind is order.event.kind \
                and _key(theirs.target) == _key(order.event.target):
            support[power.name] = support.get(power.name, 0) + 1
            support_results.append((sub, power.name, order))
        else:
            why = Reason(Fate.NOTHING_TO_SUPPORT, power=power.name, other=str(theirs)) \
                if theirs is not None else Reason(Fate.NO_EVENT_TO_SUPPORT, power=power.name)
            tally.results.append(OrderResult(sub.power, order, sub.text, Outcome.FAILS, why))
    outcomes = [
        _Outcome(p, e, 1 + support.get(p, 0), stabs.get(_key(e.target), 0))
        for p, e in sorted(events.items())
    ]
    by_power = {o.power: o for o in outcomes}
    for sub, named, order in support_results:
        o = by_power[named]
        kind = Fate.SUPPORT_ADDS_SUCCEEDS if o.succeeds else Fate.SUPPORT_ADDS_FAILS
        tally.results.append(OrderResult(
            sub.power, order, sub.text, Outcome.SUCCEEDS,
            Reason(kind, power=named, other=str(o.event), count=o.strength,
                   against=o.stabilisations)))
    for o in outcomes:
        mine = tally.powers[o.power]
        assert mine.event is not None
        sub = mine.event[0]
        outcome = Outcome.SUCCEEDS if o.succeeds else Outcome.FAILS
        tally.results.append(OrderResult(
            sub.power, o.event, sub.text, outcome,
            Reason(Fate.EVENT_SUCCEEDS if o.succeeds else Fate.EVENT_NO_CHANGE,
                   count=o.strength, against=o.stabilisations)))
    attacked: dict[tuple[str, ...], list[_Outcome]] = {}
    for o in outcomes:
        attacked.setdefault(_key(o.event.target), []).append(o)
    for mine in tally.powers.values():
        for sub, s in mine.stabilised:
            against = attacked.get(_key(s.target), [])
            beaten = [o for o in against if o.succeeds]
            if beaten:
                reason = Reason(Fate.OVERCOME_BY).then(*(
                    Reason(Fate.AN_EVENT_OF_STRENGTH, power=o.power, other=str(o.event),
                           count=o.strength, against=o.stabilisations) for o in beaten))
                outcome = Outcome.FAILS
            else:
                reason = Reason(Fate.HOLDS_AGAINST).then(*(
                    Reason(Fate.AN_EVENT, power=o.power, other=str(o.event)) for o in against)) \
                    if against else Reason(Fate.NO_EVENT_THERE)
                outcome = Outcome.SUCCEEDS
            note = tally.trimmed.get(id(sub))
            if note is not None:
                reason = note.then(reason)
            tally.results.append(OrderResult(sub.power, sub.order if note else s, sub.text,
                                             outcome, reason))
    creations: list[CreateCentre] = []
    for mine in tally.powers.values():
        if mine.event is None:
            continue
        sub, cc = mine.event
        if isinstance(cc, CreateCentre):
            creations.append(cc)
            tally.results.append(OrderResult(sub.power, cc, sub.text, Outcome.SUCCEEDS,
                                             Reason(Fate.NEUTRAL_CENTRE)))
    return outcomes, creations


# -- the new map -----------------------------------------------------------------------------
_ARTICLE = {Terrain.SEA: "sea", Terrain.LAKE: "a lake", Terrain.LAND: "land",
            Terrain.MOUNTAIN: "a mountain"}


def _new_terrain(gmap: GameMap, deltas: Mapping[str, int]) -> dict[str, Terrain]:
    """Rule 6 and RULINGS: elevations add up (clamped to 0..2); water that borders a sea is
    sea, other water a lake (a lake that comes to border a sea becomes sea)."""
    terrain = dict(gmap.terrain)
    changed: dict[str, Terrain] = {}
    for p, d in deltas.items():
        old = ELEVATION[gmap.terrain[p]]
        new = max(0, min(2, old + d))
        if new == old:
            continue
        changed[p] = Terrain.LAKE if new == 0 else Terrain.LAND if new == 1 else Terrain.MOUNTAIN
    terrain.update(changed)
    while True:  # water joined to a sea is sea
        joined = {
            p for p, t in terrain.items()
            if t is Terrain.LAKE and any(terrain[q] is Terrain.SEA for q in gmap.borders[p])
        }
        if not joined:
            break
        for p in joined:
            terrain[p] = Terrain.SEA
    return {p: t for p, t in terrain.items() if t is not gmap.terrain[p]}


def _apply(
    variant: Variant, state: GameState, gmap: GameMap, outcomes: Sequence[_Outcome],
    creations: Sequence[CreateCentre],
) -> tuple[GameState, list[str]]:
    """The map after the successful events (rules 2, 6, 7), in state and in words."""
    events: list[str] = []
    deltas: dict[str, int] = {}
    quakes: set[tuple[str, str]] = set()
    advance: set[str] = set()
    retreat: set[str] = set()
    for o in outcomes:
        if not o.succeeds:
            continue
        t, kind = o.event.target, o.event.kind
        if kind in DELTA:
            deltas[t.province] = deltas.get(t.province, 0) + DELTA[kind]
        elif kind is GeoKind.EARTHQUAKE:
            assert t.other is not None
            quakes.add(border_key(t.province, t.other))
        elif kind is GeoKind.ICE_ADVANCE:
            advance.add(t.province)
        else:
            retreat.add(t.province)
    changed = _new_terrain(gmap, deltas)
    for p, now in sorted(changed.items()):
        events.append(f"{gmap.provinces[p].name} ({_shown(p, now)}) becomes {_ARTICLE[now]}.")
    for p, d in sorted(deltas.items()):
        if p not in changed and d == 0:
            events.append(f"The events on {gmap.provinces[p].name} cancel out: no change.")
    terrain = dict(state.terrain)
    terrain.update(changed)
    cuts = set(state.cut_borders)
    after = {**gmap.terrain, **changed}
    for a, b in sorted(quakes):
        names = f"{gmap.provinces[a].name} and {gmap.provinces[b].name}"
        if (a, b) in cuts:
            cuts.discard((a, b))
            events.append(f"An earthquake closes the ravine between {names}: the border is open.")
        else:
            cuts.add((a, b))
            wet = after[a].is_water or after[b].is_water
            events.append(f"An earthquake splits the border between {names}"
                          + ("; it takes effect once both sides are land." if wet else "."))
    iced = (set(state.iced) | advance) - retreat
    for p in sorted(advance):
        events.append(f"Ice covers {gmap.provinces[p].name}.")
    for p in sorted(retreat):
        events.append(f"The ice retreats from {gmap.provinces[p].name}.")
    centres = set(gmap.centres)
    for cc in creations:
        if cc.province not in centres:
            centres.add(cc.province)
            events.append(f"{gmap.provinces[cc.province].name} becomes a (neutral) supply centre.")
    owners = dict(state.owners)
    for c in sorted(centres):
        ground = after[c]
        if ground.is_water or ground is Terrain.MOUNTAIN:
            centres.discard(c)
            owners.pop(c, None)
            where = "under water" if ground.is_water else "a mountain"
            events.append(f"{gmap.provinces[c].name} is no longer a supply centre: it is {where}.")
    new = state.evolve(
        terrain=terrain, cut_borders=frozenset(cuts), iced=frozenset(iced),
        centres=None if centres == set(variant.map.centres) and state.centres is None
        else frozenset(centres),
        owners=owners,
    )
    return new, events


def _shown(province: str, terrain: Terrain) -> str:
    return province.upper() if terrain.is_water else (
        province.capitalize() if province.isupper() else province)


# -- units after the events --------------------------------------------------------------------
def _place_units(
    state: GameState, before: GameMap, after: GameMap
) -> tuple[GameState, list[str], dict[str, str]]:
    """Rule 4: units in illegal positions are destroyed; fleets follow their coasts; rule 8:
    an army starting a second movement phase on the same ice is destroyed. Returns the state,
    the events, and the destroyed units' provinces with the reason."""
    kept: list[Unit] = []
    events: list[str] = []
    gone: dict[str, str] = {}
    counts = _ice_counts(state, before)
    extra = {k: v for k, v in state.extra.items() if not k.startswith(ICE_KEY + " ")}
    for unit in sorted(state.units):
        p = unit.province
        why: str | None = None
        place = unit.location
        if not after.is_passable(p):
            why = "it stood on what is now a mountain" \
                if after.terrain[p] is Terrain.MOUNTAIN else "its space left the board"
        elif unit.type is UnitType.ARMY:
            if not after.can_occupy(UnitType.ARMY, Location(p)):
                why = "it drowned: its space is now water"
        elif before.is_water(p) and not after.is_water(p):
            what = "lake" if before.terrain[p] is Terrain.LAKE else "sea"
            why = f"its {what} was filled in"
        else:
            moved = after.follow_coast(unit.location, before)
            if moved is None:
                why = "its coast is gone: the space is now inland"
            elif not after.is_water(p) and before.coast_seas.get(unit.location) and not (
                    before.coast_seas[unit.location] & after.coast_seas.get(moved, frozenset())):
                # rule 9: a fleet on a lake's coast "would be destroyed if the lake was filled
                # in"; likewise any fleet whose water is all gone (rule 4: illegal position)
                why = "its coast is gone: the water it touched was filled in"
            else:
                place = moved
        if why is None and unit.type is UnitType.ARMY and p in after.iced:
            key = ice_key(unit)
            if counts.get(key) == "1":
                name = after.provinces[p].name
                if after.is_water(p):  # rule 8: "the Norwegian Sea"
                    name = with_article(name)
                why = f"it started a second movement phase on the ice of {name}"
            else:
                extra[key] = "1"
        if why is not None:
            gone[p] = why
            events.append(f"{unit.power}'s {display_unit(unit, before)} is destroyed: {why}.")
            continue
        if place != unit.location:
            events.append(f"{unit.power}'s {display_unit(unit, before)} now stands at "
                          f"{display_location(place, after)}: the coasts changed.")
        kept.append(unit.moved_to(place))
    return state.evolve(units=tuple(kept), extra=extra), events, gone


def _reread(
    state: GameState, before: GameMap, after: GameMap, orders: Sequence[Submitted],
    gone: Mapping[str, str], kinds: frozenset[str],
) -> tuple[list[Submitted], list[OrderResult]]:
    """Rule 9: the unit orders checked against the map as the events left it."""
    out: list[Submitted] = []
    results: list[OrderResult] = []
    for sub in orders:
        order = sub.order
        if after is not before:
            # the order as written (a coast named for a space that had none then counts now),
            # else as it was read before the events
            parsed = parse_order(sub.text, after, PhaseType.MOVEMENT, kinds)
            if isinstance(parsed, OrderError) and order is not None:
                again = parse_order(str(order), after, PhaseType.MOVEMENT, kinds)
                parsed = parsed if isinstance(again, OrderError) else again
            if isinstance(parsed, OrderError):
                if order is not None:  # it read well before the events, not now
                    sub = Submitted(sub.power, sub.text, None, parsed)
            else:
                sub = Submitted(sub.power, sub.text, parsed)
            order = sub.order
        if isinstance(order, Order):
            p = order.unit.location.province
            mine = state.unit_in(p)
            if p in gone and mine is None:
                results.append(OrderResult(sub.power, order, sub.text, Outcome.ILLEGAL,
                                           Reason(Fate.DESTROYED_BEFORE, province=p,
                                                  other=gone[p])))
                continue
            refusal = _ice_refusal(mine, order, after) if mine is not None \
                and mine.power == sub.power else None
            if refusal is not None and mine is not None:
                # rule 8: refused, and the fleet holds in its place
                results.append(OrderResult(sub.power, order, sub.text, Outcome.ILLEGAL, refusal))
                hold = Hold(UnitSpec(mine.type, mine.location))
                sub = Submitted(sub.power, str(hold), hold)
        out.append(sub)
    return out, results


def _ice_refusal(fleet: Unit, order: Order, gmap: GameMap) -> Reason | None:
    """Rule 8: why a fleet's order cannot be carried out because of ice, or None."""
    if fleet.type is not UnitType.FLEET or isinstance(order, Hold):
        return None
    if fleet.province in gmap.iced:
        return Reason(Fate.ENGULFED_BY_ICE, unit=display_unit(fleet, gmap))
    if isinstance(order, Move) and order.dest.province in gmap.iced:
        return Reason(Fate.INTO_ICE, province=display_name(order.dest.province, gmap),
                      unit=display_unit(fleet, gmap))
    return None


# -- the hook ----------------------------------------------------------------------------------
def split_orders(submitted: Iterable[Submitted]) -> tuple[list[Submitted], list[Submitted]]:
    """(geophysical orders, the others)."""
    geo: list[Submitted] = []
    rest: list[Submitted] = []
    for sub in submitted:
        (geo if isinstance(sub.order, GEO_ORDERS) else rest).append(sub)
    return geo, rest


def events_before_movement(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, list[Submitted]]:
    """Rule 4: the phase's events, then units in illegal positions destroyed, then the unit
    orders re-read against the new map. Returns the step and the orders left for movement."""
    geo, rest = split_orders(submitted)
    before = variant.map_for(state)
    tally = _collect(variant, state, before, geo)
    outcomes, creations = _adjudicate(variant, tally)
    new, events = _apply(variant, state, before, outcomes, creations)
    after = variant.map_for(new)
    new, unit_events, gone = _place_units(new, before, after)
    remaining, refused = _reread(new, before, after, rest, gone, variant.order_kinds)
    results = tuple(tally.results) + tuple(refused)
    return HookStep(new, results, tuple(events + unit_events)), remaining


def refuse_outside_movement(
    state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, list[Submitted]]:
    """Event orders in a retreat or adjustment phase are refused (rule 1: each *move*)."""
    geo, rest = split_orders(submitted)
    results = tuple(
        OrderResult(s.power, s.order, s.text, Outcome.ILLEGAL,
                    Reason(Fate.EVENTS_NOT_NOW))
        for s in geo
    )
    return HookStep(state, results), rest
