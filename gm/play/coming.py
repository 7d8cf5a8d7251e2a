"""What a variant's tables will do to the map soon: the "coming" section of phase reports.

A variant's scheduled events (Variant.scheduled: Deluge II Tables 1 and 2 and rule 6, Sahara
rules 2, 3 and 5) take effect at the end of their season. A report warns of those due from the
end of the next phase's season up to (not including) the same season a year later, so that
players see a submergence a year ahead. The words are the templates' (templates/report/).
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.engine.phase import PhaseType
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.variants.terrain_schedule import place_name, unit_text


@dataclass(frozen=True)
class ComingEvent:
    """One table entry still to come: its season (`when`, e.g. `Winter 1902`), whether that
    season is only adjustments (the change follows them) or has moves (it follows the moves and
    retreats), the variant's word for it (`kind`: submerge, centre, passable, land, lose,
    lose-all-except, impassable), the places as the map now names them, and the units standing
    there now."""

    when: str
    after_adjustments: bool
    kind: str
    places: tuple[str, ...]
    units: tuple[str, ...]


def coming_events(variant: Variant, state: GameState) -> tuple[ComingEvent, ...]:
    """The scheduled events of the coming year, in the order they will happen (none once the
    game is over)."""
    if state.finished or not variant.scheduled:
        return ()
    calendar = variant.calendar
    seasons = calendar.seasons
    now = (state.phase.year, seasons.index(calendar.season_of(state.phase)))
    gmap = variant.map_for(state)
    found: list[tuple[tuple[int, int], ComingEvent]] = []
    for event in variant.scheduled:
        season = calendar.season(event.season)
        if season is None:
            continue
        at = (event.year, seasons.index(season))
        if not now <= at < (now[0] + 1, now[1]):
            continue
        places = tuple(place_name(gmap, p) for p in event.provinces if p in gmap.provinces)
        standing = (state.unit_in(p) for p in event.provinces)
        units = tuple(unit_text(u) for u in standing if u is not None)
        found.append((at, ComingEvent(
            f"{season.display(event.year)} {event.year}",
            PhaseType.MOVEMENT not in season.phases, event.kind, places, units)))
    return tuple(e for _, e in sorted(found, key=lambda pair: pair[0]))
