"""The GM turning a game's switch on or off: SET MULTIPLE (one address may JOIN more than one
power, gm.play.joining.MULTIPLE_KEY) and SET OBSERVE (anyone may OBSERVE the game,
gm.play.observing.OPEN_KEY). The switch is kept in the game's settings and logged as a "set"
in the audit trail (gm.play.game_settings); a finished game keeps its settings
(`SettingsRefusal.FINISHED`). The words of the reply are the caller's
(gm.commands.catalog.set_multiple, set_observe)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.play.game_settings import SettingsRefusal, change_settings
from gm.play.joining import MULTIPLE_KEY
from gm.play.observing import OPEN_KEY
from gm.store.rows import GameRecord


class Switch(StrEnum):
    """A game's switch, by the command that sets it; its value is its settings key."""

    MULTIPLE = MULTIPLE_KEY
    OBSERVE = OPEN_KEY

    @property
    def command(self) -> str:
        """The command that sets it, as the audit trail names it."""
        return f"SET {self.name}"


def set_switch(session: Session, game: GameRecord, switch: Switch, on: bool, *,
               now: datetime, actor: str, inbound_id: int | None = None
               ) -> GameRecord | SettingsRefusal:
    """Turn `switch` of `game` on (`on`) or off; the game as now stored."""
    extra = {**game.settings.extra, switch.value: on}
    return change_settings(session, game, switch.command, {"allowed": on}, now=now,
                           actor=actor, inbound_id=inbound_id, extra=extra)
