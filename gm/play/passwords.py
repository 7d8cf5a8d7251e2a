"""A player changing the password of the power they play (SET PASSWORD <new>): the new one is
stored (hashed) and the wrong passwords counted against the power so far are forgotten, as
guesses at the old one are moot (gm.play.signon_locks). The words of the reply are the
caller's (gm.commands.catalog.set_password)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gm.play.signon_locks import lift
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password
from gm.store.rows import GameRecord


@dataclass(frozen=True)
class PasswordChanged:
    """`power` of `game` signs on with the new password from now on."""

    game: str
    power: str


def set_password(session: Session, game: GameRecord, power: str, password: str, *,
                 now: datetime, actor: str, inbound_id: int | None = None) -> PasswordChanged:
    """SET PASSWORD: `power` of `game` signs on with `password` from now on."""
    powers_repo.set_power_password(session, game.id, power, hash_password(password), now=now)
    lift(session, game.id, power, actor=actor, now=now, inbound_id=inbound_id)
    return PasswordChanged(game.name, power)
