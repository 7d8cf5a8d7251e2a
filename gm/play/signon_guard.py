"""Guarding sign-ons against password guessing without letting a guesser lock anyone out, as a
use case: the counts, the throttle and the mail to those who are told (the reply's words are
gm.commands.handlers.signon_guard's).

Every wrong password is logged with the power (or GM) it was for and the address it came from.
Within the last hour (WINDOW), counting only failures since the last UNLOCK of that power:

- an address that sent PER_ADDRESS wrong passwords for a game's powers and GM is refused
  sign-ons to that game without the password being checked, until the oldest of those
  failures is an hour old (`AddressThrottled`: the guesser is throttled, wherever they aim);
- a power (or the GM) with PER_POWER wrong passwords, from any addresses, is slowed, not
  locked: a sign-on to it from an address it is not registered with is checked only when the
  last wrong password for it is SLOW_GAP old (`PowerSlowed`); its player and the GM are told
  once;
- a sign-on from the power's registered address (the GM's: the game's GM address) is always
  checked, so the right password from it always works. Its reply goes to that address, so a
  guesser forging it learns nothing from the reply.

Replies to wrong passwords are capped per address, so that mail forged in someone's name (their
registered address above all, which is never refused) does not bury them in replies: within
WINDOW, an address gets REPLIES answers to its wrong passwords (in any game); the next one's
answer is the last (`LastAnswer`), saying that further wrong passwords from it are not answered
for an hour (WINDOW from then), and the GM of that game is told once. In that hour a message
whose sign-ons all fail gets no reply (`quieted`; a sign-on that succeeds is answered as usual:
the right password always works).

The GM lifts a power's counts with UNLOCK <power> (UNLOCK GM, UNLOCK ALL); REPLACE and a new
password (SET PASSWORD) lift the power's too; the operator, with `gm unlock GAME [WHO]`
(gm.play.signon_locks.lift).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.render import wrap
from gm.play.seating import addresses_hidden
from gm.play.signon_locks import ALL_KEY, FAILED, GM_KEY, QUIETED, UNLOCKED
from gm.store import audit
from gm.store.outgoing import Outgoing
from gm.store.rows import AuditRecord, GameRecord

PER_ADDRESS = 5  # wrong passwords from one address for one game within WINDOW: refused
PER_POWER = 5  # wrong passwords for one power within WINDOW, from anywhere: slowed
WINDOW = timedelta(hours=1)
REPLIES = 3  # wrong passwords from one address within WINDOW answered; the next one is the last
SLOW_GAP = timedelta(minutes=10)  # a slowed power: one check this often from elsewhere


@dataclass(frozen=True)
class Attempt:
    """A sign-on attempt: from `sender`, at `now`, in the inbound mail `inbound_id`, answered by
    the service named `service`."""

    session: Session
    sender: str
    now: datetime
    inbound_id: int | None
    service: str


@dataclass(frozen=True)
class _Failure:
    power: str
    address: str
    at: datetime


def who(power: str) -> str:
    """The power, or "the GM" for the GM's key."""
    return "the GM" if power == GM_KEY else power


