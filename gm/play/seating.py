"""Who played each power when: a game's seats over time, read back from the audit log (ADD,
REPLACE, REPLACE ... STANDBY, EJECT, seating by preference, RESIGN, civil disorder at a
deadline) and the powers' present players, for SUMMARY and REVEAL.

The log is read from the newest entry back: each seat change says who held the power before
it (ADD and seating by preference: nobody, unless the entry names the previous players), so
the first stint is whoever held the power when the log begins. Each change is dated by the
phase open when it was logged: the log's START opens the first phase, each PROCESS (the GM's
or at a deadline) the phase after the one it names, each ROLLBACK the phase it names. Changes
before the start count as "from the start". In a quiet game whose players are not revealed
(gm.store.settings), players are shown as "player 1", "player 2", ... numbered across the game
(each seat taken gets the next number: those held from the start in the order of the powers,
then the later ones as they began), and addresses only to the GM.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from gm.store import audit
from gm.store import powers as powers_repo
from gm.store.rows import AuditRecord, GameRecord, PhaseRecord
from gm.store.statuses import GameStatus
from gm.variants import Variant

# Audit actions that seat a player (or nobody) on a power: its details name the power and the
# new address ("address"); "previous" (when present) who held it before.
BOT_SEAT = "ADD BOT"  # a stint's `how` when ADD <power> BOT seated the bot
_SEATING = {"add": "ADD", "replace": "REPLACE", "eject": "EJECT", "takeover": "TAKEOVER"}


@dataclass(frozen=True)
class Stint:
    """One player's (or nobody's) time on a power, from the phase `since` (None: the start)."""

    addresses: tuple[str, ...]
    since: str | None
    how: str  # "", "ADD", "REPLACE", "STANDBY", "EJECT", "JOIN PREFER", "TAKEOVER"
    order: int  # the audit entry that began it (0: the first stint)


@dataclass
class Seats:
    """A power's stints, oldest first, and its resignations and civil disorders."""

    stints: list[Stint] = field(default_factory=list)
    # (the audit entry, what: "resigned", "civil disorder", the phase)
    events: list[tuple[int, str, str | None]] = field(default_factory=list)


def addresses_hidden(game: GameRecord) -> bool:
    """Whether players may not see one another's addresses: a quiet game not yet revealed (a
    finished game is revealed at its end)."""
    settings = game.settings
    return settings.quiet and not settings.revealed and game.status is not GameStatus.FINISHED


def _phases_of(entries: Sequence[AuditRecord], variant: Variant,
               phases: Sequence[PhaseRecord]) -> dict[int, str | None]:
    """Each entry's phase: the one open when it was logged (None: before the start)."""
    names = [variant.format_phase(p.phase) for p in phases]
    plain = [str(p.phase) for p in phases]

    def index_of(name: object) -> int | None:
        for found in (names, plain):
            if name in found:
                return found.index(str(name))
        return None

    out: dict[int, str | None] = {}
    at: int | None = None
    for entry in entries:
        out[entry.id] = None if at is None or at >= len(names) else names[at]
        if entry.action == "start":
            at = 0
        elif entry.action in ("process", "rollback"):
            done = index_of(entry.details.get("phase"))
            if done is not None:
                at = done + 1 if entry.action == "process" else done
    return out


def seats_over_time(session: Session, game: GameRecord, variant: Variant,
                    phases: Sequence[PhaseRecord]) -> dict[str, Seats]:
    """Each power of `game`'s stints and events (see the module's docstring)."""
    current = {p.name: p.addresses for p in powers_repo.list_powers(session, game.id)}
    seats = {name: Seats() for name in variant.power_names}
    entries = audit.audit_log(session, game_id=game.id)
    when = _phases_of(entries, variant, phases)
    standby = {(e.inbound_id, e.at, str(e.details.get("power"))) for e in entries
               if e.action == "replace from standby"}
    for entry in reversed(entries):
        _undo(entry, when[entry.id], current, seats, standby)
    for name, found in seats.items():
        found.stints.insert(0, Stint(tuple(current.get(name, ())), None, "", 0))
        found.events.reverse()
    return seats


