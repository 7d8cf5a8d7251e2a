"""Which pictures a reader's reports carry (SET PICTURES), kept in the game's settings document:

- INLINE: the PNGs, shown inside the HTML report (the default);
- ALL: the PNGs and the SVGs attached to zoom;
- NONE: no picture, the text and HTML parts only (MAP still sends the pictures when asked).

Each reader (a player, the GM, an observer: an address) may choose per game; the GM chooses the
game's default for everyone who has not (SET PICTURES DEFAULT ...).
"""

from __future__ import annotations

from typing import Any, Literal, cast

from gm.store.rows import GameRecord
from gm.store.settings import PICTURES_KEY

Mode = Literal["inline", "all", "none"]
MODES: tuple[Mode, ...] = ("inline", "all", "none")
DEFAULT: Mode = "inline"


def _stored(game: GameRecord) -> dict[str, Any]:
    value = game.settings.extra.get(PICTURES_KEY)
    return value if isinstance(value, dict) else {}


def game_default(game: GameRecord) -> Mode:
    """The game's default (SET PICTURES DEFAULT; INLINE unless the GM set another)."""
    value = _stored(game).get("default")
    return cast(Mode, value) if value in MODES else DEFAULT


def chosen(game: GameRecord, address: str) -> Mode | None:
    """What `address` chose for the game's reports, if it chose."""
    readers = _stored(game).get("readers")
    value = readers.get(address.lower()) if isinstance(readers, dict) else None
    return cast(Mode, value) if value in MODES else None


def mode_for(game: GameRecord, address: str) -> Mode:
    """The pictures `address`'s reports of the game carry."""
    return chosen(game, address) or game_default(game)


def with_choice(game: GameRecord, address: str | None, mode: Mode) -> dict[str, Any]:
    """The game's settings document `extra` with `address`'s choice (None: the game's default)
    set to `mode`."""
    stored = _stored(game)
    readers = stored.get("readers")
    readers = dict(readers) if isinstance(readers, dict) else {}
    if address is None:
        stored = {**stored, "default": mode}
    else:
        readers[address.lower()] = mode
    return {**game.settings.extra, PICTURES_KEY: {**stored, "readers": readers}}
