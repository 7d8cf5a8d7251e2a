"""SET ADDRESS: a player moves to a new address in all their games, keeping their passwords.

Asked for after a SIGNON (the password proves the player, or the GM), from the address they
play (or master the game) with;
nothing changes until the new address confirms with `SET ADDRESS CONFIRM <code>`, the code
mailed to it (gm.store.address_changes keeps the request for a week). Then every seat of the
old address, the games it masters, its observing, standby offers and joins move to the new one;
the old address and the GMs of the games concerned are told.
"""

from __future__ import annotations

from gm.commands.handlers.context import Context, Notice
from gm.commands.handlers.seats import new_password
from gm.commands.values import ConfirmAddress, SetAddress
from gm.mail.compose import build_subject
from gm.store import address_changes, audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.powers import address_key


def _seats(ctx: Context, address: str) -> list[tuple[str, str, str]]:
    """(game name, power, GM address) of each power `address` plays, in games not finished."""
    out = []
    for power in powers_repo.powers_played_by(ctx.session, address):
        game = games_repo.get_game(ctx.session, power.game_id)
        out.append((game.name, power.name, game.gm_address))
    return out


def set_address(ctx: Context, command: SetAddress) -> None:
    signed = ctx.signed
    if signed is None:
        ctx.results.add("SET ADDRESS: refused, sign on first (SIGNON <power> <game> <password>,"
                        " or SIGNON GM <game> <password>).")
        return
    if signed.power is None:  # the GM
        registered: tuple[str, ...] = (games_repo.get_game(ctx.session, signed.game.id)
                                       .gm_address,)
        role = f"the GM of {signed.game.name}"
    else:
        record = powers_repo.get_power(ctx.session, signed.game.id, signed.power)
        registered = record.addresses if record else ()
        role = signed.power
    old = next((a for a in registered if address_key(a) == address_key(ctx.sender)), None)
    if old is None:
        ctx.results.add(f"SET ADDRESS: refused, send it from the address you are {role} with; "
                        f"{ctx.sender} is not registered for it.")
        return
    if address_key(command.address) == address_key(old):
        ctx.results.add(f"SET ADDRESS: {command.address} is the address you play with "
                        "already; nothing to change.")
        return
    code = new_password()
    address_changes.ask(ctx.session, old, command.address, code, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="set address", now=ctx.now,
                        game_id=signed.game.id, details={"new": command.address},
                        inbound_id=ctx.inbound_id)
    seats = _seats(ctx, old)
    listed = ", ".join(f"{power} in {game}" for game, power, _ in seats)
    ctx.results.add(f"SET ADDRESS: a confirmation code went to {command.address}. Nothing "
                    f"changes until it is sent back from there, within "
                    f"{address_changes.CONFIRM_WITHIN.days} days; then {listed} and anything "
                    f"else of {old} here (games you master, observe or stand by for) move to "
                    f"{command.address}, with the same passwords.")
    body = (f"{old} asked to move to this address for everything it does at this judge: "
            f"{listed}.\n\nTo confirm, send from this address a message with the line\n\n"
            f"    SET ADDRESS CONFIRM {code}\n\nwithin {address_changes.CONFIRM_WITHIN.days} "
            "days. If you did not expect this, ignore it: nothing changes.\n\n"
            f"-- \n{ctx.service}\n")
    ctx.results.mail.append(Notice((command.address,), build_subject(
        "confirm your new address"), body, signed.game.id))


def confirm_address(ctx: Context, command: ConfirmAddress) -> None:
    waiting = address_changes.pending_to(ctx.session, ctx.sender, now=ctx.now)
    change = next((c for c in waiting if c.code == command.code.value), None)
    if change is None:
        ctx.results.add(f"{command.line}: no address change to {ctx.sender} is waiting for "
                        "that code (a code holds for "
                        f"{address_changes.CONFIRM_WITHIN.days} days; SET ADDRESS, after "
                        "your SIGNON from the old address, asks again).")
        return
    seats = _seats(ctx, change.old_address)
    mastered = [g.name for g in games_repo.list_games(ctx.session)
                if address_key(g.gm_address) == address_key(change.old_address)]
    address_changes.apply(ctx.session, change)
    audit.record_action(ctx.session, actor=ctx.sender, action="address moved", now=ctx.now,
                        details={"old": change.old_address, "new": change.new_address},
                        inbound_id=ctx.inbound_id)
    listed = ", ".join([*(f"{power} in {game}" for game, power, _ in seats),
                        *(f"the GM of {game}" for game in mastered)]) or "nothing yet"
    ctx.results.add(f"Confirmed: what {change.old_address} had here ({listed}) is "
                    f"{change.new_address}'s now; your passwords are unchanged.")
    ctx.results.mail.append(Notice(
        (change.old_address,), build_subject("your address has moved"),
        f"As asked, and confirmed from {change.new_address}, everything {change.old_address} "
        f"had at this judge ({listed}) now goes to {change.new_address}.\n\n"
        f"-- \n{ctx.service}\n"))
    for game, power, master in seats:
        if address_key(master) not in (address_key(change.old_address),
                                       address_key(change.new_address)):
            ctx.results.mail.append(Notice(
                (master,), build_subject(f"{power} has a new address", game=game),
                f"The player of {power} in {game} moved from {change.old_address} to "
                f"{change.new_address} (SET ADDRESS, confirmed from the new address).\n\n"
                f"-- \n{ctx.service}\n"))
