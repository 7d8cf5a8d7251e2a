"""A MILA saved game (the `diplomacy` package's JSON, docs/game-record.md) read into gm: each
phase's position and orders as gm's, to start a game from its last position (`gm import`)
or to replay it through gm's adjudicator and find the phases where the two disagree.

The standard map is read in the package's names (powers in capitals, `STP/SC`, `EAS`, `WES`,
`A PAR B`, `A PAR D`, `WAIVE`); a record gm wrote of a variant (its "gm" block names the
variant) in gm's own names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.game import GameOver, advance
from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.notation import parse_order
from gm.play.deadlines import deadline_after
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from gm.variants import Variant, get_variant

_MILA_NAMES = {"EAS": "EMS", "WES": "WMS"}


class ImportProblem(ValueError):
    """A saved game gm cannot read: the message says what and where."""


@dataclass(frozen=True)
class SavedPhase:
    """One phase of a saved game, in gm's terms."""

    name: str  # as the file names it (S1901M, COMPLETED)
    state: GameState
    orders: dict[str, list[str]]  # power -> order texts as gm reads them


@dataclass(frozen=True)
class SavedGame:
    game_id: str
    variant: Variant
    phases: tuple[SavedPhase, ...]


class _Reader:
    """The file's names read as gm's."""

    def __init__(self, variant: Variant, mila: bool) -> None:
        self.variant, self.mila = variant, mila
        self.powers = {(p.upper() if mila else p): p for p in variant.power_names}
        provinces = variant.map.provinces
        self.places = {(p.upper() if mila else p): p for p in provinces}
        if mila:
            for theirs, ours in _MILA_NAMES.items():
                if ours in provinces:
                    self.places[theirs] = ours

    def power(self, name: str, where: str) -> str:
        found = self.powers.get(name)
        if found is None:
            raise ImportProblem(f"{where}: {name!r} is no power of {self.variant.title}")
        return found

    def location(self, text: str, where: str) -> Location:
        province, _, coast = text.partition("/")
        found = self.places.get(province)
        if found is None:
            raise ImportProblem(f"{where}: {text!r} is no province of {self.variant.title}")
        return Location(found, coast.lower() or None) if coast else Location(found)

    def unit(self, power: str, text: str, where: str) -> Unit:
        kind, _, place = text.partition(" ")
        types = {"A": UnitType.ARMY, "F": UnitType.FLEET, "A/F": UnitType.ARMY_FLEET}
        if kind not in types or not place:
            raise ImportProblem(f"{where}: {text!r} is no unit (A PAR, F STP/SC)")
        return Unit(power, types[kind], self.location(place, where))

    def order(self, text: str, adjusting: bool) -> str:
        """An order in the file's words as gm reads it."""
        if not self.mila:
            return text
        if text == "WAIVE":
            return "Waive"
        if adjusting and text.endswith(" B"):
            return f"Build {self._words(text[:-2])}"
        if adjusting and text.endswith(" D"):
            return f"Remove {self._words(text[:-2])}"
        return self._words(text)

    def _words(self, text: str) -> str:
        return " ".join(_MILA_NAMES.get(w, w) for w in text.split())


def _state(reader: _Reader, variant: Variant, data: Mapping[str, Any], phase: Phase,
           where: str) -> GameState:
    units: list[Unit] = []
    dislodged: list[Dislodged] = []
    for power_name, listed in dict(data.get("units", {})).items():
        power = reader.power(power_name, where)
        for text in listed:
            if text.startswith("*"):
                dislodged.append(Dislodged(reader.unit(power, text[1:], where), None))
            else:
                units.append(reader.unit(power, text, where))
    owners = {reader.location(c, where).province: reader.power(p, where)
              for p, centres in dict(data.get("centers", {})).items() for c in centres}
    base = variant.start_state()
    homes = dict(base.homes)
    for p, listed in dict(data.get("homes", {})).items():
        homes[reader.power(p, where)] = tuple(reader.location(h, where).province
                                              for h in listed)
    return base.evolve(phase=phase, units=tuple(sorted(units)), dislodged=tuple(dislodged),
                       owners=owners, homes=homes)


def load_saved(text: str, line: int = 1) -> Any:
    """The JSON of a saved game's file: the whole text, or its `line`th line of a .jsonl."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if not 1 <= line <= len(lines):
            raise ImportProblem(f"it has no line {line} (it has {len(lines)})") from None
        try:
            return json.loads(lines[line - 1])
        except json.JSONDecodeError as problem:
            raise ImportProblem(f"not JSON ({problem}): a MILA saved game is one JSON "
                                "document, or one a line (.jsonl)") from None


def read_saved_game(data: Mapping[str, Any]) -> SavedGame:
    """The saved game `data` (as json.load gives it) in gm's terms."""
    if not isinstance(data, Mapping) or not isinstance(data.get("phases"), list):
        raise ImportProblem("not a MILA saved game: it has no list of phases")
    found = data.get("gm")
    extension: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    map_name = str(data.get("map", "standard"))
    variant_name = str(extension.get("variant", map_name))
    try:
        variant = get_variant(variant_name)
    except (KeyError, ValueError):
        raise ImportProblem(f"the map {map_name!r} is no variant gm knows") from None
    mila = variant.name == "standard"
    reader = _Reader(variant, mila)
    phases = []
    last_phase: Phase | None = None
    for number, item in enumerate(data["phases"], start=1):
        name = str(item.get("name", ""))
        where = f"phase {number} ({name or 'no name'})"
        if name == "COMPLETED":
            if last_phase is None:
                raise ImportProblem(f"{where}: a game cannot begin completed")
            phase = last_phase
        else:
            found = variant.calendar.parse(name)
            if found is None:
                raise ImportProblem(f"{where}: {name!r} is no phase of {variant.title} "
                                   "(S1901M, F1901R, W1901A)")
            phase = found
        last_phase = phase
        state = _state(reader, variant, item.get("state", {}), phase, where)
        adjusting = phase.type is PhaseType.ADJUSTMENT
        orders = {reader.power(p, where): [reader.order(o, adjusting) for o in listed or ()]
                  for p, listed in dict(item.get("orders", {})).items()}
        phases.append(SavedPhase(name, state, orders))
    if not phases:
        raise ImportProblem("the saved game has no phases")
    return SavedGame(str(data.get("id", "")), variant, tuple(phases))


