"""The files a game is kept and carried in, for one reader: the record (MILA saved-game JSON,
gm.play.mila), the one-file HTML history (gm.play.history_html) and the animation of its
movement phases (gm.play.animation). HISTORY <game> FILE, HTML and ANIMATION send one; the
end-of-game mail carries them all."""

from __future__ import annotations

from collections.abc import Callable

from gm.play.animation import animation_filename, animation_webp
from gm.play.history_html import HistoryPictures, history_filename, history_html
from gm.play.mila import Reader, record_bytes, record_filename
from gm.play.played_game import PlayedGame
from gm.store.rows import Attachment

KINDS = ("record", "html", "animation")


def _record(played: PlayedGame, reader: Reader) -> Attachment:
    return Attachment(record_filename(played.game.name), "application/json",
                      record_bytes(played, reader))


def _html(played: PlayedGame, reader: Reader) -> Attachment:
    return Attachment(history_filename(played.game.name), "text/html",
                      history_html(played, reader, _pictures(played)).encode("utf-8"))


def _animation(played: PlayedGame, reader: Reader) -> Attachment:
    """The animation: the same for every reader (no press), made once per history."""
    made = _shared(played).get("animation")
    if made is None:
        made = _shared(played)["animation"] = Attachment(
            animation_filename(played.game.name), "image/webp", animation_webp(played))
    assert isinstance(made, Attachment)
    return made


_MADE: dict[int, dict[str, object]] = {}  # id(played) -> what its copies share


def _shared(played: PlayedGame) -> dict[str, object]:
    """What every copy of one history's files shares (kept while `played` is the last)."""
    if id(played) not in _MADE:
        _MADE.clear()
        _MADE[id(played)] = {"played": played}
    return _MADE[id(played)]


def _pictures(played: PlayedGame) -> HistoryPictures:
    shared = _shared(played)
    found = shared.get("pictures")
    if not isinstance(found, HistoryPictures):
        found = shared["pictures"] = HistoryPictures(played)
    return found


_MAKERS: dict[str, Callable[[PlayedGame, Reader], Attachment]] = {
    "record": _record, "html": _html, "animation": _animation}


def game_file(played: PlayedGame, reader: Reader, kind: str) -> Attachment:
    """One of the game's files (`kind`: one of KINDS) as `reader` may see it."""
    return _MAKERS[kind](played, reader)


def game_files(played: PlayedGame, reader: Reader) -> tuple[Attachment, ...]:
    """Every file of the game, as `reader` may see it."""
    return tuple(game_file(played, reader, kind) for kind in KINDS)
