"""A game's record as a MILA saved game (the `diplomacy` package's `to_saved_game_format`:
id, map, rules, and each phase's name, state, orders, results and messages), with gm's own
block under the key "gm" (docs/game-record.md says every field).

The standard map is written in the package's names (powers in capitals, `STP/SC`, `EAS`,
`WES`, builds `A PAR B`, removals `A PAR D`, `WAIVE`), so that its
`from_saved_game_format` loads the game and replays it. A variant keeps gm's names (its map
name, powers, provinces and orders as gm writes them) in the same shape.

Each copy holds the press its reader may see (`Reader`): a player's never another power's
private press, grey press unsigned (but the sender's own), the GM's all of it with every
sender named, an observer's and the public's only what was sent to everyone (the public's
without grey press). Addresses appear only in the GM's copy and, unless the game is QUIET, a
player's (who played each power when).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gm.engine.phase import PhaseType
from gm.engine.retreats import retreat_options
from gm.engine.rulebook import rulebook_of
from gm.engine.state import GameState
from gm.engine.units import NEUTRAL
from gm.play.absences import absences
from gm.play.played_game import PlayedGame
from gm.store import press as press_repo
from gm.store.rows import PhaseRecord, PressRecord, StoredResult

FORMAT = "gm-mila-extension/1"
_STANDARD_NAMES = {"EMS": "EAS", "WMS": "WES"}


@dataclass(frozen=True)
class Reader:
    """Whose copy: "gm", "player" (of `power`), "observer", "public" (the web archive: white
    press sent to everyone) or "outsider" (no press)."""

    audience: str
    power: str | None = None

    @property
    def name(self) -> str:
        return self.power or self.audience


@dataclass(frozen=True)
class ShownPress:
    """One press as a reader sees it: `sender` None for grey press kept from them, `to`
    empty for everyone."""

    phase_id: int | None
    sender: str | None
    to: tuple[str, ...]
    grey: bool
    body: str
    sent_at: datetime


def visible_press(press: PressRecord, reader: Reader) -> ShownPress | None:
    """`press` as `reader` may see it, or None if it is not theirs to see."""
    if reader.audience == "outsider":
        return None
    marks = (press_repo.OBSERVERS, press_repo.GM_COPY)
    to = tuple(t for t in press.to_powers if t not in marks)
    sender = press.from_power or "GM"
    if reader.audience == "gm":
        return ShownPress(press.phase_id, sender, () if press.broadcast else to,
                          press.anonymous, press.body, press.sent_at)
    own = reader.power is not None and press.from_power == reader.power
    if press.broadcast:
        if reader.audience == "public" and press.anonymous:
            return None
        return ShownPress(press.phase_id, sender if own or not press.anonymous else None, (),
                          press.anonymous, press.body, press.sent_at)
    if reader.audience == "observer" and press_repo.OBSERVERS in press.to_powers:
        return ShownPress(press.phase_id, None if press.anonymous else sender, ("Observers",),
                          press.anonymous, press.body, press.sent_at)
    if reader.audience != "player" or reader.power is None:
        return None
    if own:
        return ShownPress(press.phase_id, sender, to, press.anonymous, press.body,
                          press.sent_at)
    if reader.power in press.to_powers:
        # grey or fake press: neither the sender nor the true recipients are the reader's
        shown_to = (reader.power,) if press.anonymous else to
        return ShownPress(press.phase_id, None if press.anonymous else sender, shown_to,
                          press.anonymous, press.body, press.sent_at)
    return None


def shows_addresses(played: PlayedGame, reader: Reader) -> bool:
    """The GM's copy names the players; a player's too, unless the game is QUIET."""
    return reader.audience == "gm" or (reader.audience == "player"
                                       and not played.game.settings.quiet)


# -- names ----------------------------------------------------------------------------------
class _Names:
    """gm's names as the record writes them: the MILA package's on the standard map."""

    def __init__(self, played: PlayedGame) -> None:
        self.mila = played.variant.name == "standard"
        self.variant = played.variant

    def power(self, name: str) -> str:
        return name.upper() if self.mila else name

    def place(self, text: str) -> str:
        if not self.mila:
            return text
        province, _, coast = text.partition("/")
        province = _STANDARD_NAMES.get(province, province).upper()
        return f"{province}/{coast.upper()}" if coast else province

    def unit(self, text: str) -> str:
        """`F StP/sc` -> `F STP/SC`."""
        kind, _, where = text.partition(" ")
        return f"{kind} {self.place(where)}" if where else self.place(text)

    def phase(self, record_phase: Any) -> str:
        return str(self.variant.calendar.short(record_phase))

    def order(self, canonical: str, state: GameState) -> str:
        """A canonical gm order in the record's words."""
        if not self.mila:
            return canonical
        words = canonical.split()
        if words[0] == "Build":
            return f"{self.unit(' '.join(words[1:3]))} B"
        if words[0] == "Remove":
            return f"{self.unit(' '.join(words[1:3]))} D"
        if words[0] == "Waive":
            return "WAIVE"
        out: list[str] = []
        i = 0
        while i < len(words):
            word = words[i]
            if word == "via" and words[i + 1:i + 2] == ["convoy"]:
                out.append("VIA")
                i += 2
                continue
            if word in ("A", "F") or word in ("-", "S", "C", "H", "R", "D"):
                out.append(word)
            else:  # a place; a support or convoy target without its kind gets the unit's
                if out and out[-1] in ("S", "C"):
                    unit = state.unit_in(word.partition("/")[0])
                    if unit is not None:
                        out.append(str(unit.type))
                out.append(self.place(word))
            i += 1
        return " ".join(out)


