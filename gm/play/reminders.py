"""Reminders (SET REMIND): how long before the deadline a power without orders is reminded.

Kept in the game's settings document; `gm tick` (gm.service.tick) sends the reminders.
"""

from __future__ import annotations

from datetime import timedelta

from gm.store.settings import GameSettings

REMIND_KEY = "remind_seconds"  # settings document key: how long before the deadline to remind
DEFAULT_REMIND = timedelta(hours=12)


def remind_before(settings: GameSettings) -> timedelta:
    """How long before the deadline late powers are reminded (0: never)."""
    try:
        return timedelta(seconds=int(settings.extra.get(REMIND_KEY, DEFAULT_REMIND.seconds)))
    except (TypeError, ValueError):
        return DEFAULT_REMIND