def _undo(entry: AuditRecord, phase: str | None, current: dict[str, tuple[str, ...]],
          seats: dict[str, Seats], standby: set[tuple[int | None, datetime, str]]) -> None:
    """Walk back over one log entry: the stint it began is put in `seats`, and `current`
    becomes who held the powers before it."""
    details = entry.details
    if entry.action in _SEATING:
        power = str(details.get("power"))
        if power not in seats:
            return
        how = BOT_SEAT if details.get("bot") else _SEATING[entry.action]
        if how == "REPLACE" and (entry.inbound_id, entry.at, power) in standby:
            how = "STANDBY"
        seats[power].stints.insert(
            0, Stint(tuple(current.get(power, ())), phase, how, entry.id))
        current[power] = tuple(str(a) for a in details.get("previous", ()))
    elif entry.action == "seat by preference":
        for seated in details.get("order", ()):
            power = str(seated.get("power"))
            if power in seats:
                seats[power].stints.insert(
                    0, Stint(tuple(current.get(power, ())), phase, "JOIN PREFER", entry.id))
                current[power] = ()
    elif entry.action == "resign":
        power = str(details.get("power"))
        if power in seats:
            seats[power].events.append((entry.id, "resigned", phase))
    elif entry.action == "process":
        for power in details.get("disorder", ()):
            if power in seats:
                seats[power].events.append(
                    (entry.id, "civil disorder", str(details.get("phase") or phase)))


@dataclass(frozen=True)
class PowerPlayers:
    """What SUMMARY and REVEAL show of one power: its lines, oldest first."""

    power: str
    lines: tuple[str, ...]


def players_lines(session: Session, game: GameRecord, variant: Variant,
                  phases: Sequence[PhaseRecord], *, addresses: bool) -> list[PowerPlayers]:
    """Each power's players over time as lines of text: addresses when `addresses`, else
    "player 1", "player 2", ... numbered across the game, so that one number is one seat
    (and "nobody" for an empty seat)."""
    found_seats = seats_over_time(session, game, variant, phases)
    seats = {power: _from_the_start(found.stints) for power, found in found_seats.items()}
    taken = [(stint.order, at, power) for at, (power, stints) in enumerate(seats.items())
             for stint in stints if stint.addresses or _bot(stint)]
    number = {(power, order): n for n, (order, _, power) in enumerate(sorted(taken), start=1)}
    out = []
    for power, found in found_seats.items():
        told: list[tuple[int, str]] = []
        for stint in seats[power]:
            if _bot(stint) and addresses:
                who = "the bot"
            elif not stint.addresses and not _bot(stint):
                who = "nobody"
            elif addresses:
                who = ", ".join(stint.addresses)
            else:
                who = f"player {number[(power, stint.order)]}"
            since = "from the start" if stint.since is None else f"from {stint.since}"
            how = f" ({stint.how})" if stint.how else ""
            if _bot(stint):  # told as an ADD, or, from the start, as any player's seat
                how = "" if stint.since is None else " (ADD)"
            told.append((stint.order, f"{who} {since}{how}"))
        told.extend((order, f"{what} in {phase or 'before the start'}")
                    for order, what, phase in found.events)
        told.sort(key=lambda t: t[0])
        out.append(PowerPlayers(power, tuple(text for _, text in told)))
    return out


def _bot(stint: Stint) -> bool:
    """A stint of the bot (ADD <power> BOT: an ADD that seats no address); a QUIET game's
    players see it as any player's."""
    return stint.how == BOT_SEAT


def _from_the_start(stints: list[Stint]) -> list[Stint]:
    """`stints` with those begun before the game's start as one: the last of them, held from
    the start."""
    count = 0
    while count < len(stints) and stints[count].since is None:
        count += 1
    before, after = stints[:count], stints[count:]
    kept = BOT_SEAT if before and _bot(before[-1]) else ""
    return [Stint(before[-1].addresses, None, kept, 0), *after] if before else after