# -- the record -----------------------------------------------------------------------------
def _micro(moment: datetime | None) -> int:
    return 0 if moment is None else int(moment.timestamp() * 1_000_000)


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _orders_of(record: PhaseRecord) -> list[StoredResult]:
    """The results of the record's own phase (a step may pass through retreats or builds
    nobody had a choice in): those whose orders belong to its kind, void ones left out."""
    kind = record.phase.type
    out = []
    for r in record.results or ():
        if r.canonical is None or r.outcome.value == "illegal":
            continue
        words = r.canonical.split()
        adjusting = words[0] in ("Build", "Remove", "Waive")
        retreating = len(words) >= 3 and words[2] in ("R", "D") and not adjusting
        if (kind is PhaseType.ADJUSTMENT and adjusting) or \
                (kind is PhaseType.RETREAT and retreating) or \
                (kind is PhaseType.MOVEMENT and not adjusting and not retreating):
            out.append(r)
    return out


def _result_codes(result: StoredResult) -> list[str]:
    """The MILA package's result words for one of gm's results (its `order_results`)."""
    codes: list[str] = []
    canonical = result.canonical or ""
    if result.outcome.value == "illegal":
        codes.append("void")
    elif result.outcome.value == "fails":
        if " S " in canonical:
            codes.append("cut")
        elif " C " in canonical:
            codes.append("disrupted")
        elif " - " in canonical or " R " in canonical:
            codes.append("no convoy" if "no convoy" in result.reason else "bounce")
    if result.dislodged_by is not None:
        codes.append("dislodged")
    return codes


def _unit_of(canonical: str) -> str:
    words = canonical.split()
    if words[0] in ("Build", "Remove"):
        return " ".join(words[1:3])
    if words[0] == "Waive":
        return "WAIVE"
    return " ".join(words[:2])


class _Influence:
    """The MILA package's `influence`: each province a power's unit last stood in, and its
    centres."""

    def __init__(self) -> None:
        self.by_province: dict[str, str] = {}

    def update(self, state: GameState) -> dict[str, list[str]]:
        for province, owner in state.owners.items():
            self.by_province[province] = owner
        for unit in state.units:
            self.by_province[unit.province] = unit.power
        out: dict[str, list[str]] = {}
        for province, power in sorted(self.by_province.items()):
            out.setdefault(power, []).append(province)
        return out