def minutes(span: timedelta) -> int:
    return int(span.total_seconds() // 60)


def _counted(attempt: Attempt, game: GameRecord) -> list[_Failure]:
    """The game's wrong passwords within the window that no later UNLOCK lifted, oldest
    first."""
    since = attempt.now - WINDOW
    failed = audit.recent_actions(attempt.session, game_id=game.id, action=FAILED, since=since)
    if not failed:
        return []
    unlocks = audit.recent_actions(attempt.session, game_id=game.id, action=UNLOCKED,
                                   since=since)

    def lifted(entry: AuditRecord) -> bool:
        power = entry.details.get("power")
        return any(u.id > entry.id and u.details.get("power") in (power, ALL_KEY)
                   for u in unlocks)

    return [_Failure(str(e.details.get("power")), str(e.details.get("address", e.actor)).lower(),
                     e.at) for e in failed if not lifted(e)]


@dataclass(frozen=True)
class AddressThrottled:
    """The sender sent too many wrong passwords for the game: refused `until`."""

    until: datetime


@dataclass(frozen=True)
class PowerSlowed:
    """Sign-ons to `power` are slowed after `count` wrong passwords: next checked `until`."""

    power: str
    count: int
    until: datetime


Throttle = AddressThrottled | PowerSlowed


def throttle(attempt: Attempt, game: GameRecord, power: str,
             registered: tuple[str, ...]) -> Throttle | None:
    """Why a sign-on to `power` (GM_KEY for the GM) is refused without the password being
    checked, or None when it is to be checked. `registered`: the addresses the power (or the
    GM) is registered with; a sign-on from one of them is always checked."""
    sender = attempt.sender.lower()
    if sender in {a.lower() for a in registered}:
        return None
    failures = _counted(attempt, game)
    mine = [f for f in failures if f.address == sender]
    if len(mine) >= PER_ADDRESS:
        return AddressThrottled(mine[-PER_ADDRESS].at + WINDOW)
    aimed = [f for f in failures if f.power == power]
    if len(aimed) >= PER_POWER and attempt.now < aimed[-1].at + SLOW_GAP:
        return PowerSlowed(power, len(aimed), aimed[-1].at + SLOW_GAP)
    return None


def _from_sender(attempt: Attempt, action: str = FAILED) -> int:
    """The sender's entries of `action` (wrong passwords) within the window, in any game
    (UNLOCK does not lift them: they count replies, not sign-ons)."""
    return audit.count_by_actor(attempt.session, actor=attempt.sender, action=action,
                                since=attempt.now - WINDOW)


def quieted(attempt: Attempt) -> bool:
    """Is the sender told its wrong passwords are not answered for now (no reply to a message
    whose sign-ons all fail)?"""
    return _from_sender(attempt, QUIETED) > 0


@dataclass(frozen=True)
class LastAnswer:
    """This answer to a wrong password is the sender's last for a while: its `count` within
    the window; no more until `until`."""

    count: int
    until: datetime


@dataclass(frozen=True)
class WrongPassword:
    """A wrong password, logged: `quiet`, not answered; `last`, answered for the last time for
    a while; the `mail` to the power's player and the GM."""

    quiet: bool
    last: LastAnswer | None
    mail: tuple[Outgoing, ...]


def wrong_password(attempt: Attempt, game: GameRecord, power: str,
                   owners: tuple[str, ...]) -> WrongPassword:
    """A sign-on to `power` with a wrong password, logged. The sender's (REPLIES + 1)th within
    the window gets the last answer and the GM is told (logged as QUIETED); for the hour after
    that, no answer. On the one that slows sign-ons to `power`, `owners` and the GM are told."""
    mail = record_failure(attempt, game, power, owners)
    if quieted(attempt):
        return WrongPassword(True, None, tuple(mail))
    count = _from_sender(attempt)
    if count <= REPLIES:
        return WrongPassword(False, None, tuple(mail))
    audit.record_action(attempt.session, actor=attempt.sender, action=QUIETED, now=attempt.now,
                        game_id=game.id, details={"power": power, "count": count},
                        inbound_id=attempt.inbound_id)
    until = attempt.now + WINDOW
    keyword = "GM" if power == GM_KEY else power
    own = "the game's GM address" if power == GM_KEY else f"{power}'s registered address"
    subject = build_subject(f"wrong passwords from {attempt.sender}", game=game.name)
    body = (f"{attempt.sender} sent {count} wrong passwords within {minutes(WINDOW)} minutes, "
            f"the last for {who(power)} in {game.name}. Further wrong passwords from this "
            f"address are not answered until {until:%Y-%m-%d %H:%M} UTC, so that mail forged "
            "in someone's name does not flood them with replies.\n\n"
            f"The right password from {own} still works at once, and is answered as usual. "
            f"If the wrong passwords came from elsewhere, UNLOCK {keyword} "
            "lifts the slowing of sign-ons they may have caused, and SET PASSWORD changes a "
            "password.\n")
    mail.append(Outgoing((game.gm_address,), subject,
                         f"{_wrapped(body)}\n-- \n{attempt.service}\n", game.id))
    return WrongPassword(False, LastAnswer(count, until), tuple(mail))


def _wrapped(text: str) -> str:
    """Each paragraph of `text` wrapped at 78 columns."""
    return "\n\n".join(wrap(p, indent="") for p in text.strip("\n").split("\n\n")) + "\n"


def record_failure(attempt: Attempt, game: GameRecord, power: str,
                   owners: tuple[str, ...]) -> list[Outgoing]:
    """Log a wrong password; on the one that slows sign-ons to `power`, the mail telling
    `owners` and the GM what happened and what they can do."""
    audit.record_action(attempt.session, actor=attempt.sender, action=FAILED, now=attempt.now,
                        game_id=game.id, details={"power": power, "address": attempt.sender},
                        inbound_id=attempt.inbound_id)
    aimed = [f for f in _counted(attempt, game) if f.power == power]
    if len(aimed) != PER_POWER:
        return []
    keyword = "GM" if power == GM_KEY else power
    registered = "the game's GM address" if power == GM_KEY else "its registered address"
    subject = build_subject(f"wrong passwords for {who(power)}", game=game.name)

    def body(last: str) -> str:
        return (
            f"There were {PER_POWER} wrong passwords for {who(power)} in {game.name} within "
            f"{minutes(WINDOW)} minutes, the last from {last}.\n\n"
            f"Sign-ons to {who(power)} from {registered} are not affected: the right password "
            "from it always works, so you can go on playing as usual.\n"
            f"From other addresses, one sign-on to {who(power)} is checked every "
            f"{minutes(SLOW_GAP)} minutes until an hour passes without a wrong password, and "
            f"an address that sent {PER_ADDRESS} wrong passwords is refused for an hour.\n"
            f"If these were not you: the GM can lift this with UNLOCK {keyword}, and SET "
            "PASSWORD, sent after signing on, changes the password.\n\n"
            f"-- \n{attempt.service}\n")

    # in a QUIET game the guesser may be another player: only the GM learns the address
    hidden = "an address not shown in this QUIET game (the GM was told it)"
    players_see = hidden if addresses_hidden(game) else attempt.sender
    return [Outgoing((address,), subject,
                     body(attempt.sender if address == game.gm_address else players_see),
                     game.id)
            for address in dict.fromkeys((*owners, game.gm_address))]
