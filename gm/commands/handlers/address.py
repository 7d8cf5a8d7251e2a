"""What SET ADDRESS and SET ADDRESS CONFIRM share: the seats an address holds. With them a
player moves to a new address in all their games, keeping their passwords.

Asked for after a SIGNON (the password proves the player, or the GM), from the address they
play (or master the game) with;
nothing changes until the new address confirms with `SET ADDRESS CONFIRM <code>`, the code
mailed to it (gm.store.address_changes keeps the request for a week). Then every seat of the
old address, the games it masters, its observing, standby offers and joins move to the new one;
the old address and the GMs of the games concerned are told.
"""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.store import games as games_repo
from gm.store import powers as powers_repo


def seats_of(ctx: Context, address: str) -> list[tuple[str, str, str]]:
    """(game name, power, GM address) of each power `address` plays, in games not finished."""
    out = []
    for power in powers_repo.powers_played_by(ctx.session, address):
        game = games_repo.get_game(ctx.session, power.game_id)
        out.append((game.name, power.name, game.gm_address))
    return out


