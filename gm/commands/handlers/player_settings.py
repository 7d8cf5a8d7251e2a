"""A player's own settings: SET PASSWORD, SET DRAW / NO DRAW, SET WAIT / NOWAIT, RESIGN."""

from __future__ import annotations

from gm.commands.handlers.common import as_player
from gm.commands.handlers.context import Context
from gm.commands.handlers.draws import settle_draw
from gm.commands.handlers.signon_guard import unlock as unlock_signons
from gm.commands.values import Resign, SetDraw, SetPassword, SetWait
from gm.store import audit
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password
from gm.store.statuses import PowerStatus


def set_password(ctx: Context, command: SetPassword) -> None:
    signed = as_player(ctx, "SET PASSWORD")
    if signed is None or signed.power is None:
        return
    powers_repo.set_power_password(ctx.session, signed.game.id, signed.power,
                                   hash_password(command.password.value), now=ctx.now)
    unlock_signons(ctx, signed.game, signed.power)  # guesses at the old one are moot
    ctx.results.add(f"Password of {signed.power} in {signed.game.name} changed.")


def set_draw(ctx: Context, command: SetDraw) -> None:
    signed = as_player(ctx, "SET DRAW")
    if signed is None or signed.power is None:
        return
    powers_repo.set_power_flags(ctx.session, signed.game.id, signed.power, now=ctx.now,
                                draw_vote=command.draw)
    ctx.results.add(f"{signed.power} " + ("votes for a draw." if command.draw
                                          else "does not vote for a draw."))
    if command.draw:
        settle_draw(ctx, signed.game.id)


def set_wait(ctx: Context, command: SetWait) -> None:
    signed = as_player(ctx, "SET WAIT")
    if signed is None or signed.power is None:
        return
    powers_repo.set_power_flags(ctx.session, signed.game.id, signed.power, now=ctx.now,
                                wait=command.wait)
    ctx.results.add(f"{signed.power} " + ("waits for the deadline of this phase." if command.wait
                                          else "does not wait for the deadline."))


def resign(ctx: Context, command: Resign) -> None:
    signed = as_player(ctx, "RESIGN")
    if signed is None or signed.power is None:
        return
    powers_repo.set_power_status(ctx.session, signed.game.id, signed.power,
                                 PowerStatus.RESIGNED, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="resign", now=ctx.now,
                        game_id=signed.game.id, details={"power": signed.power},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"You resigned {signed.power} in {signed.game.name}; the GM will find a "
                    "replacement.")
    ctx.signed = None
