"""The files a game is kept and carried in, for one reader: the record (MILA saved-game JSON,
gm.play.mila), the one-file HTML history (gm.play.history_html) and the animation of its
movement phases (gm.play.animation). HISTORY <game> FILE, HTML and ANIMATION send one; the
end-of-game mail carries them all."""

from __future__ import annotations

from collections.abc import Callable

from gm.play.mila import Reader, record_bytes, record_filename
from gm.play.played_game import PlayedGame
from gm.store.rows import Attachment

KINDS = ("record",)


def _record(played: PlayedGame, reader: Reader) -> Attachment:
    return Attachment(record_filename(played.game.name), "application/json",
                      record_bytes(played, reader))


_MAKERS: dict[str, Callable[[PlayedGame, Reader], Attachment]] = {"record": _record}


def game_file(played: PlayedGame, reader: Reader, kind: str) -> Attachment:
    """One of the game's files (`kind`: one of KINDS) as `reader` may see it."""
    return _MAKERS[kind](played, reader)


def game_files(played: PlayedGame, reader: Reader) -> tuple[Attachment, ...]:
    """Every file of the game, as `reader` may see it."""
    return tuple(game_file(played, reader, kind) for kind in KINDS)
