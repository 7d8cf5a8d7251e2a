"""Draws and concessions by vote, for the commands that cast them (SET DRAW, SET CONCEDE): the
use case is gm.play.draws; here the powers named in a vote are read, and a game the votes end
is worded in the reply and its notices queued."""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.engine.variant import Variant
from gm.play import draws
from gm.play import votes as votes_of
from gm.store.rows import GameRecord, PhaseRecord


def survivors(ctx: Context, game: GameRecord) -> tuple[PhaseRecord | None, list[str]]:
    """The game's current phase and its surviving powers (a unit or a supply centre)."""
    return draws.survivors(ctx.session, game)


def named_powers(variant: Variant, names: tuple[str, ...]) -> list[str] | str:
    """The powers `names` stand for (a name, adjective or one-letter code, or a run of codes:
    `AEG` is Austria, England, Germany), in order, or the first name that is none."""
    out: list[str] = []
    for name in names:
        power = variant.power(name)
        if power is not None:
            found = [power.name]
        else:
            codes = [variant.power(letter) for letter in name] if len(name) > 1 else [None]
            if any(p is None or len(p.letter) != 1 for p in codes):
                return name
            found = [p.name for p in codes if p is not None]
        out += [p for p in found if p not in out]
    return out


def keep_vote(ctx: Context, game_id: int, key: str, power: str,
              vote: votes_of.Vote | None) -> GameRecord:
    """Store `power`'s vote under `key` of the game's votes (None removes it), under the game
    lock; the game as stored."""
    return draws.keep_vote(ctx.session, game_id, key, power, vote, now=ctx.now)


def settle_draw(ctx: Context, game_id: int) -> bool:
    """End the game in the draw the votes of this phase pass (gm.play.draws), and say so;
    whether it ended."""
    return _told(ctx, draws.settle_draw(ctx.session, game_id, now=ctx.now, actor=ctx.sender,
                                        service=ctx.service, inbound_id=ctx.inbound_id))


def settle_concession(ctx: Context, game_id: int) -> bool:
    """End the game with a winner if every voting survivor but one has conceded to it in this
    phase (gm.play.draws), and say so; whether it ended."""
    return _told(ctx, draws.settle_concession(
        ctx.session, game_id, now=ctx.now, actor=ctx.sender, service=ctx.service,
        inbound_id=ctx.inbound_id))


def _told(ctx: Context, ended: draws.GameEnded | None) -> bool:
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
