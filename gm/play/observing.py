"""Observing a game (OBSERVE <game> [OFF], njudge's observer sign-on): anyone asks for the
observers' report of every phase, confirmed from the address (OBSERVE <game> CONFIRM <code>,
the code in the reply to OBSERVE) as SET ADDRESS is, so that a forged From cannot sign someone
else up; or stops getting it.

`observe` and `stop` give typed outcomes: `Asked` (the code to mail back), `Observing` (with
the GM's notice), `Stopped`, or an `ObserveRefusal`. The words of the reply are the caller's
(gm.commands.catalog.observe). The GM's SET OBSERVE ON|OFF (whether anyone may) is kept under
`OPEN_KEY`; the list itself is the one SET OBSERVERS and ADD OBSERVER keep (gm.play.observers).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.play.seats import new_password
from gm.store import address_changes, audit
from gm.store import games as games_repo
from gm.store.outgoing import Outgoing
from gm.store.powers import address_key
from gm.store.rows import GameRecord
from gm.store.settings import OBSERVERS_KEY
from gm.store.statuses import GameStatus

OPEN_KEY = "observe_open"  # settings document key: False when the GM forbids OBSERVE
WAITING_KEY = "observers_waiting"  # settings document key: [{"address", "code", "until"}, ...]
MAX_OBSERVERS = 50  # the most observers a game may have


class ObserveRefusal(StrEnum):
    """Why OBSERVE (or OBSERVE ... OFF) changed nothing."""

    NOT_OBSERVING = "not observing"  # OFF from an address that does not observe
    ALREADY = "already"  # the address observes the game already
    FINISHED = "finished"  # the game is over: HISTORY shows it
    CLOSED = "closed"  # the GM forbade signing up (SET OBSERVE OFF)
    FULL = "full"  # the game has MAX_OBSERVERS observers
    NO_SUCH_CODE = "no such code"  # no request from the address waits for that code


@dataclass(frozen=True)
class Asked:
    """The request is kept until `code` comes back from the address (within
    `address_changes.CONFIRM_WITHIN`)."""

    code: str


@dataclass(frozen=True)
class Observing:
    """The address observes the game now; `started`, the game has started (HISTORY shows the
    phases so far); `mail`, the GM's notice."""

    started: bool
    mail: tuple[Outgoing, ...]


@dataclass(frozen=True)
class Stopped:
    """The address no longer observes the game."""


ObserveOutcome = Asked | Observing | Stopped | ObserveRefusal


def observing_allowed(game: GameRecord) -> bool:
    """Whether anyone may OBSERVE the game (SET OBSERVE; allowed unless the GM forbade it)."""
    return game.settings.extra.get(OPEN_KEY, True) is not False


def stop(session: Session, game: GameRecord, *, now: datetime, actor: str,
         inbound_id: int | None = None) -> Stopped | ObserveRefusal:
    """OBSERVE <game> OFF: `actor` no longer gets the observers' report."""
    current = observers(game)
    mine = [a for a in current if a.lower() == actor.lower()]
    if not mine:
        return ObserveRefusal.NOT_OBSERVING
    _store(session, game, [a for a in current if a not in mine], "unobserve", now=now,
           actor=actor, inbound_id=inbound_id)
    return Stopped()


def observe(session: Session, game: GameRecord, code: str | None, *, now: datetime,
            actor: str, service: str,
            inbound_id: int | None = None) -> Asked | Observing | ObserveRefusal:
    """OBSERVE <game> (`code` None: a code is made and kept for `actor`) or OBSERVE <game>
    CONFIRM <code> (`actor` observes from now on, and the GM is told)."""
    current = observers(game)
    if any(a.lower() == actor.lower() for a in current):
        return ObserveRefusal.ALREADY
    if game.status is GameStatus.FINISHED:
        return ObserveRefusal.FINISHED
    if not observing_allowed(game):
        return ObserveRefusal.CLOSED
    if len(current) >= MAX_OBSERVERS:
        return ObserveRefusal.FULL
    if code is None:
        return Asked(_ask(session, game, now=now, actor=actor))
    if not _confirmed(session, game, code, now=now, actor=actor):
        return ObserveRefusal.NO_SUCH_CODE
    game = games_repo.get_game(session, game.id)
    _store(session, game, [*observers(game), actor], "observe", now=now, actor=actor,
           inbound_id=inbound_id)
    text = (f"{actor} observes {game.name} now (OBSERVE). SET OBSERVERS changes the list; "
            "SET OBSERVE OFF stops anyone else signing up.")
    notice = Outgoing((game.gm_address,), build_subject("a new observer", game=game.name),
                      f"{text}\n\n-- \n{service}\n", game.id)
    return Observing(game.status is not GameStatus.FORMING, (notice,))


def _waiting(game: GameRecord, now: datetime) -> list[dict[str, str]]:
    """The OBSERVE requests of the game still waiting for their code."""
    value = game.settings.extra.get(WAITING_KEY, [])
    return [w for w in value if isinstance(w, dict) and str(w.get("until", "")) > now.isoformat()
            ] if isinstance(value, list) else []


def _save_waiting(session: Session, game: GameRecord, waiting: list[dict[str, str]], *,
                  now: datetime) -> None:
    extra = {**game.settings.extra, WAITING_KEY: waiting}
    games_repo.set_game_settings(session, game.id,
                                 dataclasses.replace(game.settings, extra=extra), now=now)


def _ask(session: Session, game: GameRecord, *, now: datetime, actor: str) -> str:
    """Keep a new code for `actor` (the reply mails it to the From address): OBSERVE takes
    effect when it comes back from there."""
    code = new_password()
    until = now + address_changes.CONFIRM_WITHIN
    others = [w for w in _waiting(game, now) if address_key(w["address"]) != address_key(actor)]
    _save_waiting(session, game, [*others[-(MAX_OBSERVERS - 1):], {
        "address": actor, "code": code, "until": until.isoformat()}], now=now)
    return code


def _confirmed(session: Session, game: GameRecord, code: str, *, now: datetime,
               actor: str) -> bool:
    """Whether `code` is the one mailed to `actor` for the game (the request is then
    removed)."""
    waiting = _waiting(game, now)
    mine = [w for w in waiting
            if address_key(w["address"]) == address_key(actor) and w["code"] == code]
    if not mine:
        return False
    _save_waiting(session, game, [w for w in waiting if w not in mine], now=now)
    return True


def _store(session: Session, game: GameRecord, addresses: list[str], action: str, *,
           now: datetime, actor: str, inbound_id: int | None) -> None:
    settings = game.settings
    extra = {**settings.extra, OBSERVERS_KEY: addresses}
    games_repo.set_game_settings(session, game.id, dataclasses.replace(settings, extra=extra),
                                 now=now)
    audit.record_action(session, actor=actor, action=action, now=now, game_id=game.id,
                        details={"address": actor}, inbound_id=inbound_id)
