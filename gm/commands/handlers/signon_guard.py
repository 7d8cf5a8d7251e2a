"""Guarding sign-ons against password guessing without letting a guesser lock anyone out.

Every wrong password is logged with the power (or GM) it was for and the address it came from.
Within the last hour (WINDOW), counting only failures since the last UNLOCK of that power:

- an address that sent PER_ADDRESS wrong passwords for a game's powers and GM is refused
  sign-ons to that game without the password being checked, until the oldest of those
  failures is an hour old (the guesser is throttled, wherever they aim);
- a power (or the GM) with PER_POWER wrong passwords, from any addresses, is slowed, not
  locked: a sign-on to it from an address it is not registered with is checked only when the
  last wrong password for it is SLOW_GAP old; its player and the GM are told once;
- a sign-on from the power's registered address (the GM's: the game's GM address) is always
  checked, so the right password from it always works. Its reply goes to that address, so a
  guesser forging it learns nothing from the reply.

Replies to wrong passwords are capped per address, so that mail forged in someone's name (their
registered address above all, which is never refused) does not bury them in replies: within
WINDOW, an address gets REPLIES answers to its wrong passwords (in any game); the next one's
answer is the last, saying that further wrong passwords from it are not answered for an hour
(WINDOW from then), and the GM of that game is told once. In that hour a message whose sign-ons
all fail gets no reply (a sign-on that succeeds is answered as usual: the right password
always works).

The GM lifts a power's counts with UNLOCK <power> (UNLOCK GM, UNLOCK ALL); REPLACE and a new
password (SET PASSWORD) lift the power's too; the operator, with `gm unlock GAME [WHO]`.
A sign-on from an address other than the registered one is accepted with the right password;
the registered address gets a copy of the reply (see dispatch.run_commands).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from gm.commands.handlers.context import Context
from gm.commands.handlers.signon import refuse
from gm.mail.compose import build_subject
from gm.play.render import wrap
from gm.play.seating import addresses_hidden
from gm.play.signon_locks import ALL_KEY, FAILED, GM_KEY, QUIETED, UNLOCKED, lift
from gm.store import audit
from gm.store.outgoing import Outgoing
from gm.store.rows import AuditRecord, GameRecord

PER_ADDRESS = 5  # wrong passwords from one address for one game within WINDOW: refused
PER_POWER = 5  # wrong passwords for one power within WINDOW, from anywhere: slowed
WINDOW = timedelta(hours=1)
REPLIES = 3  # wrong passwords from one address within WINDOW answered; the next one is the last
SLOW_GAP = timedelta(minutes=10)  # a slowed power: one check this often from elsewhere


@dataclass(frozen=True)
class _Failure:
    power: str
    address: str
    at: datetime


def _who(power: str) -> str:
    return "the GM" if power == GM_KEY else power


def _minutes(span: timedelta) -> int:
    return int(span.total_seconds() // 60)


def _counted(ctx: Context, game: GameRecord) -> list[_Failure]:
    """The game's wrong passwords within the window that no later UNLOCK lifted, oldest
    first."""
    since = ctx.now - WINDOW
    failed = audit.recent_actions(ctx.session, game_id=game.id, action=FAILED, since=since)
    if not failed:
        return []
    unlocks = audit.recent_actions(ctx.session, game_id=game.id, action=UNLOCKED, since=since)

    def lifted(entry: AuditRecord) -> bool:
        power = entry.details.get("power")
        return any(u.id > entry.id and u.details.get("power") in (power, ALL_KEY)
                   for u in unlocks)

    return [_Failure(str(e.details.get("power")), str(e.details.get("address", e.actor)).lower(),
                     e.at) for e in failed if not lifted(e)]


def refusal(ctx: Context, game: GameRecord, power: str,
            registered: tuple[str, ...]) -> str | None:
    """Why a sign-on to `power` (GM_KEY for the GM) from the sender is refused without the
    password being checked, or None when it is to be checked. `registered`: the addresses
    the power (or the GM) is registered with; a sign-on from one of them is always checked."""
    sender = ctx.sender.lower()
    if sender in {a.lower() for a in registered}:
        return None
    failures = _counted(ctx, game)
    mine = [f for f in failures if f.address == sender]
    if len(mine) >= PER_ADDRESS:
        until = mine[-PER_ADDRESS].at + WINDOW
        return (f"Too many wrong passwords from {ctx.sender} for {game.name}: sign-ons to "
                f"{game.name} from this address are refused without checking the password "
                f"until {until:%Y-%m-%d %H:%M} UTC. From the address a power is registered "
                "with, the right password always works; the GM can lift this with UNLOCK.")
    aimed = [f for f in failures if f.power == power]
    if len(aimed) >= PER_POWER and ctx.now < aimed[-1].at + SLOW_GAP:
        who = _who(power)
        until = aimed[-1].at + SLOW_GAP
        return (f"Sign-ons to {who} in {game.name} are slowed after {len(aimed)} wrong "
                f"passwords within {_minutes(WINDOW)} minutes: from an address it is not "
                f"registered with, one is checked every {_minutes(SLOW_GAP)} minutes; try "
                f"again after {until:%Y-%m-%d %H:%M} UTC. From {who}'s registered address the "
                f"right password always works; the GM can lift this with UNLOCK "
                f"{'GM' if power == GM_KEY else power}.")
    return None


def _from_sender(ctx: Context, action: str = FAILED) -> int:
    """The sender's entries of `action` (wrong passwords) within the window, in any game
    (UNLOCK does not lift them: they count replies, not sign-ons)."""
    return audit.count_by_actor(ctx.session, actor=ctx.sender, action=action,
                                since=ctx.now - WINDOW)


def refused(ctx: Context, text: str) -> None:
    """Refuse the sign-on (`refusal`'s text) without checking the password; no reply when the
    sender was told its wrong passwords are no longer answered."""
    refuse(ctx, text)
    if _from_sender(ctx, QUIETED):
        ctx.results.withheld = True


def wrong_password(ctx: Context, game: GameRecord, power: str, owners: tuple[str, ...],
                   text: str) -> None:
    """Refuse a sign-on with a wrong password (`text` says so) and log it. The sender's
    (REPLIES + 1)th within the window gets the last answer and the GM is told (logged as
    QUIETED); for the hour after that, no answer. On the one that slows sign-ons to `power`,
    `owners` and the GM are told."""
    record_failure(ctx, game, power, owners)
    refuse(ctx, text)
    if _from_sender(ctx, QUIETED):
        ctx.results.withheld = True
        return
    count = _from_sender(ctx)
    if count <= REPLIES:
        return
    audit.record_action(ctx.session, actor=ctx.sender, action=QUIETED, now=ctx.now,
                        game_id=game.id, details={"power": power, "count": count},
                        inbound_id=ctx.inbound_id)
    until = ctx.now + WINDOW
    ctx.results.add(f"That is {count} wrong passwords from {ctx.sender} within "
                    f"{_minutes(WINDOW)} minutes: further wrong passwords from this address are "
                    f"not answered until {until:%Y-%m-%d %H:%M} UTC. The right password still "
                    "works from the address a power is registered with.")
    who, keyword = _who(power), "GM" if power == GM_KEY else power
    own = "the game's GM address" if power == GM_KEY else f"{power}'s registered address"
    subject = build_subject(f"wrong passwords from {ctx.sender}", game=game.name)
    body = (f"{ctx.sender} sent {count} wrong passwords within {_minutes(WINDOW)} minutes, "
            f"the last for {who} in {game.name}. Further wrong passwords from this address "
            f"are not answered until {until:%Y-%m-%d %H:%M} UTC, so that mail forged in "
            "someone's name does not flood them with replies.\n\n"
            f"The right password from {own} still works at once, and is answered as usual. "
            f"If the wrong passwords came from elsewhere, UNLOCK {keyword} "
            "lifts the slowing of sign-ons they may have caused, and SET PASSWORD changes a "
            "password.\n")
    ctx.results.mail.append(Outgoing((game.gm_address,), subject,
                                   f"{_wrapped(body)}\n-- \n{ctx.service}\n", game.id))


def _wrapped(text: str) -> str:
    """Each paragraph of `text` wrapped at 78 columns."""
    return "\n\n".join(wrap(p, indent="") for p in text.strip("\n").split("\n\n")) + "\n"


def record_failure(ctx: Context, game: GameRecord, power: str,
                   owners: tuple[str, ...]) -> None:
    """Log a wrong password; on the one that slows sign-ons to `power`, tell `owners` and the
    GM what happened and what they can do."""
    audit.record_action(ctx.session, actor=ctx.sender, action=FAILED, now=ctx.now,
                        game_id=game.id, details={"power": power, "address": ctx.sender},
                        inbound_id=ctx.inbound_id)
    aimed = [f for f in _counted(ctx, game) if f.power == power]
    if len(aimed) != PER_POWER:
        return
    who = _who(power)
    keyword = "GM" if power == GM_KEY else power
    registered = "the game's GM address" if power == GM_KEY else "its registered address"
    subject = build_subject(f"wrong passwords for {who}", game=game.name)

    def body(last: str) -> str:
        return (
            f"There were {PER_POWER} wrong passwords for {who} in {game.name} within "
            f"{_minutes(WINDOW)} minutes, the last from {last}.\n\n"
            f"Sign-ons to {who} from {registered} are not affected: the right password from "
            "it always works, so you can go on playing as usual.\n"
            f"From other addresses, one sign-on to {who} is checked every "
            f"{_minutes(SLOW_GAP)} minutes until an hour passes without a wrong password, and "
            f"an address that sent {PER_ADDRESS} wrong passwords is refused for an hour.\n"
            f"If these were not you: the GM can lift this with UNLOCK {keyword}, and SET "
            "PASSWORD, sent after signing on, changes the password.\n\n"
            f"-- \n{ctx.service}\n")

    # in a QUIET game the guesser may be another player: only the GM learns the address
    hidden = "an address not shown in this QUIET game (the GM was told it)"
    players_see = hidden if addresses_hidden(game) else ctx.sender
    for address in dict.fromkeys((*owners, game.gm_address)):
        shown = ctx.sender if address == game.gm_address else players_see
        ctx.results.mail.append(Outgoing((address,), subject, body(shown), game.id))


def unlock(ctx: Context, game: GameRecord, power: str) -> None:
    """Forget the wrong passwords counted so far for `power` (GM_KEY, or ALL_KEY for every
    power and the GM), and for the addresses that sent them."""
    lift(ctx.session, game.id, power, actor=ctx.sender, now=ctx.now, inbound_id=ctx.inbound_id)
