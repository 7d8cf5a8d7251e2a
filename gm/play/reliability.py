"""A player's reliability record across the server's games, read back from what the store keeps
(nothing is recorded for it): who held each power when (gm.play.seating, from the audit log),
each phase's deadline and the orders each power sent (their arrival time).

For each phase an address held a power in and the power had a choice to make (gm.play.reports
`has_choice`), the phase counts as ordered in time (valid orders arrived by the deadline, or
the phase had none), late (valid orders only after it) or missed (no valid orders). A seat ends
at the player's RESIGN, at civil disorder (the phase missed last counts), or when the GM gives
the power to someone else (REPLACE, EJECT, TAKEOVER); such a seat counts as abandoned. A seat
held to the end of a finished game counts as finished, and one taken over after the start
(REPLACE, REPLACE ... STANDBY, TAKEOVER) as a replacement taken.

njudge keeps the like as its "plyrdata" (on-time phases, total, games started, resignations,
take-overs: `index`, RECORD and GET DEDICATION) and lets a GM ask for an on-time ratio to join
(SET ONTIMERAT); here the GM asks with SET JOIN ONTIME <n>%.

A quiet game (SET QUIET) not yet revealed counts in the totals, but is never named: the record
does not say who played what in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from gm.play.reports import has_choice
from gm.play.seating import Stint, addresses_hidden, seats_over_time
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.powers import address_key
from gm.store.reliability import games_of
from gm.store.rows import GameRecord, OrderSetRecord, PhaseRecord
from gm.store.statuses import GameStatus
from gm.variants import Variant, get_variant

FINISHED, ABANDONED, UNDER_WAY = "finished", "abandoned", "under way"
_TAKEN_OVER = ("REPLACE", "STANDBY", "TAKEOVER")


@dataclass
class GameLine:
    """An address's part in one game: its powers, its phases and how its seat ended."""

    game: str
    powers: list[str] = field(default_factory=list)
    in_time: int = 0
    late: int = 0
    missed: int = 0
    outcome: str = UNDER_WAY
    replacements: int = 0
    hidden: bool = False  # a quiet game not revealed: never named

    @property
    def phases(self) -> int:
        return self.in_time + self.late + self.missed


@dataclass(frozen=True)
class Record:
    """An address's record over the server's games (see the module's docstring)."""

    address: str
    games: tuple[GameLine, ...]

    @property
    def in_time(self) -> int:
        return sum(g.in_time for g in self.games)

    @property
    def late(self) -> int:
        return sum(g.late for g in self.games)

    @property
    def missed(self) -> int:
        return sum(g.missed for g in self.games)

    @property
    def phases(self) -> int:
        return self.in_time + self.late + self.missed

    @property
    def replacements(self) -> int:
        return sum(g.replacements for g in self.games)

    def count(self, outcome: str) -> int:
        return sum(g.outcome == outcome for g in self.games)

    @property
    def on_time(self) -> int | None:
        """The share of phases ordered in time, in whole per cent (None: no phase yet)."""
        return None if not self.phases else self.in_time * 100 // self.phases


def record_of(session: Session, address: str) -> Record:
    """`address`'s record over every game of the server that has started."""
    lines = []
    for game_id in games_of(session, address):
        game = games_repo.get_game(session, game_id)
        if game.status is GameStatus.FORMING:
            continue
        try:
            variant = get_variant(game.variant)
        except Exception:  # a variant file no longer installed: its games cannot be read
            continue
        line = _game_line(session, game, variant, address_key(address))
        if line is not None:
            lines.append(line)
    return Record(address, tuple(lines))


