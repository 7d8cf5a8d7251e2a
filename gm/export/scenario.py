"""A game's adjudicated phases as scenario-format cases (`gm scenario --format`), one each.

Each case sets up the position stored before the phase (units, dislodged units with the
previous movement's results for where their attackers came from, centre owners, and the map
where it differs from what the variant's schedule alone gives: terrain, ice, cut borders,
centres, homes, variant state), gives the orders the adjudication used (each power's latest
valid submission, as canonical order text, and for a power without one the orders its
stand-in gave: gm.export.played_orders), and expects the position stored at the start of
the next phase (for the last phase of a finished game, the final position is computed again).
`gm scenario` runs the file; every case passes when the record and the engine agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from gm.engine.game import GameStep, advance
from gm.engine.phase import PhaseType
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.export.played_orders import order_lines, played_orders
from gm.scenario.runner import _scheduled_before
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.rows import StoredResult
from gm.variants import Variant, get_variant


def _units(state: GameState) -> list[str]:
    return sorted(f"{u.power}: {u}" for u in state.units)


def _block(name: str, lines: list[str]) -> list[str]:
    return [name, *(f"\t{line}" for line in lines)]


def _terrain_lines(variant: Variant, state: GameState, base: GameState,
                   only: set[str] | None = None) -> list[str]:
    """`Prov: kind` for each province whose terrain or ice differs from `base`."""
    now, then = variant.map_for(state), variant.map_for(base)
    lines = []
    for prov in sorted(now.terrain):
        if only is not None and prov not in only:
            continue
        changed = now.terrain[prov] is not then.terrain[prov]
        ice_now, ice_then = prov in now.iced, prov in then.iced
        if changed or (ice_then and not ice_now):
            lines.append(f"{prov}: {now.terrain[prov].value}")
        if ice_now and (changed or not ice_then):
            lines.append(f"{prov}: ice")
    return lines


def _map_changes(variant: Variant, state: GameState, base: GameState) -> set[str]:
    now, then = variant.map_for(state), variant.map_for(base)
    return {p for p in now.terrain
            if now.terrain[p] is not then.terrain[p] or (p in now.iced) != (p in then.iced)}


def _prestate(variant: Variant, state: GameState,
              previous: Sequence[StoredResult] | None) -> list[str]:
    base = _scheduled_before(variant, state.phase)
    out = [f"PRESTATE_SETPHASE {variant.format_phase(state.phase)}"]
    terrain = _terrain_lines(variant, state, base)
    if terrain:
        out += _block("PRESTATE_TERRAIN", terrain)
    borders = [f"cut {a}-{b}" for a, b in sorted(state.cut_borders - base.cut_borders)]
    borders += [f"open {a}-{b}" for a, b in sorted(base.cut_borders - state.cut_borders)]
    if borders:
        out += _block("PRESTATE_BORDERS", borders)
    centres = variant.map_for(state).centres
    if centres != variant.map_for(base).centres:
        out += ["PRESTATE_SUPPLYCENTERS", "\t" + " ".join(sorted(centres))]
    homes = [f"{p}: {' '.join(sorted(h))}" for p, h in sorted(state.homes.items())
             if sorted(h) != sorted(base.homes.get(p, ()))]
    if homes:
        out += _block("PRESTATE_HOMES", homes)
    if state.extra:
        out += _block("PRESTATE_STATE", [f"{k}: {v}" for k, v in sorted(state.extra.items())])
    out += _block("PRESTATE", _units(state))
    if state.dislodged:
        out += _block("PRESTATE_DISLODGED",
                      sorted(f"{d.unit.power}: {d.unit}" for d in state.dislodged))
        if previous is not None:
            results = []
            for r in previous:
                if r.canonical is None or " - " not in r.canonical or \
                        r.outcome.value == "illegal":
                    continue
                word = "SUCCESS" if r.outcome.value == "succeeds" else "FAILURE"
                results.append(f"{word}: {r.power}: {r.canonical}")
            out += _block("PRESTATE_RESULTS", results)
    out += _block("PRESTATE_SUPPLYCENTER_OWNERS",
                  [f"{p}: {c}" for c, p in sorted(state.owners.items())])
    return out


def _poststate(variant: Variant, before: GameState, after: GameState) -> list[str]:
    out = _block("POSTSTATE", _units(after))
    out += _block("POSTSTATE_DISLODGED", sorted(f"{d.unit.power}: {d.unit}"
                                                for d in after.dislodged))
    out += _block("POSTSTATE_SUPPLYCENTER_OWNERS",
                  [f"{p}: {c}" for c, p in sorted(after.owners.items())])
    if not after.finished:
        out.append(f"POSTSTATE_SETPHASE {variant.format_phase(after.phase)}")
    changed = _map_changes(variant, after, before)
    if changed:
        out += _block("POSTSTATE_TERRAIN", [
            f"{p}: {'ice' if p in variant.map_for(after).iced else variant.map_for(after).terrain[p].value}"  # noqa: E501
            for p in sorted(changed)])
    if variant.map_for(after).centres != variant.map_for(before).centres:
        out += ["POSTSTATE_SUPPLYCENTERS", "\t" + " ".join(sorted(variant.map_for(after).centres))]
    if after.cut_borders != before.cut_borders:
        pairs = sorted(after.cut_borders ^ before.cut_borders)
        out += _block("POSTSTATE_BORDERS", [
            f"{'cut' if pair in after.cut_borders else 'open'} {pair[0]}-{pair[1]}"
            for pair in pairs])
    if after.homes != before.homes:
        out += _block("POSTSTATE_HOMES", [f"{p}: {' '.join(sorted(h))}"
                                          for p, h in sorted(after.homes.items())])
    keys = sorted(set(after.extra) | set(before.extra))
    if any(after.extra.get(k) != before.extra.get(k) for k in keys):
        out += _block("POSTSTATE_STATE", [f"{k}: {after.extra.get(k, '(absent)')}"
                                          for k in keys])
    out += ["POSTSTATE_WINNERS", "\t" + (" ".join(after.winners) or "none")]
    return out


def scenario_text(session: Session, game_id: int) -> str:
    """Every adjudicated phase of the game as a scenario case, in one file."""
    game = games_repo.get_game(session, game_id)
    variant = get_variant(game.variant)
    history = phases_repo.history(session, game_id)
    out = [f"# {game.name} ({variant.title}): the game's record as scenario cases, one per",
           "# adjudicated phase (exported by `gm export --scenario`; run with `gm scenario`).",
           "", f"VARIANT_ALL {variant.name}", ""]
    for i, record in enumerate(history):
        if not record.adjudicated:
            continue
        if i + 1 < len(history):
            after = history[i + 1].state
        else:  # the final phase of a finished game: its position is not stored
            after = advance(variant, record.state, played_orders(session, variant, record)).state
        orders = order_lines(played_orders(session, variant, record))
        previous = history[i - 1].results if i > 0 else None
        out += phase_case(variant, f"{game.name}.{record.index}",
                          f"phase {record.index} of {game.name}", record.state, orders, after,
                          previous)
    return "\n".join(out)


def phase_case(variant: Variant, name: str, note: str, before: GameState, orders: Sequence[str],
               after: GameState, previous: Sequence[StoredResult] | None) -> list[str]:
    """The lines of one case: the phase of `before` with `orders` (`Power: order`) gives
    `after`; `previous`: the results of the phase before (where a retreat's attackers came
    from)."""
    out = [f"# {variant.format_phase(before.phase)} ({note})", f"CASE {name}"]
    out += _prestate(variant, before,
                     previous if before.phase.type is PhaseType.RETREAT else None)
    out += _block("ORDERS", list(orders))
    out += _poststate(variant, before, after)
    return [*out, "END", ""]


class Recorder:
    """Plays a game through `advance` and keeps every phase as a scenario case: a scripted
    game becomes a file `gm scenario` runs (`text()`)."""

    def __init__(self, variant: Variant, title: str) -> None:
        self.variant = variant
        self.title = title
        self.cases: list[str] = []
        self._previous: tuple[StoredResult, ...] | None = None

    def advance(self, state: GameState, submitted: Sequence[Submitted]) -> GameStep:
        step = advance(self.variant, state, submitted)
        orders = [f"{s.power}: {s.order if s.order is not None else s.text}" for s in submitted]
        n = len(self.cases) + 1
        self.cases += phase_case(self.variant, f"{self.title}.{n}", self.title, state, orders,
                                 step.state, self._previous)
        played = [r for r in step.reports if r.played]
        self._previous = tuple(StoredResult.of(r) for r in played[0].results) if played else ()
        return step

    def text(self) -> str:
        head = [f"# {self.title} ({self.variant.title}): a scripted game, one case per phase.",
                "", f"VARIANT_ALL {self.variant.name}", ""]
        return "\n".join(head + self.cases)
