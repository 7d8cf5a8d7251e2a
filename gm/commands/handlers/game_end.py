"""The GM's TERMINATE tells everyone with the game's files attached (gm.play.game_end)."""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.play.game_end import game_end_notices
from gm.store.rows import GameRecord


def tell_game_end(ctx: Context, game: GameRecord, what: str, body: str, *,
                  phase: str | None = None) -> None:
    """Queue `body` to every player, the GM and the observers, with the game's files."""
    ctx.results.mail.extend(game_end_notices(ctx.session, game, what, body, now=ctx.now,
                                             phase=phase))
