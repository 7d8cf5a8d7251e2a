"""What the GM's game settings share (SET DEADLINE, GRACE, TIMEZONE, PRESS, LATE, EARLY, REMIND,
OBSERVERS, RULEBOOK, and ADD OBSERVER): the change of the settings, the observers' list.

Each is stored in the game's settings document (gm.store.settings), echoed in the reply,
logged in the audit trail and, in a game under way, told to everyone in it (but the observers'
addresses; gm.commands.handlers.announce). A deadline change applies to phases opened after it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gm.commands.handlers.announce import announce
from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.context import Context
from gm.play.game_settings import SettingsRefusal, change_settings
from gm.play.observing import MAX_OBSERVERS
from gm.store.settings import OBSERVERS_KEY, GameSettings


def duration_text(span: timedelta) -> str:
    """`timedelta(hours=36)` as "1 day 12 hours"; zero as "none"."""
    seconds = int(span.total_seconds())
    if seconds <= 0:
        return "none"
    parts = []
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {name}{'s' if count != 1 else ''}")
    return " ".join(parts) or f"{seconds} seconds"


def shown_late(settings: GameSettings) -> str:
    """The game's late policy as SUMMARY and LIST show it (`HOLD after 2`)."""
    return settings.late.value.upper() + (f" after {settings.late_after}"
                                          if settings.late_after else "")


def change(
    ctx: Context, what: str, details: dict[str, Any], *, told: bool = True, **changes: Any
) -> GameSettings | None:
    """Store `changes` in the signed-on GM's game; the new settings, or None if refused.
    With `told`, everyone in a game under way is told of the change (and of what the reply
    goes on to say of it; gm.commands.handlers.announce)."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    done = change_settings(ctx.session, game, what, details, now=ctx.now, actor=ctx.sender,
                           inbound_id=ctx.inbound_id, **changes)
    if done is SettingsRefusal.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return None
    signed.game = done
    if told and ctx.command is not None:
        announce(ctx, game, ctx.command.line.text)
    return done.settings


def change_extra(ctx: Context, what: str, key: str, value: object,
                 details: dict[str, Any], *, told: bool = True) -> GameSettings | None:
    """`change` of one entry of the game's settings document beside its named settings
    (`extra`; None removes it): the new settings, or None if refused. `told`: as `change`
    (False for a setting whose command tells everyone itself)."""
    extra = {} if ctx.signed is None else dict(refresh(ctx, ctx.signed.game).settings.extra)
    if value is None:
        extra.pop(key, None)
    else:
        extra[key] = value
    return change(ctx, what, details, told=told, extra=extra)


def game_name(ctx: Context) -> str:
    return "" if ctx.signed is None else ctx.signed.game.name


def store_observers(ctx: Context, what: str, addresses: list[str]) -> bool:
    """Make `addresses` the signed-on GM's game's observers; whether they were (the refusal,
    such as a finished game's, is in the reply)."""
    if len(addresses) > MAX_OBSERVERS:
        ctx.results.add(f"{what}: refused, a game has at most {MAX_OBSERVERS} observers.")
        return False
    signed = ctx.signed
    assert signed is not None  # as_master checked it
    extra = {**refresh(ctx, signed.game).settings.extra, OBSERVERS_KEY: addresses}
    if change(ctx, what, {"observers": len(addresses)}, told=False, extra=extra) is None:
        return False
    ctx.results.add(f"Observers of {game_name(ctx)}: "
                    + (", ".join(addresses) if addresses else "none") + ".")
    return True


