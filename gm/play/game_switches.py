"""The GM turning a game's switch on or off: SET MULTIPLE (one address may JOIN more than one
power, gm.play.joining.MULTIPLE_KEY) and SET OBSERVE (anyone may OBSERVE the game,
gm.play.observing.OPEN_KEY). The switch is kept in the game's settings and logged as a "set"
in the audit trail; a finished game keeps its settings (`SwitchRefusal.FINISHED`). The words
of the reply are the caller's (gm.commands.catalog.set_multiple, set_observe)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.play.joining import MULTIPLE_KEY
from gm.play.observing import OPEN_KEY
from gm.store import audit
from gm.store import games as games_repo
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus


class Switch(StrEnum):
    """A game's switch, by the command that sets it; its value is its settings key."""

    MULTIPLE = MULTIPLE_KEY
    OBSERVE = OPEN_KEY

    @property
    def command(self) -> str:
        """The command that sets it, as the audit trail names it."""
        return f"SET {self.name}"


class SwitchRefusal(StrEnum):
    """Why the switch was not set."""

    FINISHED = "finished"  # a finished game's settings stay


def set_switch(session: Session, game: GameRecord, switch: Switch, on: bool, *,
               now: datetime, actor: str, inbound_id: int | None = None
               ) -> GameRecord | SwitchRefusal:
    """Turn `switch` of `game` on (`on`) or off; the game as now stored."""
    if game.status is GameStatus.FINISHED:
        return SwitchRefusal.FINISHED
    extra = {**game.settings.extra, switch.value: on}
    after = games_repo.set_game_settings(
        session, game.id, dataclasses.replace(game.settings, extra=extra), now=now)
    audit.record_action(session, actor=actor, action="set", now=now, game_id=game.id,
                        details={"setting": switch.command, "allowed": on},
                        inbound_id=inbound_id)
    return after
