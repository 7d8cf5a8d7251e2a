"""A game's observers (OBSERVE): addresses kept in its settings document that get the
observers' report of each phase."""

from __future__ import annotations

from typing import Any

from gm.store.rows import GameRecord
from gm.store.settings import OBSERVERS_KEY


def observers(game: GameRecord) -> list[str]:
    """The game's observers' addresses, as stored (anything else there is ignored)."""
    value: Any = game.settings.extra.get(OBSERVERS_KEY, [])
    return [str(a) for a in value] if isinstance(value, list) else []
