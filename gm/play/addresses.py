"""A player (or GM) moving to a new address in every game, keeping their passwords: SET
ADDRESS <new> asks, from the address they play with after a SIGNON; SET ADDRESS CONFIRM
<code>, sent from the new address within a week (gm.store.address_changes), moves every seat
of the old address, the games it masters, its observing, standby offers and joins.

`ask` gives `Asked` (the code mailed to the new address) or why not (`AddressRefusal`);
`confirm` gives `Confirmed` (the old address and the GMs of its games told) or
`AddressRefusal.NO_CHANGE`. The words of the reply are the caller's
(gm.commands.catalog.set_address, confirm_address).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.render import render
from gm.play.seats import new_password
from gm.store import address_changes, audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.powers import address_key
from gm.store.rows import GameRecord

CONFIRM_DAYS = address_changes.CONFIRM_WITHIN.days


@dataclass(frozen=True)
class Seat:
    """`power` of the game `game`, whose GM is `gm`."""

    game: str
    power: str
    gm: str


def seats_of(session: Session, address: str) -> tuple[Seat, ...]:
    """Each power `address` plays, in games not finished."""
    out = []
    for power in powers_repo.powers_played_by(session, address):
        game = games_repo.get_game(session, power.game_id)
        out.append(Seat(game.name, power.name, game.gm_address))
    return tuple(out)


def seats_line(seats: tuple[Seat, ...], mastered: tuple[str, ...] = ()) -> str:
    """`France in alpha, the GM of beta`: what an address holds, as the mail lists it."""
    return ", ".join([*(f"{s.power} in {s.game}" for s in seats),
                      *(f"the GM of {game}" for game in mastered)])


class AddressRefusal(StrEnum):
    """Why the address was not (asked to be) moved."""

    NOT_REGISTERED = "not registered"  # the sender is not the address of the seat signed on
    SAME = "same"  # the new address is the one already played with
    NO_CHANGE = "no change"  # no change to the sender waits for the code given


@dataclass(frozen=True)
class Asked:
    """A move from `old` waits for the code mailed to the new address (`mail`); `seats`, what
    `old` plays."""

    old: str
    seats: tuple[Seat, ...]
    mail: tuple[Outgoing, ...]


@dataclass(frozen=True)
class Confirmed:
    """What `old` had (`seats`, and the games it was GM of: `mastered`) is `new`'s now;
    `mail`, the notices to the old address and to the GMs of its games."""

    old: str
    new: str
    seats: tuple[Seat, ...]
    mastered: tuple[str, ...]
    mail: tuple[Outgoing, ...]


def ask(session: Session, game: GameRecord, power: str | None, new: str, *, now: datetime,
        actor: str, service: str, inbound_id: int | None = None) -> Asked | AddressRefusal:
    """SET ADDRESS: `actor`, signed on to `power` of `game` (None: as its GM), asks to move to
    `new`; a code is mailed there."""
    if power is None:
        registered: tuple[str, ...] = (games_repo.get_game(session, game.id).gm_address,)
    else:
        record = powers_repo.get_power(session, game.id, power)
        registered = record.addresses if record else ()
    old = next((a for a in registered if address_key(a) == address_key(actor)), None)
    if old is None:
        return AddressRefusal.NOT_REGISTERED
    if address_key(new) == address_key(old):
        return AddressRefusal.SAME
    code = new_password()
    address_changes.ask(session, old, new, code, now=now)
    audit.record_action(session, actor=actor, action="set address", now=now, game_id=game.id,
                        details={"new": new}, inbound_id=inbound_id)
    seats = seats_of(session, old)
    body = render("reply/address-confirm.txt.j2", old=old, listed=seats_line(seats), code=code,
                  days=CONFIRM_DAYS, service=service)
    mail = Outgoing((new,), build_subject("confirm your new address"), body, game.id)
    return Asked(old, seats, (mail,))


def confirm(session: Session, code: str, *, now: datetime, actor: str, service: str,
            inbound_id: int | None = None) -> Confirmed | AddressRefusal:
    """SET ADDRESS CONFIRM: the move to `actor` waiting for `code` is made."""
    waiting = address_changes.pending_to(session, actor, now=now)
    change = next((c for c in waiting if c.code == code), None)
    if change is None:
        return AddressRefusal.NO_CHANGE
    old, new = change.old_address, change.new_address
    seats = seats_of(session, old)
    mastered = tuple(g.name for g in games_repo.list_games(session)
                     if address_key(g.gm_address) == address_key(old))
    address_changes.apply(session, change)
    audit.record_action(session, actor=actor, action="address moved", now=now,
                        details={"old": old, "new": new}, inbound_id=inbound_id)
    listed = seats_line(seats, mastered) or "nothing yet"
    mail = [Outgoing((old,), build_subject("your address has moved"), render(
        "reply/address-moved.txt.j2", old=old, new=new, listed=listed, service=service))]
    for seat in seats:
        if address_key(seat.gm) not in (address_key(old), address_key(new)):
            mail.append(Outgoing(
                (seat.gm,), build_subject(f"{seat.power} has a new address", game=seat.game),
                render("reply/address-moved-gm.txt.j2", power=seat.power, game=seat.game,
                       old=old, new=new, service=service)))
    return Confirmed(old, new, seats, mastered, tuple(mail))