def _game_line(session: Session, game: GameRecord, variant: Variant,
               key: str) -> GameLine | None:
    phases = phases_repo.history(session, game.id)
    if not phases:
        return None
    names = [variant.format_phase(p.phase) for p in phases]
    sets = orders_repo.order_sets_for_game(session, game.id)
    line = GameLine(game.name, hidden=addresses_hidden(game))
    found = False
    for power, seats in seats_over_time(session, game, variant, phases).items():
        stints = _since_the_start(seats.stints)
        for at, stint in enumerate(stints):
            if key not in {address_key(a) for a in stint.addresses}:
                continue
            found = True
            if power not in line.powers:
                line.powers.append(power)
            first = _index(names, stint.since, 0)
            ended_by_other = at + 1 < len(stints)
            end = _index(names, stints[at + 1].since, len(phases)) if ended_by_other \
                else len(phases)
            # the seat's own end: a resignation (phases from its phase on are not the
            # player's) or civil disorder (the phase it fell in counts, missed)
            left = None
            for order, what, phase in seats.events:
                where = _index(names, phase, -1)
                if order > stint.order and first <= where < end:
                    left = (what, where)
                    break
            if left is not None:
                end = left[1] + (1 if left[0] == "civil disorder" else 0)
            _count(line, variant, power, phases[first:end], sets)
            if stint.since is not None and stint.how in _TAKEN_OVER:
                line.replacements += 1
            if left is not None or ended_by_other:
                line.outcome = ABANDONED
            elif game.status is GameStatus.FINISHED and line.outcome != ABANDONED:
                line.outcome = FINISHED
    return line if found else None


def _count(line: GameLine, variant: Variant, power: str, phases: list[PhaseRecord],
           sets: dict[int, list[OrderSetRecord]]) -> None:
    """Count `power`'s adjudicated `phases` with a choice into `line`."""
    for phase in phases:
        if not phase.adjudicated or not has_choice(variant, phase.state, power):
            continue
        sent = [s for s in sets.get(phase.id, ()) if s.power == power and s.valid]
        if any(phase.deadline_at is None or s.submitted_at <= phase.deadline_at
               for s in sent):
            line.in_time += 1
        elif sent:
            line.late += 1
        else:
            line.missed += 1


def _index(names: list[str], name: str | None, default: int) -> int:
    if name is None:
        return 0
    return names.index(name) if name in names else default


def _since_the_start(stints: list[Stint]) -> list[Stint]:
    """`stints` with those begun before the game's start as one: the last of them."""
    before = [s for s in stints if s.since is None]
    after = [s for s in stints if s.since is not None]
    return ([Stint(before[-1].addresses, None, "", 0)] if before else []) + after


def summary_line(record: Record) -> str:
    """The record in one sentence, as the GM and the player are shown it."""
    if not record.games:
        return f"{record.address}: no game on this server yet."
    games = len(record.games)
    parts = [f"{games} game{'s' if games != 1 else ''} ("
             + ", ".join(f"{record.count(o)} {o}" for o in (FINISHED, ABANDONED, UNDER_WAY)
                         if record.count(o)) + ")"]
    if record.replacements:
        parts.append(f"{record.replacements} replacement{'s' if record.replacements != 1 else ''}"
                     " taken")
    ratio = record.on_time
    if ratio is None:
        parts.append("no phase to order yet")
    else:
        parts.append(f"{record.phases} phase{'s' if record.phases != 1 else ''} to order: "
                     f"{record.in_time} in time, {record.late} late, {record.missed} missed "
                     f"({ratio}% in time)")
    return f"{record.address}: " + "; ".join(parts) + "."


def game_lines(record: Record) -> list[str]:
    """One line a game, oldest first; quiet games not revealed are counted, not named."""
    out = []
    hidden = 0
    for g in record.games:
        if g.hidden:
            hidden += 1
            continue
        taken = f", {g.replacements} taken over" if g.replacements else ""
        out.append(f"{g.game} ({', '.join(g.powers)}{taken}): {g.phases} "
                   f"phase{'s' if g.phases != 1 else ''}, {g.in_time} in time, {g.late} late, "
                   f"{g.missed} missed; {g.outcome}")
    if hidden:
        out.append(f"{hidden} quiet game{'s' if hidden != 1 else ''}, counted above but not "
                   "named")
    return out


def record_line(session: Session, address: str) -> str:
    """The line the GM reads of a player: "Record: ..."."""
    return f"Record: {summary_line(record_of(session, address))}"
