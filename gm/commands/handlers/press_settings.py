"""The GM's press settings kept in a game's settings document beyond SET PRESS: partial press
(SET PARTIAL / SET NO PARTIAL) and fake press (SET FAKE / SET NO FAKE)."""

from __future__ import annotations

from gm.store.settings import GameSettings

# Keys of the settings document's `extra`.
PARTIAL_KEY = "partial_press"  # True unless set
FAKE_KEY = "fake_press"  # False unless set


def partial_allowed(settings: GameSettings) -> bool:
    """Whether the game allows partial press (press to some powers only)."""
    return bool(settings.extra.get(PARTIAL_KEY, True))


def fake_allowed(settings: GameSettings) -> bool:
    """Whether the game allows fake press."""
    return bool(settings.extra.get(FAKE_KEY, False))
