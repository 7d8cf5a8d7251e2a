"""Taking over a vacant power (TAKEOVER <power> <game> <takeover password> <your password>):
in a game under way whose GM gave out a takeover password (SET TAKEOVER), anyone who has it
may take a power in civil disorder, or one nobody plays, and play it with their own password.
Wrong takeover passwords are counted by the sign-on guard (gm.play.signon_guard) under
`GUARD_KEY`, as wrong sign-on passwords are.

`take_over` gives `TookOver` (the calendar event of the open phase, the GM's notice) or why
not: `Closed` (no takeovers), `Throttled` (the guard refuses before checking), `WrongPassword`
(with the guard's notices) or `NotVacant`. The words of the reply are the caller's
(gm.commands.catalog.takeover). `allow_takeovers` is the GM's SET TAKEOVER <password> and
SET NO TAKEOVER (gm.commands.catalog.set_takeover).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play import signon_guard as guard
from gm.play.game_settings import SettingsRefusal, change_settings
from gm.play.render import render
from gm.play.seats import phase_event
from gm.play.seats import take_over as seat_taker
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password, verify_password
from gm.store.rows import Attachment, GameRecord, PowerRecord
from gm.store.settings import TAKEOVER_KEY
from gm.store.statuses import GameStatus, PowerStatus

GUARD_KEY = "TAKEOVER"  # the key wrong takeover passwords are counted under


def vacant(power: PowerRecord) -> bool:
    """A power in civil disorder, or one still played by nobody."""
    return power.status is PowerStatus.CIVIL_DISORDER or (
        not power.addresses and power.status is PowerStatus.PLAYING)


@dataclass(frozen=True)
class Closed:
    """The game takes no takeovers: its GM has not allowed them (`allowed` False), or it is
    `status`, not under way."""

    allowed: bool
    status: GameStatus


@dataclass(frozen=True)
class Throttled:
    """The sign-on guard refuses the attempt without checking the password (`why`)."""

    why: guard.Throttle


@dataclass(frozen=True)
class WrongPassword:
    """The takeover password is wrong; `mail`, the guard's notices (if this one slows
    takeovers)."""

    mail: tuple[Outgoing, ...]


@dataclass(frozen=True)
class NotVacant:
    """The power named is not one to take over: `power`, its name if the game has it (then it
    has a player); `free`, the powers that may be taken over."""

    power: str | None
    free: tuple[str, ...]


@dataclass(frozen=True)
class TookOver:
    """The sender plays `power` of `game` (as now stored); `attachments`, the open phase's
    calendar event for them; `mail`, the GM's notice."""

    power: str
    game: GameRecord
    attachments: tuple[Attachment, ...]
    mail: tuple[Outgoing, ...]


TakeoverOutcome = TookOver | Closed | Throttled | WrongPassword | NotVacant


def take_over(session: Session, game: GameRecord, power: str, takeover: str, password: str,
              *, now: datetime, actor: str, service: str, inbound_id: int | None = None
              ) -> TakeoverOutcome:
    """TAKEOVER: `actor`, giving the game's `takeover` password, takes the vacant `power` (as
    written) of `game` and signs on with `password` from now on."""
    stored = game.settings.extra.get(TAKEOVER_KEY)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or not stored:
        return Closed(stored is not None, game.status)
    attempt = guard.Attempt(session, actor, now, inbound_id, service)
    throttled = guard.throttle(attempt, game, GUARD_KEY, ())
    if throttled is not None:
        return Throttled(throttled)
    if not verify_password(takeover, str(stored)):
        return WrongPassword(tuple(guard.record_failure(attempt, game, GUARD_KEY, ())))
    powers = powers_repo.list_powers(session, game.id)
    found = next((p for p in powers if p.name.casefold() == power.casefold()), None)
    free = tuple(p.name for p in powers if vacant(p))
    if found is None or found.name not in free:
        return NotVacant(None if found is None else found.name, free)
    seat_taker(session, game, found, password, now=now, actor=actor, inbound_id=inbound_id)
    current = phases_repo.current_phase(session, game.id)
    phase = None if current is None or current.adjudicated else current
    notice = Outgoing(
        (game.gm_address,), build_subject(f"{found.name} was taken over", game=game.name),
        render("reply/taken-over-gm.txt.j2", address=actor, power=found.name, game=game.name,
               service=service), game.id)
    return TookOver(found.name, games_repo.get_game(session, game.id),
                    phase_event(game, phase, actor, found.name, now=now), (notice,))


def allow_takeovers(session: Session, game: GameRecord, password: str | None, *,
                    now: datetime, actor: str, inbound_id: int | None = None
                    ) -> GameRecord | SettingsRefusal:
    """SET TAKEOVER <password> (SET NO TAKEOVER: None): whoever has `password` may take over
    a vacant power of `game` from now on; it is kept hashed, and the audit entry says only
    whether takeovers are on. The game as now stored."""
    extra = dict(game.settings.extra)
    if password is None:
        extra.pop(TAKEOVER_KEY, None)
    else:
        extra[TAKEOVER_KEY] = hash_password(password)
    what = "SET TAKEOVER" if password is not None else "SET NO TAKEOVER"
    return change_settings(session, game, what, {"takeover": password is not None}, now=now,
                           actor=actor, inbound_id=inbound_id, extra=extra)
