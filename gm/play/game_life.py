"""The GM's changes to a game's life: PAUSE (the deadlines stop), RESUME (they run again, the
open phase given back the time it had left), UNSTART (a started game back to forming, before
its first phase is processed; njudge's UNSTART) and TERMINATE (the game is over).

Each use case takes the session, the game, the time and the actor, changes the game's status,
logs it in the audit trail and gives a typed outcome with the notices to everyone in the game:
`Changed`, or `WrongStatus` (the game is not in a status the change starts from) or, for
UNSTART, `UnstartRefusal.PROCESSED`. The words of the reply are the caller's
(gm.commands.catalog.pause, resume, unstart, terminate).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.play.deadlines import show
from gm.play.everyone import notices_to_game
from gm.play.game_end import game_end_notices
from gm.play.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import get_variant


@dataclass(frozen=True)
class WrongStatus:
    """The game is `status`, none the change starts from."""

    status: GameStatus


class UnstartRefusal(StrEnum):
    """Why UNSTART failed, besides the game's status."""

    PROCESSED = "processed"  # a phase has been processed: ROLLBACK goes back instead


@dataclass(frozen=True)
class Changed:
    """The game went from `before` to `after` (its records); `phase`, its open phase after the
    change (if any); `deadline`, the open phase's deadline then; `mail`, the notices to
    everyone in the game."""

    before: GameRecord
    after: GameRecord
    phase: PhaseRecord | None
    deadline: datetime | None
    mail: tuple[Outgoing, ...]


LifeOutcome = Changed | WrongStatus


def open_phase(session: Session, game: GameRecord) -> PhaseRecord | None:
    """The game's current phase if it is open for orders."""
    phase = phases_repo.current_phase(session, game.id)
    return None if phase is None or phase.adjudicated else phase


def _move(session: Session, game: GameRecord, src: tuple[GameStatus, ...], dst: GameStatus,
          action: str, *, now: datetime, actor: str,
          inbound_id: int | None) -> GameRecord | WrongStatus:
    """The game moved from one of `src` to `dst` and the move logged as `action`; the game
    after it, or WrongStatus."""
    if game.status not in src:
        return WrongStatus(game.status)
    after = games_repo.set_game_status(session, game.id, dst, now=now)
    audit.record_action(session, actor=actor, action=action, now=now, game_id=game.id,
                        inbound_id=inbound_id)
    return after


def pause(session: Session, game: GameRecord, *, now: datetime, actor: str, service: str,
          inbound_id: int | None = None) -> LifeOutcome:
    """PAUSE: an active game stops its deadlines; everyone is told."""
    after = _move(session, game, (GameStatus.ACTIVE,), GameStatus.PAUSED, "pause", now=now,
                  actor=actor, inbound_id=inbound_id)
    if isinstance(after, WrongStatus):
        return after
    mail = notices_to_game(session, game, "the game is paused", render(
        "reply/paused.txt.j2", game=game.name, service=service))
    phase = open_phase(session, game)
    return Changed(game, after, phase, None if phase is None else phase.deadline_at,
                   tuple(mail))


def resume(session: Session, game: GameRecord, *, now: datetime, actor: str, service: str,
           inbound_id: int | None = None) -> LifeOutcome:
    """RESUME: a paused game runs again; the open phase's deadline moves on by the time the
    game was paused (the time left at PAUSE is given back); everyone is told."""
    after = _move(session, game, (GameStatus.PAUSED,), GameStatus.ACTIVE, "resume", now=now,
                  actor=actor, inbound_id=inbound_id)
    if isinstance(after, WrongStatus):
        return after
    phase = open_phase(session, game)
    deadline = None if phase is None else _deadline_after_pause(session, game, phase, now)
    shown = ("none" if deadline is None
             else show(deadline, game.settings.timezone, seconds=False))
    mail = notices_to_game(session, game, "the game goes on", render(
        "reply/resumed.txt.j2", game=game.name, deadline=shown,
        phase=None if phase is None else get_variant(game.variant).format_phase(phase.phase),
        service=service))
    if phase is not None:
        phase = open_phase(session, game) or phase  # its deadline as moved
    return Changed(game, after, phase, deadline, tuple(mail))


def _deadline_after_pause(session: Session, game: GameRecord, phase: PhaseRecord,
                          now: datetime) -> datetime | None:
    """The open phase's deadline moved on by the time the game was paused, and stored."""
    if phase.deadline_at is None:
        return None
    paused = audit.audit_log(session, game_id=game.id, action="pause")
    since = paused[-1].at if paused else now
    moved = phase.deadline_at + max(now - since, timedelta(0))
    if moved != phase.deadline_at:
        phases_repo.set_deadline(session, phase.id, moved)
    return moved


def terminate(session: Session, game: GameRecord, *, now: datetime, actor: str, service: str,
              inbound_id: int | None = None) -> LifeOutcome:
    """TERMINATE: the game is over; everyone is told, with the game's files."""
    after = _move(session, game, (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED),
                  GameStatus.FINISHED, "terminate", now=now, actor=actor,
                  inbound_id=inbound_id)
    if isinstance(after, WrongStatus):
        return after
    mail = game_end_notices(session, game, "the game is over", render(
        "reply/terminated.txt.j2", game=game.name, service=service), now=now)
    return Changed(game, after, None, None, tuple(mail))


def unstart(session: Session, game: GameRecord, *, now: datetime, actor: str, service: str,
            inbound_id: int | None = None) -> LifeOutcome | UnstartRefusal:
    """UNSTART: a started game whose first phase is still open goes back to forming; the
    phase and its orders are removed (kept in the audit log, gm.store.phases.unstart), the
    powers FORCE BEGIN left empty play again, and everyone is told."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return WrongStatus(game.status)
    phases = phases_repo.history(session, game.id)
    if len(phases) != 1 or phases[0].adjudicated:
        return UnstartRefusal.PROCESSED
    phases_repo.unstart(session, game.id, actor=actor, now=now, inbound_id=inbound_id)
    for power in powers_repo.list_powers(session, game.id):
        if power.status is PowerStatus.CIVIL_DISORDER:  # FORCE BEGIN's empty powers
            powers_repo.set_power_status(session, game.id, power.name, PowerStatus.PLAYING,
                                         now=now)
    after = games_repo.get_game(session, game.id)
    mail = notices_to_game(session, game, "the game is forming again", render(
        "reply/unstarted.txt.j2", game=game.name, service=service))
    return Changed(game, after, None, None, tuple(mail))
