"""Draws and concessions by vote, for the commands that cast them (SET DRAW, SET CONCEDE): the
use cases are gm.play.voting and gm.play.draws; here a power named amiss and a game the votes
end are worded in the reply, and the game's end notices queued."""

from __future__ import annotations

from gm.commands.handlers.common import did_you_mean
from gm.commands.handlers.context import Context
from gm.play import draws
from gm.play.voting import NotSurvivor
from gm.store.rows import GameRecord


def not_survivor(game: GameRecord, refused: NotSurvivor) -> str:
    """Why the power named cannot be voted for: `France is out of the game`."""
    why = ("is out of the game" if refused.out
           else f"is not a power of {game.name}{did_you_mean(refused.written, refused.names)}")
    return f"{refused.written} {why}"


def told_ended(ctx: Context, ended: draws.GameEnded | None) -> bool:
    """Say the votes ended the game (`ended`, if they did) and queue its notices; whether it
    ended."""
    if ended is None:
        return False
    game = ended.game
    if ctx.signed is not None and ctx.signed.game.id == game.id:
        ctx.signed.game = game
    ctx.results.mail.extend(ended.mail)
    if ended.ending is draws.Ending.DRAW:
        ctx.results.add(f"Every surviving power has voted for a draw: {game.name} ends in a "
                        f"draw shared by {', '.join(ended.powers)}.")
    else:
        ctx.results.add(f"Every other surviving power has conceded: {game.name} ends with "
                        f"{ended.winner} the winner.")
    return True