@dataclass(frozen=True)
class Disagreement:
    """A phase where gm's adjudication does not reach the file's next position."""

    phase: str
    what: str


def _submitted(variant: Variant, state: GameState,
               orders: Mapping[str, Sequence[str]]) -> list[Submitted]:
    gmap = variant.map_for(state)
    out = []
    for power, lines in sorted(orders.items()):
        for text in lines:
            order = parse_order(text, gmap, state.phase.type, variant.order_kinds)
            if isinstance(order, OrderError):
                out.append(Submitted(power, text, None, order))
            else:
                out.append(Submitted(power, text, order))
    return out


def _units(state: GameState) -> list[str]:
    return sorted(f"{u.power} {u}" for u in state.units)


def replay(saved: SavedGame) -> list[Disagreement]:
    """Each phase adjudicated by gm from the file's position and orders, compared with the
    file's next phase: its name, units, dislodged units and centre owners."""
    variant = saved.variant
    found: list[Disagreement] = []
    state = saved.phases[0].state
    for here, nxt in zip(saved.phases, saved.phases[1:], strict=False):
        try:
            after = advance(variant, state, _submitted(variant, state, here.orders)).state
        except GameOver:
            found.append(Disagreement(here.name, "gm finds the game over before it"))
            break
        problems = []
        if nxt.name != "COMPLETED" and after.phase != nxt.state.phase:
            problems.append(f"gm goes on to {variant.calendar.short(after.phase)}, the file "
                            f"to {nxt.name}")
        if _units(after) != _units(nxt.state):
            extra = sorted(set(_units(after)) - set(_units(nxt.state)))
            missing = sorted(set(_units(nxt.state)) - set(_units(after)))
            problems.append(f"units: gm has {', '.join(extra) or 'none more'}, the file "
                            f"{', '.join(missing) or 'none more'}")
        if sorted(str(d.unit) for d in after.dislodged) != \
                sorted(str(d.unit) for d in nxt.state.dislodged):
            problems.append("dislodged units differ")
        if after.owners != nxt.state.owners:
            diff = sorted(c for c in set(after.owners) | set(nxt.state.owners)
                          if after.owners.get(c) != nxt.state.owners.get(c))
            problems.append(f"centre owners differ in {', '.join(diff)}")
        if problems:
            found.append(Disagreement(here.name, "; ".join(problems)))
            state = nxt.state  # go on from the file's position
        else:
            state = after  # gm's own (it knows where dislodged units' attackers came from)
    return found


def replay_lines(saved: SavedGame, found: Sequence[Disagreement]) -> list[str]:
    """What a replay found: each phase where gm disagrees, then the count."""
    count = len(saved.phases) - 1
    return [*(f"{d.phase}: {d.what}" for d in found),
            f"{count} phases replayed, {count - len(found)} agree, {len(found)} disagree"]


def start_position(saved: SavedGame) -> GameState:
    """The position a game imported from `saved` starts at: its last phase's (a retreat
    phase cannot be: where the attackers came from is not in the file)."""
    last = saved.phases[-1]
    if last.name == "COMPLETED":
        raise ImportProblem("the saved game is completed: there is no phase left to play "
                           "(a replay compares its phases: gm import --replay, or IMPORT "
                           "REPLAY by mail)")
    if last.state.phase.type is PhaseType.RETREAT:
        raise ImportProblem(f"its last phase, {last.name}, is a retreat phase: the file does "
                           "not say where the attackers came from; import a file that ends "
                           "before or after the retreats")
    return last.state


def create_imported_game(session: Session, saved: SavedGame, *, name: str, gm_address: str,
                         gm_password: str, now: datetime) -> GameRecord:
    """A game at the saved game's last position, paused: its powers have no players yet (the
    GM seats them with REPLACE and goes on with RESUME). GameNameTaken if the name is used."""
    state = start_position(saved)
    game = games_repo.create_game(session, name=name, variant=saved.variant.name,
                                  gm_address=gm_address,
                                  gm_password_hash=hash_password(gm_password), now=now,
                                  status=GameStatus.PAUSED)
    for power in saved.variant.power_names:
        powers_repo.add_power(session, game.id, power, now=now)
    phases_repo.open_phase(session, game.id, state, now=now,
                           deadline_at=deadline_after(game.settings, state.phase.type, now))
    audit.record_action(session, actor=gm_address, action="import", now=now, game_id=game.id,
                        details={"from": saved.game_id, "phase": saved.phases[-1].name})
    return game