def _state(played: PlayedGame, names: _Names, state: GameState, name: str, opened: datetime,
           influence: _Influence, rules: list[str]) -> dict[str, Any]:
    variant = played.variant
    powers = [p for p in variant.power_names]
    gmap = variant.map_for(state)
    units: dict[str, list[str]] = {names.power(p): [] for p in powers}
    retreats: dict[str, dict[str, list[str]]] = {names.power(p): {} for p in powers}
    for u in sorted(state.units):
        if u.power != NEUTRAL:
            units.setdefault(names.power(u.power), []).append(names.unit(str(u)))
    for d in state.dislodged:
        if d.unit.power == NEUTRAL:
            continue
        key = names.unit(str(d.unit))
        units.setdefault(names.power(d.unit.power), []).append(f"*{key}")
        places = [names.place(str(p)) for p in retreat_options(gmap, state, d)]
        retreats.setdefault(names.power(d.unit.power), {})[key] = places
    centres = {names.power(p): [names.place(c) for c in state.centres_of(p)] for p in powers}
    homes = {names.power(p): [names.place(h) for h in state.homes.get(p, ())] for p in powers}
    spread = influence.update(state)
    builds: dict[str, dict[str, Any]] = {}
    for p in powers:
        count = 0
        sites: list[str] = []
        if state.phase.type is PhaseType.ADJUSTMENT:
            count = len(state.centres_of(p)) - len(state.units_of(p))
            if count > 0:
                taken = {u.province for u in state.units}
                sites = [names.place(h) for h in state.homes.get(p, ())
                         if state.owners.get(h) == p and h not in taken]
                count = min(count, len(sites))
        builds[names.power(p)] = {"count": count, "homes": sites}
    disorder = {names.power(p): int(played.statuses.get(p) == "civil_disorder")
                for p in powers}
    return {
        "timestamp": _micro(opened), "note": "", "name": name, "units": units,
        "retreats": retreats, "centers": centres, "homes": homes,
        "influence": {names.power(p): [names.place(x) for x in spread.get(p, [])]
                      for p in powers},
        "civil_disorder": disorder, "builds": builds, "game_id": played.game.name,
        "map": _map_name(played), "rules": rules,
    }


def _map_name(played: PlayedGame) -> str:
    return played.variant.name


def _rules(played: PlayedGame) -> list[str]:
    rules = ["POWER_CHOICE"]
    if played.game.settings.press.value == "none":
        rules.insert(0, "NO_PRESS")
    return rules


def mila_record(played: PlayedGame, reader: Reader) -> dict[str, Any]:
    """The record as `reader` may see it (JSON-ready values)."""
    names = _Names(played)
    rules = _rules(played)
    influence = _Influence()
    shown = [s for p in played.press if (s := visible_press(p, reader)) is not None]
    first_id = played.phases[0].id if played.phases else None
    by_phase: dict[int | None, list[ShownPress]] = {}
    for s in shown:
        by_phase.setdefault(s.phase_id if s.phase_id is not None else first_id, []).append(s)
    phases: list[dict[str, Any]] = []
    used: set[int] = set()
    for record in played.phases:
        name = names.phase(record.phase)
        state = _state(played, names, record.state, name, record.opened_at, influence, rules)
        orders: dict[str, list[str]] = {names.power(p): [] for p in played.variant.power_names}
        results: dict[str, list[str]] = {}
        if record.adjudicated:
            for r in _orders_of(record):
                orders.setdefault(names.power(r.power), []).append(
                    names.order(r.canonical or "", record.state))
            for r in record.results or ():
                if r.canonical is not None:
                    key = names.unit(_unit_of(r.canonical))
                    results.setdefault(key, []).extend(
                        c for c in _result_codes(r) if c not in results.get(key, []))
        messages = []
        for s in by_phase.get(record.id, ()):
            if s.sender is None or (s.grey and reader.audience != "gm"):
                continue
            for to in s.to or ("GLOBAL",):
                if to in ("GM", "Observers"):
                    continue
                stamp = max(_micro(s.sent_at), max(used, default=0) + 1)
                used.add(stamp)
                messages.append({
                    "sender": "SYSTEM" if s.sender == "GM" else names.power(s.sender),
                    "recipient": to if to == "GLOBAL" else names.power(to),
                    "time_sent": stamp, "phase": name, "message": s.body})
        phases.append({"name": name, "state": state, "orders": orders, "results": results,
                       "messages": messages})
    if played.final is not None:
        state = _state(played, names, played.final, "COMPLETED", played.at, influence, rules)
        phases.append({"name": "COMPLETED", "state": state,
                       "orders": {names.power(p): [] for p in played.variant.power_names},
                       "results": {}, "messages": []})
    return {"id": played.game.name, "map": _map_name(played), "rules": rules,
            "phases": phases, "gm": _extension(played, reader, names, shown)}


