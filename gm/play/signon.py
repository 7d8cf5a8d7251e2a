"""Signing on to play a power (SIGNON <power> <game> <password>) or as the GM (SIGNON GM <game>
<password>: `sign_on_master`), once the power is found and the sign-on guard lets the password
be checked (gm.play.signon_guard).

`sign_on` checks the password and gives a typed outcome: `SignedOn` (with whether the power
came back from civil disorder, the GM's notice if so, and the registered addresses that get a
copy of the reply when the sign-on came from elsewhere), or a `SignOnRefusal`. The words of the
reply are the caller's (gm.commands.catalog.signon, signon_master).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.render import render
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import upgraded_hash, verify_password
from gm.store.rows import GameRecord, PowerRecord
from gm.store.statuses import PowerStatus


class SignOnRefusal(StrEnum):
    """Why the sign-on to a power failed once its password could be checked."""

    WRONG_PASSWORD = "wrong password"  # or a power without a seat
    RESIGNED = "resigned"  # its player resigned: the GM finds a replacement


@dataclass(frozen=True)
class SignedOn:
    """Signed on as `power`; `back`: it was in civil disorder with a player and plays again
    (the GM is told: `mail`); `copies`: the power's registered addresses, when the sign-on
    came from another address (each gets a copy of the reply), else ()."""

    power: str
    back: bool
    copies: tuple[str, ...]
    mail: tuple[Outgoing, ...]


def sign_on(session: Session, game: GameRecord, power: str, record: PowerRecord | None,
            password: str, *, now: datetime, actor: str,
            service: str) -> SignedOn | SignOnRefusal:
    """The sender `actor` signs on as `power` of `game` (its seat `record`, None when it has
    none) with `password`. A password hash made before passwords were normalised is
    upgraded; a power that fell into civil disorder by missed deadlines (SET LATE DISORDER)
    is played again from now on."""
    if record is None or not verify_password(password, record.password_hash):
        return SignOnRefusal.WRONG_PASSWORD
    if record.status is PowerStatus.RESIGNED:
        return SignOnRefusal.RESIGNED
    upgraded = upgraded_hash(password, record.password_hash or "")
    if upgraded is not None:
        powers_repo.set_power_password(session, game.id, power, upgraded, now=now)
    mail: tuple[Outgoing, ...] = ()
    back = record.status is PowerStatus.CIVIL_DISORDER and bool(record.addresses)
    if back:
        powers_repo.set_power_status(session, game.id, power, PowerStatus.PLAYING, now=now)
        mail = (Outgoing((game.gm_address,), build_subject(f"{power} is back", game=game.name),
                         render("reply/back-from-disorder.txt.j2", game=game.name, power=power,
                                service=service), game.id),)
    known = {a.lower() for a in record.addresses}
    copies = record.addresses if known and actor.lower() not in known else ()
    return SignedOn(power, back, tuple(copies), mail)


@dataclass(frozen=True)
class MasterSignedOn:
    """Signed on as the GM of `game` (as stored after the sign-on)."""

    game: GameRecord


def sign_on_master(session: Session, game: GameRecord, password: str, *,
                   now: datetime) -> MasterSignedOn | SignOnRefusal:
    """SIGNON GM <game> <password>, once the sign-on guard lets the password be checked: the
    GM's password is checked against the game's; a hash made before passwords were normalised
    is upgraded."""
    if not verify_password(password, game.gm_password_hash):
        return SignOnRefusal.WRONG_PASSWORD
    upgraded = upgraded_hash(password, game.gm_password_hash)
    if upgraded is not None:
        game = games_repo.set_game_master(session, game.id, address=game.gm_address,
                                          password_hash=upgraded, now=now)
    return MasterSignedOn(game)
