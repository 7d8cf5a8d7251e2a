"""A variant file's `[[events]]`: what each kind does, the order they run in, and the check that
every event can happen when it comes due.

One meaning per file: a file's events are played by the Deluge II and Sahara changes of the
same name (`submerge`, `passable`, `new centre`; `dry`, `lose centre`, `impassable`), but no
table of a built-in variant applies to them: a file's `new centre` goes to the power whose
unit stands there (Deluge II rule 5 step 1), else it is neutral (Deluge II's steps 2 and 3,
the last unit there and its boundary table, are Deluge II's own).

The events of one season run in the order the file writes them, each seeing what the ones
before it did (`dry X` then `new centre X` in one Winter makes X land, then a centre).

`event_problems` replays the events over the start's terrain in that order and says which
cannot happen then (a `new centre` on a space that is not land at that moment, `dry` on land,
`submerge` on a sea, ...): the check refuses such a file, so no event announced in reports'
"Coming:" section is ever dropped in play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gm.engine.calendar import Calendar
from gm.engine.geo import Terrain
from gm.engine.map import GameMap
from gm.engine.phase import Phase
from gm.engine.state import GameState
from gm.engine.variant import HookStep, ScheduledEvent, Variant
from gm.variants.terrain_schedule import replay_phase

# the kinds a file may write (in the documentation's order) -> the ScheduledEvent kind, the
# word Deluge II's and Sahara's tables (and reports' "Coming:" section) use for it
KINDS = {"submerge": "submerge", "passable": "passable", "new centre": "centre", "dry": "land",
         "lose centre": "lose", "impassable": "impassable"}
_WRITTEN = {kind: written for written, kind in KINDS.items()}
_NO_BOUNDARIES: Mapping[str, str | None] = {}


def apply_file_events(variant: Variant, state: GameState, due: Sequence[ScheduledEvent]
                      ) -> HookStep:
    """The season's events of a variant file, one after another in the order written."""
    # the rules of Deluge II and Sahara play these events (imported when a file's event is due)
    from gm.variants import deluge2, sahara

    words: list[str] = []
    for event in due:
        if event.kind == "submerge":
            state = deluge2.submerge(variant, state, event.provinces, words)
        elif event.kind == "passable":
            state = deluge2.open_spaces(variant, state, event.provinces, words)
        elif event.kind == "centre":
            state = deluge2.new_centres(variant, state, event.provinces, words, _NO_BOUNDARIES)
        elif event.kind in ("land", "lose", "impassable"):
            step = sahara.apply_tables(variant, state, [event])
            state = step.state
            words += step.events
    assert isinstance(state, GameState)
    return HookStep(state, events=tuple(words))


@dataclass(frozen=True)
class DatedEvent:
    """An event as the file writes it: the event and the line of its `[[events]]` table."""

    event: ScheduledEvent
    line: int


def event_problems(gmap: GameMap, calendar: Calendar, start: Phase,
                   events: Sequence[DatedEvent]) -> list[tuple[int, str]]:
    """(line, message) for each event that cannot happen when it comes due, replaying the
    events in calendar order (one season's in the order written) over the start's terrain."""
    problems: list[tuple[int, str]] = []
    terrain = dict(gmap.terrain)
    centres = set(gmap.centres)
    start_key = calendar.key(start)
    timed = []
    for n, dated in enumerate(events):
        at = replay_phase(calendar, dated.event)
        if calendar.key(at) < start_key:
            problems.append((dated.line, f"this event is dated {at.season} {at.year}, before "
                             f"the game starts ({start.season} {start.year}): date it at or "
                             "after the start, or leave it out"))
            continue
        timed.append((calendar.key(at), n, dated))
    for _, _, dated in sorted(timed, key=lambda t: (t[0], t[1])):
        e = dated.event
        when = f"{e.season} {e.year}"
        for p in e.provinces:
            now = terrain[p]
            name = gmap.provinces[p].name
            said = f"{_WRITTEN.get(e.kind, e.kind)} {p}"
            why: str | None = None
            if e.kind == "centre":
                if p in centres:
                    why = f"{name} is already a supply centre then"
                elif now is not Terrain.LAND:
                    why = (f"{name} is {_terrain_words(now)} in {when}: a supply centre can "
                           "only appear on land; make it land first (an earlier `dry` or "
                           "`passable` event, or one written before this one in the same "
                           "season) or choose a land province")
                else:
                    centres.add(p)
            elif e.kind == "lose":
                if p not in centres:
                    why = f"{name} is not a supply centre in {when}"
                else:
                    centres.discard(p)
            elif e.kind == "submerge":
                if now.is_water:
                    why = (f"{name} is already water in {when}: `submerge` makes land sea; "
                           "leave it out")
                else:
                    terrain[p] = Terrain.SEA
                    centres.discard(p)
            elif e.kind == "land":
                if now in (Terrain.LAND, Terrain.MOUNTAIN):
                    why = (f"{name} is {_terrain_words(now)} in {when}: `dry` makes a sea, "
                           "lake or impassable space land; leave it out")
                else:
                    terrain[p] = Terrain.LAND
            elif e.kind == "passable":
                if now.is_passable:
                    why = (f"{name} is {_terrain_words(now)} in {when}, not impassable: "
                           "`passable` opens an impassable space (or mountain); leave it out")
                else:
                    terrain[p] = gmap.provinces[p].opens_as or Terrain.LAND
            elif e.kind == "impassable":
                if now is Terrain.IMPASSABLE:
                    why = f"{name} is already impassable in {when}; leave it out"
                else:
                    terrain[p] = Terrain.IMPASSABLE
            if why is not None:
                problems.append((dated.line, f"{said} cannot happen: {why}"))
    return problems


def _terrain_words(terrain: Terrain) -> str:
    """`a sea`, `a mountain (impassable)`, ... as the check and the orders both say it."""
    return {
        Terrain.LAND: "land",
        Terrain.SEA: "a sea",
        Terrain.LAKE: "a lake",
        Terrain.MOUNTAIN: "a mountain (impassable)",
        Terrain.IMPASSABLE: "impassable",
    }[terrain]
