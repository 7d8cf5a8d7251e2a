"""The sign-on guard's words: a sign-on refused without its password being checked, a wrong
password answered (or not), UNLOCK. What is counted, refused and told is the use case
gm.play.signon_guard (its module docstring gives the rules); the catalog modules of SIGNON,
SIGNON GM, TAKEOVER, SET PASSWORD and UNLOCK call these.
"""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.commands.handlers.signon import refuse
from gm.play import signon_guard as guard
from gm.play.signon_guard import AddressThrottled, Attempt, Throttle, minutes, who
from gm.play.signon_locks import GM_KEY, lift
from gm.store.rows import GameRecord


def _attempt(ctx: Context) -> Attempt:
    return Attempt(ctx.session, ctx.sender, ctx.now, ctx.inbound_id, ctx.service)


def refusal(ctx: Context, game: GameRecord, power: str,
            registered: tuple[str, ...]) -> str | None:
    """Why a sign-on to `power` (GM_KEY for the GM) from the sender is refused without the
    password being checked (gm.play.signon_guard.throttle), or None when it is to be checked.
    `registered`: the addresses the power (or the GM) is registered with."""
    throttled = guard.throttle(_attempt(ctx), game, power, registered)
    return None if throttled is None else throttle_words(ctx, game, power, throttled)


def throttle_words(ctx: Context, game: GameRecord, power: str, throttled: Throttle) -> str:
    """Why a sign-on to `power` (GM_KEY for the GM) is refused without the password being
    checked, as the guard decided it (`throttled`)."""
    if isinstance(throttled, AddressThrottled):
        return (f"Too many wrong passwords from {ctx.sender} for {game.name}: sign-ons to "
                f"{game.name} from this address are refused without checking the password "
                f"until {throttled.until:%Y-%m-%d %H:%M} UTC. From the address a power is "
                "registered with, the right password always works; the GM can lift this with "
                "UNLOCK.")
    name = who(power)
    return (f"Sign-ons to {name} in {game.name} are slowed after {throttled.count} wrong "
            f"passwords within {minutes(guard.WINDOW)} minutes: from an address it is not "
            f"registered with, one is checked every {minutes(guard.SLOW_GAP)} minutes; try "
            f"again after {throttled.until:%Y-%m-%d %H:%M} UTC. From {name}'s registered "
            f"address the right password always works; the GM can lift this with UNLOCK "
            f"{'GM' if power == GM_KEY else power}.")


def refused(ctx: Context, text: str) -> None:
    """Refuse the sign-on (`refusal`'s text) without checking the password; no reply when the
    sender was told its wrong passwords are no longer answered."""
    refuse(ctx, text)
    if guard.quieted(_attempt(ctx)):
        ctx.results.withheld = True


def wrong_password(ctx: Context, game: GameRecord, power: str, owners: tuple[str, ...],
                   text: str) -> None:
    """Refuse a sign-on with a wrong password (`text` says so), logged
    (gm.play.signon_guard.wrong_password): no reply when the sender's wrong passwords are not
    answered now, and the last answer for a while says so."""
    wrong = guard.wrong_password(_attempt(ctx), game, power, owners)
    refuse(ctx, text)
    if wrong.quiet:
        ctx.results.withheld = True
    elif wrong.last is not None:
        ctx.results.add(f"That is {wrong.last.count} wrong passwords from {ctx.sender} within "
                        f"{minutes(guard.WINDOW)} minutes: further wrong passwords from this "
                        f"address are not answered until {wrong.last.until:%Y-%m-%d %H:%M} UTC. "
                        "The right password still works from the address a power is registered"
                        " with.")
    ctx.results.mail.extend(wrong.mail)


def record_failure(ctx: Context, game: GameRecord, power: str,
                   owners: tuple[str, ...]) -> None:
    """Log a wrong password; on the one that slows sign-ons to `power`, `owners` and the GM
    are told (gm.play.signon_guard.record_failure)."""
    ctx.results.mail.extend(guard.record_failure(_attempt(ctx), game, power, owners))


def unlock(ctx: Context, game: GameRecord, power: str) -> None:
    """Forget the wrong passwords counted so far for `power` (GM_KEY, or ALL_KEY for every
    power and the GM), and for the addresses that sent them."""
    lift(ctx.session, game.id, power, actor=ctx.sender, now=ctx.now, inbound_id=ctx.inbound_id)
