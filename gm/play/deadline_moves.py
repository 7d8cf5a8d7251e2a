"""Moving the open phase's deadline (the GM's SET DEADLINE <date>, njudge's SET DEADLINE
<date>, `data/deadlines`): the phase's deadline is stored, logged and told to everyone in the
game; the phases to come keep the game's rule.

`move_deadline` gives a typed outcome: `Moved` (the deadline before and after, whether the
local time comes twice that day, and the notices), or why not: the game is paused
(`MoveRefusal.PAUSED`) or the moment is past (`InPast`). The words of the reply are the
caller's (gm.commands.catalog.set_deadline_at), which reads the date the GM wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.play.deadlines import show
from gm.play.everyone import notices_to_game
from gm.play.render import render
from gm.play.zones import wall_clock, zone
from gm.store import audit
from gm.store import phases as phases_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus
from gm.variants import get_variant


class MoveRefusal(StrEnum):
    """Why the deadline was not moved, when nothing more need be said."""

    PAUSED = "paused"  # RESUME first: a paused game's deadline does not run


@dataclass(frozen=True)
class InPast:
    """The moment named, `moment`, is not after now."""

    moment: datetime


@dataclass(frozen=True)
class Moved:
    """The open phase (`phase`, as now stored) is due at `moment`, not `before`; `repeated`,
    its local time comes twice that day in the game's zone (the deadline is the first);
    `mail`, the notices to everyone in the game."""

    phase: PhaseRecord
    before: datetime | None
    moment: datetime
    repeated: bool
    mail: tuple[Outgoing, ...]


MoveOutcome = Moved | MoveRefusal | InPast


def repeated(moment: datetime, name: str) -> bool:
    """Whether the local time of `moment` comes twice that day in zone `name`."""
    return wall_clock(moment.astimezone(zone(name)).replace(tzinfo=None), name)[1]


def shown(game: GameRecord, moment: datetime | None) -> str:
    """A deadline as the notices show it: in the game's time zone and in UTC, or "none"."""
    return "none" if moment is None else show(moment, game.settings.timezone, seconds=False)


def move_deadline(session: Session, game: GameRecord, phase: PhaseRecord,
                  moment: Callable[[], datetime], *, now: datetime, actor: str, service: str,
                  inbound_id: int | None = None) -> MoveOutcome:
    """The open `phase` of the running `game` is due at `moment()`, the time the GM named,
    read once the game may move (the caller's error, if it names none, leaves nothing
    written)."""
    if game.status is GameStatus.PAUSED:
        return MoveRefusal.PAUSED
    at = moment()
    if at <= now:
        return InPast(at)
    before = phase.deadline_at
    phases_repo.set_deadline(session, phase.id, at)
    audit.record_action(session, actor=actor, action="deadline", now=now, game_id=game.id,
                        inbound_id=inbound_id,
                        details={"from": None if before is None else before.isoformat(),
                                 "to": at.isoformat()})
    name = get_variant(game.variant).format_phase(phase.phase)
    mail = notices_to_game(session, game, "the deadline has moved", render(
        "reply/deadline-moved.txt.j2", game=game.name, phase=name, deadline=shown(game, at),
        before=shown(game, before), service=service), phase=name)
    return Moved(phases_repo.get_phase(session, phase.id), before, at,
                 repeated(at, game.settings.timezone), tuple(mail))
