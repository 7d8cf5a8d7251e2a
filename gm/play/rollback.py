"""Roll a game back to an earlier phase (the GM's ROLLBACK; njudge `data/master`).

`roll_back` reopens the phase asked for (by njudge's turn number, 1 the first phase; by a test
of the phase; or, with neither, the phase before the current one): the later phases and their
orders go (kept in the audit log), the phase's own orders stand, a finished game plays again,
and everyone in the game is told (the observers had the withdrawn report). It gives
`RolledBack`, with the mail to send, or `RollbackRefused` with why; the words are the
caller's (gm.commands.catalog.rollback).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.play.deadlines import deadline_after, show
from gm.play.everyone import notices_to_game
from gm.play.render import render
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus
from gm.variants import get_variant


class Refusal(StrEnum):
    """Why a game is not rolled back."""

    NOT_STARTED = "not started"  # a forming game has nothing to roll back
    FIRST_PHASE = "at its first phase"  # ROLLBACK alone, with no phase before the current
    NO_TURN = "no such turn"  # the turn number names no phase of the game
    NO_PHASE = "no such phase"  # the phase asked for is not one of the game's
    CURRENT = "the current phase already"  # the phase asked for is open now


@dataclass(frozen=True)
class RollbackRefused:
    """Nothing was rolled back, for `why`; `phases`: the game's phases by name, oldest first;
    `turn`: the turn asked for, if one was; `phase`: the phase asked for (CURRENT)."""

    why: Refusal
    phases: tuple[str, ...] = ()
    turn: int | None = None
    phase: str | None = None


@dataclass(frozen=True)
class RolledBack:
    """The game is back at the start of `phase`, whose deadline is `deadline_at`; `resumed`:
    the game as it is now if it was finished and plays again; `mail`: everyone's notice."""

    phase: str
    deadline_at: datetime | None
    resumed: GameRecord | None
    mail: tuple[Outgoing, ...]


def roll_back(session: Session, game: GameRecord, *, now: datetime, actor: str, service: str,
              turn: int | None = None, phase: Callable[[PhaseRecord], bool] | None = None,
              inbound_id: int | None = None) -> RolledBack | RollbackRefused:
    """Roll `game` back (see the module docstring) at `now`, for `actor`; `turn`: njudge's
    turn number; `phase`: the test the phase asked for passes."""
    if game.status is GameStatus.FORMING:
        return RollbackRefused(Refusal.NOT_STARTED)
    games_repo.lock_game(session, game.id)
    variant = get_variant(game.variant)
    records = phases_repo.history(session, game.id)
    current = phases_repo.current_phase(session, game.id)
    names = tuple(variant.format_phase(p.phase) for p in records)
    if phase is None:
        # njudge's turn n: the n-th phase, reopened; no number: the one before the current
        at = turn
        if at is None:
            at = len(records) - (1 if current is not None and not current.adjudicated else 0)
        if at < 1 and turn is None:
            return RollbackRefused(Refusal.FIRST_PHASE, names)
        if not 1 <= at <= len(records):
            return RollbackRefused(Refusal.NO_TURN, names, turn=at)
        target = records[at - 1]
    else:
        found = next((r for r in records if phase(r)), None)
        if found is None:
            return RollbackRefused(Refusal.NO_PHASE, names)
        target = found
    name = variant.format_phase(target.phase)
    if current is not None and current.index == target.index and not current.adjudicated:
        return RollbackRefused(Refusal.CURRENT, names, phase=name)
    reopened = phases_repo.rollback_to(
        session, game.id, target.index, actor=actor, now=now,
        deadline_at=deadline_after(game.settings, target.phase.type, now),
        inbound_id=inbound_id)
    resumed = None
    if game.status is GameStatus.FINISHED:
        resumed = games_repo.set_game_status(session, game.id, GameStatus.ACTIVE, now=now)
    deadline = shown(game, reopened.deadline_at)
    body = render("reply/rollback.txt.j2", game=game.name, phase=name, deadline=deadline,
                  early=game.settings.early, service=service)
    mail = notices_to_game(session, game, f"rolled back to {name}", body)
    return RolledBack(name, reopened.deadline_at, resumed, tuple(mail))


def shown(game: GameRecord, moment: datetime | None) -> str:
    """A deadline as the notices show it: in the game's timezone and in UTC, or "none"."""
    return "none" if moment is None else show(moment, game.settings.timezone)
