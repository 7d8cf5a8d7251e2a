"""What the GM's changes of player share (ADD, REPLACE, REPLACE ... STANDBY, EJECT, UNLOCK): the
power named, and REPLACE's checks and words (which REPLACE ... STANDBY shares). The seat
changes themselves, their log and their mail are use cases of gm.play.seats."""

from __future__ import annotations

from gm.commands.handlers.common import as_master, named_power, refresh
from gm.commands.handlers.context import Context
from gm.play import seats
from gm.secret import Secret
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord, PowerRecord
from gm.store.statuses import GameStatus, PowerStatus


def seat(ctx: Context, what: str, name: str) -> tuple[GameRecord, PowerRecord] | None:
    """The GM's game and the power `name` of it, or None after writing why not."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return None
    power = named_power(ctx, game, what, name)
    if power is None:
        return None
    record = powers_repo.get_power(ctx.session, game.id, power.name)
    if record is None:
        ctx.results.add(f"{what}: {power.name} has no seat in {game.name}.")
        return None
    if record.status is PowerStatus.ELIMINATED:
        ctx.results.add(f"{what}: refused, {power.name} is eliminated from {game.name}.")
        return None
    return game, record


def replace_player(ctx: Context, name: str, address: str, password: Secret | None) -> None:
    """REPLACE: the player at `address` takes over the power `name` (gm.play.seats), said in
    the reply."""
    found = seat(ctx, "REPLACE", name)
    if found is None:
        return
    game, power = found
    if "@" not in address:
        ctx.results.add(f"REPLACE: {address!r} is not a mail address "
                        "(REPLACE <power> <address> [password]).")
        return
    done = seats.replace_player(ctx.session, game, power, address,
                                None if password is None else password.value, now=ctx.now,
                                actor=ctx.sender, service=ctx.service,
                                inbound_id=ctx.inbound_id)
    if done.absences:
        ctx.results.add(f"The absences the old player of {power.name} claimed are withdrawn: "
                        f"{', '.join(done.absences)}.")
    ctx.results.mail.extend(done.mail)
    ctx.results.add(f"{address} now plays {power.name} in {game.name}"
                    + ("" if not done.made else "; a new password was made and sent to the new "
                       "player alone") + ". The old password no longer works.")
