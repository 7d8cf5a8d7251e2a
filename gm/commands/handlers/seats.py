"""What the GM's changes of player share (ADD, REPLACE, REPLACE ... STANDBY, EJECT, UNLOCK): the
power named, a new password, the mail to a seated player, and REPLACE's work itself (which
REPLACE ... STANDBY does too). Changes are logged in the audit trail and told to the players
concerned."""

from __future__ import annotations

import dataclasses
import secrets

from gm.commands.handlers.calendar_notices import phase_event
from gm.commands.handlers.common import (
    as_master,
    open_phase_of,
    phase_name,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.context import Context
from gm.commands.handlers.signon_guard import unlock as unlock_signons
from gm.mail.compose import build_subject
from gm.play.absences import absences, with_absences
from gm.play.render import render
from gm.secret import Secret
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password
from gm.store.rows import GameRecord, PowerRecord
from gm.store.statuses import GameStatus, PowerStatus


def new_password() -> str:
    """A fresh random password: ten letters and digits that read unambiguously."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def seated_notice(ctx: Context, game: GameRecord, power: str, address: str, password: str,
                  *, replaced: bool = False) -> Outgoing:
    """The mail to a player given `power` (ADD, REPLACE): the game, the power, the password,
    the current phase and deadline (if the game has started) and how to order."""
    variant = variant_of(game)
    phase = open_phase_of(ctx, game) if game.status is not GameStatus.FORMING else None
    found = variant.power(power)
    body = render("reply/seated.txt.j2", game=game.name, title=variant.title, power=power,
                  password=password, replaced=replaced, letter=found.letter if found else "",
                  phase=None if phase is None else phase_name(variant, phase),
                  deadline=None if phase is None else shown_deadline(game, phase.deadline_at),
                  service=ctx.service)
    return Outgoing((address,), build_subject(f"you play {power}", game=game.name), body,
                    game.id, attachments=phase_event(ctx, game, phase, address, power))


def tell_unseated(ctx: Context, game: GameRecord, power: str, addresses: list[str]) -> None:
    """Tell each of `addresses` that they no longer play `power` (ADD, ADD BOT, REPLACE)."""
    for address in addresses:
        ctx.results.mail.append(Outgoing(
            (address,), build_subject(f"you no longer play {power}", game=game.name),
            render("reply/unseated.txt.j2", game=game.name, power=power,
                   service=ctx.service), game.id))


def seat(ctx: Context, what: str, name: str) -> tuple[GameRecord, PowerRecord] | None:
    """The GM's game and the power `name` of it, or None after writing why not."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return None
    variant = variant_of(game)
    power = variant.power(name)
    if power is None:
        names = ", ".join(variant.power_names)
        ctx.results.add(f"{what}: {name!r} is not a power of {game.name} (powers: {names}).")
        return None
    record = powers_repo.get_power(ctx.session, game.id, power.name)
    if record is None:
        ctx.results.add(f"{what}: {power.name} has no seat in {game.name}.")
        return None
    if record.status is PowerStatus.ELIMINATED:
        ctx.results.add(f"{what}: refused, {power.name} is eliminated from {game.name}.")
        return None
    return game, record


def _drop_absences(ctx: Context, game: GameRecord, power: str) -> None:
    """The absences the old player of `power` claimed go with them (SET ABSENCE)."""
    stored = absences(game.settings)
    theirs = [a for a in stored if a.power == power]
    if not theirs:
        return
    extra = with_absences(game.settings, [a for a in stored if a.power != power])
    games_repo.set_game_settings(ctx.session, game.id,
                                 dataclasses.replace(game.settings, extra=extra), now=ctx.now)
    ctx.results.add(f"The absences the old player of {power} claimed are withdrawn: "
                    f"{', '.join(str(a) for a in theirs)}.")


def replace_player(ctx: Context, name: str, address: str, password: Secret | None) -> None:
    """REPLACE's work: the player at `address` takes over the power `name` (with `password`,
    or a new one made here and mailed to the new player alone)."""
    found = seat(ctx, "REPLACE", name)
    if found is None:
        return
    game, power = found
    if "@" not in address:
        ctx.results.add(f"REPLACE: {address!r} is not a mail address "
                        "(REPLACE <power> <address> [password]).")
        return
    old = power.addresses
    powers_repo.set_players(ctx.session, game.id, power.name, [address], now=ctx.now)
    # the old player's password must stop working: the GM's, or a new one made here
    made = None if password is not None else new_password()
    secret = password.value if password is not None else made or ""
    powers_repo.set_power_password(ctx.session, game.id, power.name, hash_password(secret),
                                   now=ctx.now)
    if power.status is not PowerStatus.PLAYING:
        powers_repo.set_power_status(ctx.session, game.id, power.name, PowerStatus.PLAYING,
                                     now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="replace", now=ctx.now,
                        game_id=game.id,
                        details={"power": power.name, "address": address,
                                 "previous": list(old),
                                 "new_password": password is not None},
                        inbound_id=ctx.inbound_id)
    unlock_signons(ctx, game, power.name)  # a new player, a new password: old guesses are moot
    if address.lower() not in {a.lower() for a in old}:
        _drop_absences(ctx, game, power.name)
    ctx.results.mail.append(seated_notice(ctx, game, power.name, address, secret,
                                          replaced=True))
    tell_unseated(ctx, game, power.name,
                  [previous for previous in old if previous.lower() != address.lower()])
    ctx.results.add(f"{address} now plays {power.name} in {game.name}"
                    + ("" if made is None else "; a new password was made and sent to the new "
                       "player alone") + ". The old password no longer works.")


