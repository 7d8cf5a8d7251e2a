"""A last game year (a variant file's `last_year`, as DPjudge and webDiplomacy games may end
at a set year): the game ends at the end of that year unless a power has won before, and the
powers are ranked by the supply centres they own then."""

from __future__ import annotations

from dataclasses import replace

from gm.engine.phase import Phase
from gm.engine.state import GameState
from gm.engine.variant import Hooks, Variant, Verdict, VictoryRule
from gm.engine.victory import centre_counts, centre_victory


def ranking(variant: Variant, state: GameState) -> list[tuple[int, str, int]]:
    """(place, power, centres) for every power owning a centre, most centres first; powers
    with as many share a place (1, 2, 2, 4)."""
    counts = centre_counts(state.owners, variant.map_for(state).centres)
    order = sorted((p for p in variant.power_names if counts[p]), key=lambda p: -counts[p])
    out: list[tuple[int, str, int]] = []
    for i, power in enumerate(order):
        place = out[-1][0] if out and out[-1][2] == counts[power] else i + 1
        out.append((place, power, counts[power]))
    return out


def ranking_words(variant: Variant, state: GameState, year: int) -> str:
    """`The game ends with 1903, its last year. The powers ranked by supply centres: 1.
    Norland 5, 2. Eastria 4, 2. Southia 4.`"""
    ranks = ", ".join(f"{place}. {power} {n}" for place, power, n in ranking(variant, state))
    return (f"The game ends with {year}, its last year. The powers ranked by supply centres: "
            f"{ranks or 'none owns a centre'}.")


def with_last_year(hooks: Hooks, year: int) -> Hooks:
    """`hooks` whose victory rule also ends the game at the end of `year` (after the last
    phase of that year, played or skipped), with the ranking in words."""
    inner: VictoryRule = hooks.victory or centre_victory

    def victory(variant: Variant, state: GameState, phase: Phase,
                ownership_updated: bool) -> Verdict | None:
        found = inner(variant, state, phase, ownership_updated)
        if found is not None and found.finished:
            return found
        if phase.year != year or variant.calendar.next(phase).year == year:
            return found
        return Verdict((), finished=True, events=(ranking_words(variant, state, year),))

    return replace(hooks, victory=victory)
