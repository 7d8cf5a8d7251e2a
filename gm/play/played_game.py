"""A game's whole history read once, for the files made of it (the MILA record, the one-file
history, the animation, the web archive): the phases with their positions, the orders that
were adjudicated, the press, who played each power when, and the position after the last
phase of a game that is over (not stored: computed again, or taken from the adjudication that
ended it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.orm import Session

from gm.engine.game import advance
from gm.engine.state import GameState
from gm.play.adjudicate import Adjudication, submissions
from gm.play.seating import players_lines, seats_over_time
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, PhaseRecord, PressRecord
from gm.store.statuses import GameStatus
from gm.variants import Variant, get_variant


@dataclass(frozen=True)
class SeatEvent:
    """A power's seat changing or its player failing: `what` ("ADD", "REPLACE", "resigned",
    "civil disorder", ...), in `phase` (None: before the start)."""

    power: str
    what: str
    phase: str | None


@dataclass(frozen=True)
class PlayedGame:
    """Everything the game files are made of (addresses only in `players_shown`, kept apart
    from the rest so that a public file never holds one)."""

    game: GameRecord
    variant: Variant
    phases: tuple[PhaseRecord, ...]
    final: GameState | None  # the position after the last phase, when the game is over
    press: tuple[PressRecord, ...]
    # each power's players over time, as SUMMARY says it: with addresses, and numbered
    players_shown: dict[str, tuple[str, ...]]
    players_numbered: dict[str, tuple[str, ...]]
    seat_events: tuple[SeatEvent, ...]
    missed: dict[int, tuple[str, ...]]  # phase id -> the powers that had no orders in
    statuses: dict[str, str]  # power -> its status now
    at: datetime  # when the history was read
    # how the game ended other than by the board: ("draw", the powers), ("concede", the
    # winner), ("terminate", ()); None otherwise
    ending: tuple[str, tuple[str, ...]] | None = None

    @property
    def over(self) -> bool:
        return self.final is not None

    def name_of(self, record: PhaseRecord) -> str:
        return self.variant.format_phase(record.phase)


def played_game(session: Session, game_id: int, *, done: Adjudication | None = None,
                now: datetime | None = None) -> PlayedGame:
    """The history of the game; `done`: an adjudication not written down yet (its results and
    the position after it count as recorded)."""
    game = games_repo.get_game(session, game_id) if done is None else done.game
    variant = get_variant(game.variant) if done is None else done.variant
    history = list(phases_repo.history(session, game_id))
    final: GameState | None = None
    if done is not None:
        rows = tuple(r for found in done.results for r in found)
        history = [replace(r, results=rows, events=tuple(done.step.events),
                           adjudicated_at=done.at) if r.id == done.phase.id else r
                   for r in history]
        if done.next_phase is None:
            final = done.step.state
        elif not any(r.id == done.next_phase.id for r in history):
            history.append(done.next_phase)
    elif history and history[-1].adjudicated and (
            game.status is GameStatus.FINISHED or history[-1].state.finished):
        last = history[-1]
        final = advance(variant, last.state, submissions(session, variant, last)).state
    if final is not None and game.status is not GameStatus.FINISHED:
        game = replace(game, status=GameStatus.FINISHED)
    used = orders_repo.latest_valid_orders_of_phases(session, [r.id for r in history])
    missed = {r.id: _missed(r, set(used.get(r.id, {}))) for r in history}
    seats = seats_over_time(session, game, variant, history)
    events = tuple(SeatEvent(power, stint.how, stint.since)
                   for power, found in seats.items() for stint in found.stints if stint.how)
    events += tuple(SeatEvent(power, what, phase) for power, found in seats.items()
                    for _, what, phase in found.events)
    shown = {p.power: p.lines for p in players_lines(session, game, variant, history,
                                                      addresses=True)}
    numbered = {p.power: p.lines for p in players_lines(session, game, variant, history,
                                                         addresses=False)}
    statuses = {p.name: p.status.value for p in powers_repo.list_powers(session, game_id)}
    return PlayedGame(game, variant, tuple(history), final,
                      tuple(press_repo.list_press(session, game_id)), shown, numbered, events,
                      missed, statuses, now or (done.at if done is not None else game.updated_at),
                      _ending(session, game))


def _ending(session: Session, game: GameRecord) -> tuple[str, tuple[str, ...]] | None:
    """How a finished game ended by a vote or the GM (the audit log's last such entry)."""
    if game.status is not GameStatus.FINISHED:
        return None
    found = None
    for entry in audit.audit_log(session, game_id=game.id):
        if entry.action == "draw":
            found = ("draw", tuple(str(p) for p in entry.details.get("powers", ())))
        elif entry.action == "concede":
            found = ("concede", (str(entry.details.get("winner")),))
        elif entry.action == "terminate":
            found = ("terminate", ())
    return found


def _missed(record: PhaseRecord, ordered: set[str]) -> tuple[str, ...]:
    """The powers that had something to order in the adjudicated phase and sent nothing."""
    if not record.adjudicated or record.results is None:
        return ()
    told = {r.power for r in record.results
            if r.reason.startswith(("no order", "no retreat order"))}
    return tuple(sorted(told - ordered))


def phase_names(played: PlayedGame) -> Sequence[str]:
    return [played.name_of(r) for r in played.phases]
