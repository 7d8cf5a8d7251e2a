"""The GM changing a game's settings (SET DEADLINE, GRACE, TIMEZONE, PRESS, LATE, EARLY,
REMIND, OBSERVERS, RULEBOOK, TAKEOVER, ...): the settings document (gm.store.settings) stored
and the change logged as a "set" in the audit trail, naming the command (`what`) and its
`details`; a finished game keeps its settings (`SettingsRefusal.FINISHED`). Telling everyone in
a game under way, and the words of the reply, are the caller's
(gm.commands.handlers.gm_settings.change)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from gm.store import audit
from gm.store import games as games_repo
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus


class SettingsRefusal(StrEnum):
    """Why the settings were not changed."""

    FINISHED = "finished"  # a finished game's settings stay


def change_settings(session: Session, game: GameRecord, what: str, details: dict[str, Any], *,
                    now: datetime, actor: str, inbound_id: int | None = None,
                    **changes: Any) -> GameRecord | SettingsRefusal:
    """Store `changes` (fields of gm.store.settings.GameSettings) in `game`'s settings, logged
    as `what` with `details`; the game as now stored."""
    if game.status is GameStatus.FINISHED:
        return SettingsRefusal.FINISHED
    settings = dataclasses.replace(game.settings, **changes)
    after = games_repo.set_game_settings(session, game.id, settings, now=now)
    audit.record_action(session, actor=actor, action="set", now=now, game_id=game.id,
                        details={"setting": what, **details}, inbound_id=inbound_id)
    return after
