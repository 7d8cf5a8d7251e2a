"""The GM's press settings kept in a game's settings document beyond SET PRESS: partial press
(SET PARTIAL / SET NO PARTIAL), fake press (SET FAKE / SET NO FAKE) and the GM's copy of
partial press (SET ALL PRESS / SET NORMAL PRESS)."""

from __future__ import annotations

from gm.store.settings import GameSettings

# Keys of the settings document's `extra`.
PARTIAL_KEY = "partial_press"  # True unless set
FAKE_KEY = "fake_press"  # False unless set
ALL_PRESS_KEY = "all_press"  # False unless set


def partial_allowed(settings: GameSettings) -> bool:
    """Whether the game allows partial press (press to some powers only)."""
    return bool(settings.extra.get(PARTIAL_KEY, True))


def fake_allowed(settings: GameSettings) -> bool:
    """Whether the game allows fake press."""
    return bool(settings.extra.get(FAKE_KEY, False))


def all_press(settings: GameSettings) -> bool:
    """Whether the GM gets a copy of partial press between players (njudge's SET ALL PRESS;
    off unless set, and the players are told when it changes)."""
    return bool(settings.extra.get(ALL_PRESS_KEY, False))


def shown_press(settings: GameSettings) -> str:
    """The game's press as SUMMARY and LIST show it (`GREY, the GM reads partial press ...`)."""
    return settings.press.value.upper() + (", the GM reads partial press (SET ALL PRESS)"
                                           if all_press(settings) else "")
