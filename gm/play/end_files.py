"""The files the mail that ends a game carries (gm.play.game_files), one set per reader: each
player's with their own press, the GM's, the observers'. Made once per reader, however many
addresses share it."""

from __future__ import annotations

from gm.play.game_files import game_files
from gm.play.mila import Reader
from gm.play.played_game import PlayedGame
from gm.store.rows import Attachment


class EndFiles:
    """The files of `played` for each reader, made when first asked for."""

    def __init__(self, played: PlayedGame) -> None:
        self.played = played
        self._made: dict[Reader, tuple[Attachment, ...]] = {}

    def __call__(self, power: str | None, audience: str) -> tuple[Attachment, ...]:
        """The files for a recipient: `audience` "player" (of `power`), "gm" or "observer"."""
        reader = Reader(audience, power if audience == "player" else None)
        if reader not in self._made:
            self._made[reader] = game_files(self.played, reader)
        return self._made[reader]