def _extension(played: PlayedGame, reader: Reader, names: _Names,
               shown: list[ShownPress]) -> dict[str, Any]:
    game, variant = played.game, played.variant
    by_id = {r.id: r for r in played.phases}
    final = played.final
    outcome: dict[str, Any] = {"status": game.status.value}
    if played.ending is not None:
        how, powers = played.ending
        outcome["ended_by"] = how
        outcome["draw" if how == "draw" else "winners"] = [names.power(p) for p in powers]
    if final is not None and played.ending is None:
        outcome["ended_by"] = "solo" if final.winners else "board"
        outcome["winners"] = [names.power(w) for w in final.winners]
        outcome["centres"] = {names.power(p): len(final.centres_of(p))
                              for p in variant.power_names}
    players = played.players_shown if shows_addresses(played, reader) \
        else played.players_numbered
    return {
        "format": FORMAT,
        "copy_for": reader.name,
        "game": game.name,
        "variant": variant.name,
        "variant_title": variant.title,
        "variant_digest": game.variant_digest,
        "rulebook": rulebook_of(played.phases[0].state) if played.phases else None,
        "press_setting": game.settings.press.value,
        "quiet": game.settings.quiet,
        "created_at": _iso(game.created_at),
        "outcome": outcome,
        "phases": [{
            "name": names.phase(r.phase), "long_name": played.name_of(r),
            "opened_at": _iso(r.opened_at), "deadline_at": _iso(r.deadline_at),
            "adjudicated_at": _iso(r.adjudicated_at),
            "no_orders": [names.power(p) for p in played.missed.get(r.id, ())],
            "events": list(r.events or ()),
        } for r in played.phases],
        "players": {names.power(p): list(lines) for p, lines in players.items()},
        "seat_events": [{"power": names.power(e.power), "what": e.what, "phase": e.phase}
                        for e in played.seat_events],
        # days away (SET ABSENCE) as kept: the GM's copy all, a player's their own
        "absences": [{**a.to_json(), "power": names.power(a.power)}
                     for a in absences(game.settings)
                     if reader.audience == "gm" or a.power == reader.power],
        "press": [{
            "phase": names.phase(by_id[s.phase_id].phase) if s.phase_id in by_id else None,
            "from": None if s.sender is None else
            ("GM" if s.sender == "GM" else names.power(s.sender)),
            "to": [t if t in ("GM", "Observers") else names.power(t) for t in s.to] or
            "everyone",
            "grey": s.grey, "body": s.body, "sent_at": _iso(s.sent_at),
        } for s in shown],
    }


def record_bytes(played: PlayedGame, reader: Reader) -> bytes:
    """The record as a JSON file."""
    return (json.dumps(mila_record(played, reader), ensure_ascii=False, indent=1) +
            "\n").encode("utf-8")


def record_filename(game: str) -> str:
    return f"{game.lower()}-record.json"
