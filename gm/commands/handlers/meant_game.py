"""The game a command means when it names none (njudge's LIST, SUMMARY and HISTORY after a
SIGNON: "the signed-on game is assumed", njudge `data/index`): the game signed on to, or the
game an observer's sign-on line before named (OBSERVE <game>, SIGNON O<game>)."""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.play.observers import observers
from gm.store import games as games_repo


def meant_game(ctx: Context) -> str | None:
    """The name of the game a command without one is about, or None (no sign-on before it)."""
    if ctx.signed is not None:
        return ctx.signed.game.name
    if ctx.results.game is None:
        return None
    game = games_repo.find_game(ctx.session, ctx.results.game)
    if game is not None and ctx.sender.lower() in (a.lower() for a in observers(game)):
        return game.name
    return None


def no_game_meant(ctx: Context, keyword: str, example: str) -> None:
    """Say that `keyword` alone needs a sign-on before it, or a game named."""
    ctx.results.add(f"{keyword}: which game? {keyword} alone means the game you signed on to "
                    f"on a line before (SIGNON, or OBSERVE <game> for an observer); else name "
                    f"it: {example}")
