"""Guarding sign-ons: wrong passwords are logged, and after too many within an hour for one
power (or the GM) of a game, sign-ons to it are refused without checking the password and
the power's player and the GM are told. A sign-on from an address other than the power's
registered one is accepted with the right password; the registered address gets a copy of
the reply (see dispatch.run_commands)."""

from __future__ import annotations

from datetime import datetime, timedelta

from gm.commands.handlers.context import Context, Notice
from gm.mail.compose import build_subject
from gm.store import audit
from gm.store.records import GameRecord

MAX_FAILURES = 5  # wrong passwords for one game and power ...
WINDOW = timedelta(hours=1)  # ... within this long, and sign-ons to it are refused
FAILED = "signon_failed"
GM_KEY = "GM"  # the power key of the GM's sign-on


def _failures(ctx: Context, game: GameRecord, power: str) -> list[datetime]:
    since = ctx.now - WINDOW
    return [e.at for e in audit.recent_actions(ctx.session, game_id=game.id, action=FAILED,
                                               since=since)
            if e.details.get("power") == power]


def throttled_until(ctx: Context, game: GameRecord, power: str) -> datetime | None:
    """When sign-ons to `power` (GM_KEY for the GM) open again, or None if they are open."""
    failures = _failures(ctx, game, power)
    if len(failures) < MAX_FAILURES:
        return None
    return failures[-MAX_FAILURES] + WINDOW


def record_failure(ctx: Context, game: GameRecord, power: str,
                   owners: tuple[str, ...]) -> None:
    """Log a wrong password; on the one that closes sign-ons, tell `owners` and the GM."""
    audit.record_action(ctx.session, actor=ctx.sender, action=FAILED, now=ctx.now,
                        game_id=game.id, details={"power": power, "address": ctx.sender},
                        inbound_id=ctx.inbound_id)
    until = throttled_until(ctx, game, power)
    if until is None:
        return
    who = "the GM" if power == GM_KEY else power
    subject = build_subject(f"sign-ons to {who} refused for now", game=game.name)
    body = (f"There were {MAX_FAILURES} wrong passwords for {who} in {game.name} within "
            f"{int(WINDOW.total_seconds() // 60)} minutes, the last from {ctx.sender}.\n"
            f"Sign-ons to {who} are refused until {until:%Y-%m-%d %H:%M} UTC.\n"
            "If this was not you, tell the GM; SET PASSWORD changes a password.\n\n"
            f"-- \n{ctx.service}\n")
    for address in dict.fromkeys((*owners, game.gm_address)):
        ctx.results.mail.append(Notice((address,), subject, body, game.id))


def throttle_message(who: str, game: GameRecord, until: datetime) -> str:
    return (f"Too many wrong passwords for {who} in {game.name}: sign-ons to it are refused "
            f"without checking the password until {until:%Y-%m-%d %H:%M} UTC.")
