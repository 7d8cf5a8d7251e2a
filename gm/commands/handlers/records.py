"""What HISTORY, SUMMARY and MAP share: a game's stored phases, a rendered text in the reply,
and who the sender is in the game (what HISTORY's press and SUMMARY's addresses depend on).

Anyone may ask (no sign-on): orders show only once their phase is adjudicated.
"""

from __future__ import annotations

from gm.commands.handlers.common import (
    no_game,
    variant_of,
)
from gm.commands.handlers.context import Context
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.variants import Variant


def played_phases(ctx: Context, keyword: str, name: str,
                  none_yet: str) -> tuple[GameRecord, Variant, list[PhaseRecord]] | None:
    """The game called `name`, its variant and its phases so far, for a command that shows
    them; None, with the refusal said, when there is no such game or it has not started
    (`none_yet`: what it therefore has none of)."""
    game = games_repo.find_game(ctx.session, name)
    if game is None:
        ctx.results.add(f"{keyword}: {no_game(ctx, name)}")
        return None
    variant = variant_of(game)
    ctx.results.game = game.name
    records = phases_repo.history(ctx.session, game.id)
    if not records:
        ctx.results.add(f"{keyword}: {game.name} has not started; it has no {none_yet} yet.")
        return None
    return game, variant, records


def add_rendered(ctx: Context, text: str) -> None:
    ctx.results.blank()
    ctx.results.add(*text.rstrip("\n").splitlines())
    ctx.results.blank()




def standing(ctx: Context, game: GameRecord) -> str | None:
    """Who the sender is in `game`: "gm" (its GM's address or sign-on), "player" (a player's
    address, or signed on as a power of it), or None (anyone else)."""
    sender = ctx.sender.lower()
    signed = ctx.signed
    mine = signed is not None and signed.game.id == game.id
    if sender == game.gm_address.lower() or (mine and signed is not None
                                              and signed.power is None):
        return "gm"
    if mine or any(a.lower() == sender for p in powers_repo.list_powers(ctx.session, game.id)
                   for a in p.addresses):
        return "player"
    return None
