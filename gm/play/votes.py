"""Draw votes and concessions: kept for the phase they were cast in, and which draw passes.

njudge's rules (its help file `draws`): any draw vote, DIAS or NoDIAS, and any concession is
good for one phase only; all are cleared at the end of a phase. A vote is stored with the
phase it was cast in (its id and the moment it was cast, so that a phase a ROLLBACK opens
again does not count the votes of its first run): it counts only while that phase is open, and
the phase report tells each voter that it lapsed. Nothing has to be cleared.

A game is DIAS (draws include all survivors) unless its GM set NODIAS. In a DIAS game a draw
passes when every voting survivor voted SET DRAW. In a NoDIAS game each vote names a list:
a voter whose list names himself approves every subset of it that includes him; one whose
list leaves him out approves every subset of the list, alone or with him added; SET NO DRAW
approves only himself (a concession to him). The largest draw every voter approves passes;
a draw of one power is a concession to it. Votes are kept in the game's settings document
(gm.store.settings DRAW_VOTES_KEY, CONCESSIONS_KEY, NODIAS_KEY).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gm.store.rows import PhaseRecord
from gm.store.settings import CONCESSIONS_KEY, DRAW_VOTES_KEY, NODIAS_KEY, GameSettings


@dataclass(frozen=True)
class Vote:
    """A power's vote in the phase `phase_id`, cast `at`: a draw among `among` (None: every
    survivor; SET DRAW alone), or with `no` SET NO DRAW (NoDIAS: only himself), or a
    concession to `to`."""

    power: str
    phase_id: int
    at: datetime
    among: tuple[str, ...] | None = None
    no: bool = False
    to: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase_id, "at": self.at.isoformat(),
                "among": None if self.among is None else list(self.among), "no": self.no,
                "to": self.to}

    @property
    def command(self) -> str:
        """The vote as it is written: SET DRAW France, Italy; SET CONCEDE Turkey."""
        if self.to is not None:
            return f"SET CONCEDE {self.to}"
        if self.no:
            return "SET NO DRAW"
        return "SET DRAW" + ("" if self.among is None else " " + ", ".join(self.among))


def nodias(settings: GameSettings) -> bool:
    """Whether the game is NoDIAS (draws need not include all survivors; SET NODIAS)."""
    return settings.extra.get(NODIAS_KEY) is True


def _read(settings: GameSettings, key: str) -> list[Vote]:
    value: Any = settings.extra.get(key, {})
    found = []
    for power, entry in (value.items() if isinstance(value, dict) else ()):
        try:  # entries of older versions (no phase) or unreadable ones count for nothing
            among = entry["among"]
            found.append(Vote(str(power), int(entry["phase"]),
                              datetime.fromisoformat(entry["at"]),
                              None if among is None else tuple(str(p) for p in among),
                              bool(entry.get("no")),
                              None if entry.get("to") is None else str(entry["to"])))
        except (KeyError, TypeError, ValueError):
            continue
    return found


def current(votes: Sequence[Vote], phase: PhaseRecord) -> dict[str, Vote]:
    """The votes cast in `phase` while it has been open, by power."""
    return {v.power: v for v in votes if v.phase_id == phase.id and v.at >= phase.opened_at}


def draw_votes(settings: GameSettings, phase: PhaseRecord) -> dict[str, Vote]:
    """The draw votes that count in `phase`."""
    return current(_read(settings, DRAW_VOTES_KEY), phase)


def concessions(settings: GameSettings, phase: PhaseRecord) -> dict[str, Vote]:
    """The concessions that count in `phase`."""
    return current(_read(settings, CONCESSIONS_KEY), phase)


def with_vote(settings: GameSettings, key: str, power: str,
              vote: Vote | None) -> dict[str, Any]:
    """The settings' extra document with `power`'s vote under `key` (None removes it)."""
    value: Any = settings.extra.get(key, {})
    votes = dict(value) if isinstance(value, dict) else {}
    if vote is None:
        votes.pop(power, None)
    else:
        votes[power] = vote.to_json()
    return {**settings.extra, key: votes}


def passing_draw(alive: Sequence[str], voters: Sequence[str],
                 votes: Mapping[str, Vote], *, dias: bool) -> list[str] | None:
    """The draw that passes among the survivors `alive` (in order) when every one of `voters`
    (the survivors still played) has voted as `votes` say, or None. DIAS: every voter voted
    SET DRAW (a list naming every survivor counts too). NoDIAS: the largest set every voter
    approves (the module's rules); one power alone is a concession to it."""
    if not voters or any(v not in votes for v in voters):
        return None
    if dias:
        if all(not votes[v].no and set(alive) <= set(votes[v].among or alive)
               for v in voters):
            return list(alive)
        return None
    allowed = set(alive)  # every approved set lies within each voter's list (and him)
    required: set[str] = set()  # voters who named themselves are in every set they approve
    for voter in voters:
        vote = votes[voter]
        listed = set(alive) if vote.among is None else {voter} if vote.no else set(vote.among)
        allowed &= listed | {voter}
        if voter in listed:
            required.add(voter)
    if not allowed or not required <= allowed:
        return None
    return [p for p in alive if p in allowed]


def lapsed(settings: GameSettings, phase: PhaseRecord) -> dict[str, list[Vote]]:
    """The draw votes and concessions that were cast in `phase` (lapsing as it ends), by
    power."""
    found: dict[str, list[Vote]] = {}
    for votes in (draw_votes(settings, phase), concessions(settings, phase)):
        for power, vote in votes.items():
            found.setdefault(power, []).append(vote)
    return found


def lapse_note(votes: Sequence[Vote], phase: str, following: str) -> str:
    """What a voter's phase report says of the votes it cast in `phase`, which lapsed with it;
    `following`: the phase open next."""
    what = " and ".join(f"{'your concession' if v.to else 'your draw vote'} ({v.command})"
                        for v in votes)
    return (f"{what[0].upper()}{what[1:]} of {phase} lapsed with the phase: draw votes and "
            f"concessions hold for one phase only. Send {'them' if len(votes) > 1 else 'it'} "
            f"again in {following} to keep {'them' if len(votes) > 1 else 'it'}.")


def lapse_line(lapsed_votes: Mapping[str, Sequence[Vote]]) -> str:
    """The GM's line on the votes that lapsed with a phase ("" if none)."""
    if not lapsed_votes:
        return ""
    return "Votes that lapsed with the phase: " + ", ".join(
        f"{power} ({'; '.join(v.command for v in votes)})"
        for power, votes in sorted(lapsed_votes.items())) + "."
