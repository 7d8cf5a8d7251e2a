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

The GM lifts a power's counts with UNLOCK <power> (UNLOCK GM, UNLOCK ALL); REPLACE and a new
password (SET PASSWORD) lift the power's too; the operator, with `gm unlock GAME [WHO]`.
A sign-on from an address other than the registered one is accepted with the right password;
the registered address gets a copy of the reply (see dispatch.run_commands).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gm.commands.handlers.context import Context, Notice
from gm.mail.compose import build_subject
from gm.play.seating import addresses_hidden
from gm.store import audit
from gm.store.rows import AuditRecord, GameRecord

PER_ADDRESS = 5  # wrong passwords from one address for one game within WINDOW: refused
PER_POWER = 5  # wrong passwords for one power within WINDOW, from anywhere: slowed
WINDOW = timedelta(hours=1)
SLOW_GAP = timedelta(minutes=10)  # a slowed power: one check this often from elsewhere
FAILED = "signon_failed"
UNLOCKED = "signon_unlocked"
GM_KEY = "GM"  # the power key of the GM's sign-on
ALL_KEY = "*"  # an UNLOCK of every power and the GM


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
        ctx.results.mail.append(Notice((address,), subject, body(shown), game.id))


def unlock(ctx: Context, game: GameRecord, power: str) -> None:
    """Forget the wrong passwords counted so far for `power` (GM_KEY, or ALL_KEY for every
    power and the GM), and for the addresses that sent them."""
    lift(ctx.session, game.id, power, actor=ctx.sender, now=ctx.now, inbound_id=ctx.inbound_id)


def lift(session: Session, game_id: int, power: str, *, actor: str, now: datetime,
         inbound_id: int | None = None) -> None:
    """`unlock` by whoever `actor` is (the operator's `gm unlock`)."""
    audit.record_action(session, actor=actor, action=UNLOCKED, now=now, game_id=game_id,
                        details={"power": power}, inbound_id=inbound_id)
