"""STANDBY (a player offers to take over an abandoned power, of one game or of any) and the
GM's REPLACE <power> STANDBY, which gives the power to the first player standing by.

Offers for the game itself come before offers for any game, oldest first. A power that goes
into civil disorder (EJECT, or missed deadlines under SET LATE DISORDER) is offered to the GM
with the list (gm.commands.handlers.standing_by).
"""

from __future__ import annotations

from gm.commands.handlers.common import as_master, no_game, refresh
from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell
from gm.commands.handlers.seats import replace
from gm.commands.handlers.standing_by import standing_by
from gm.commands.values import Replace, ReplaceFromStandby, Standby
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store import standby as standby_repo
from gm.store.statuses import GameStatus


def standby(ctx: Context, command: Standby) -> None:
    if command.game is None:
        if command.off:
            count = standby_repo.withdraw_all(ctx.session, ctx.sender)
            ctx.results.add("STANDBY OFF: " + (f"your {count} offer{'s' if count != 1 else ''}"
                                               " withdrawn." if count else
                                               "you were not standing by for any game."))
            return
        if not standby_repo.offer(ctx.session, ctx.sender, None, now=ctx.now):
            ctx.results.add("STANDBY: you stand by for any game already (STANDBY OFF "
                            "withdraws).")
            return
        ctx.results.add("You stand by for any game: a GM whose power loses its player may "
                        "give it to you. STANDBY OFF withdraws.")
        return
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"STANDBY: {no_game(ctx, command.game)}")
        return
    ctx.results.game = game.name
    if command.off:
        if standby_repo.withdraw(ctx.session, ctx.sender, game.id):
            ctx.results.add(f"You no longer stand by for {game.name}.")
        else:
            ctx.results.add(f"STANDBY {game.name} OFF: you were not standing by for "
                            f"{game.name}.")
        return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"STANDBY: {game.name} is finished.")
        return
    played = [p.name for p in powers_repo.powers_played_by(ctx.session, ctx.sender)
              if p.game_id == game.id]
    if played:
        ctx.results.add(f"STANDBY: you play {played[0]} in {game.name} already.")
        return
    if not standby_repo.offer(ctx.session, ctx.sender, game.id, now=ctx.now):
        ctx.results.add(f"STANDBY: you stand by for {game.name} already (STANDBY "
                        f"{game.name} OFF withdraws).")
        return
    ctx.results.add(f"You stand by for {game.name}: its GM may give you a power that loses "
                    f"its player. STANDBY {game.name} OFF withdraws.")
    tell(ctx, game.gm_address, game, "a player stands by",
         f"{ctx.sender} stands by for {game.name}: REPLACE <power> STANDBY gives a power to "
         "the first player standing by.")


def replace_from_standby(ctx: Context, command: ReplaceFromStandby) -> None:
    signed = as_master(ctx, "REPLACE")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    ready = standing_by(ctx.session, game.id)
    if not ready:
        ctx.results.add(f"{command.line}: no one stands by for {game.name} or for any game "
                        "(players offer with STANDBY); name the new player's address: "
                        f"REPLACE {command.power} player@example.org")
        return
    chosen = ready[0]
    replace(ctx, Replace(command.line, command.power, chosen, None))
    power = next((p for p in powers_repo.powers_played_by(ctx.session, chosen)
                  if p.game_id == game.id), None)
    if power is None:  # REPLACE refused it, and said why
        return
    standby_repo.withdraw(ctx.session, chosen, game.id)
    standby_repo.withdraw(ctx.session, chosen, None)
    audit.record_action(ctx.session, actor=ctx.sender, action="replace from standby",
                        now=ctx.now, game_id=game.id,
                        details={"power": power.name, "address": chosen},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"({chosen} was the first standing by; their offers are withdrawn.)")
