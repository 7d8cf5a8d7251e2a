"""The GM's game settings: SET DEADLINE, GRACE, TIMEZONE, PRESS, LATE, EARLY, REMIND,
OBSERVERS, RULEBOOK, and ADD OBSERVER.

Each is stored in the game's settings document (gm.store.settings), echoed in the reply and
logged in the audit trail. A deadline change applies to phases opened after it.
"""

from __future__ import annotations

import dataclasses
from datetime import time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.commands.handlers.common import as_master, refresh, rulebook_refusal, variant_of
from gm.commands.handlers.context import Context
from gm.commands.values import (
    AddObserver,
    SetDeadline,
    SetEarly,
    SetGrace,
    SetLate,
    SetObservers,
    SetPress,
    SetRemind,
    SetRulebook,
    SetTimezone,
)
from gm.engine.phase import PhaseType
from gm.engine.rulebook import RULEBOOK_KEY
from gm.play.observers import OBSERVERS_KEY, observers
from gm.play.reminders import DEFAULT_REMIND, REMIND_KEY
from gm.policies import LatePolicy
from gm.store import audit
from gm.store import games as games_repo
from gm.store.settings import Deadline, GameSettings
from gm.store.statuses import GameStatus


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


def deadline_text(rule: Deadline, zone: str) -> str:
    if isinstance(rule, time):
        return f"at {rule:%H:%M} ({zone})"
    return f"{duration_text(rule)} after the phase opens"


def _change(
    ctx: Context, what: str, details: dict[str, Any], **changes: Any
) -> GameSettings | None:
    """Store `changes` in the signed-on GM's game; the new settings, or None if refused."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return None
    settings = dataclasses.replace(game.settings, **changes)
    signed.game = games_repo.set_game_settings(ctx.session, game.id, settings, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="set", now=ctx.now,
                        game_id=game.id, details={"setting": what, **details},
                        inbound_id=ctx.inbound_id)
    return settings


def _game_name(ctx: Context) -> str:
    return "" if ctx.signed is None else ctx.signed.game.name


def set_deadline(ctx: Context, command: SetDeadline) -> None:
    signed = as_master(ctx, "SET DEADLINE")
    if signed is None:
        return
    kinds = list(PhaseType) if command.phase_type is None else [command.phase_type]
    deadlines = dict(refresh(ctx, signed.game).settings.deadlines)
    for kind in kinds:
        deadlines[kind] = command.when
    rule = (command.when.strftime("%H:%M") if isinstance(command.when, time)
            else int(command.when.total_seconds()))
    settings = _change(ctx, "SET DEADLINE", {"phases": [k.value for k in kinds], "rule": rule},
                       deadlines=deadlines)
    if settings is None:
        return
    which = ("every phase" if command.phase_type is None
             else f"{command.phase_type.value.lower()} phases")
    ctx.results.add(f"Deadline of {which} in {_game_name(ctx)}: "
                    f"{deadline_text(command.when, settings.timezone)} (from the next phase on).")


def set_grace(ctx: Context, command: SetGrace) -> None:
    if _change(ctx, "SET GRACE", {"seconds": int(command.grace.total_seconds())},
               grace=command.grace) is not None:
        ctx.results.add(f"Grace period in {_game_name(ctx)}: {duration_text(command.grace)}.")


def set_timezone(ctx: Context, command: SetTimezone) -> None:
    if as_master(ctx, "SET TIMEZONE") is None:
        return
    try:
        ZoneInfo(command.zone)
    except (ZoneInfoNotFoundError, ValueError):
        ctx.results.add(f"SET TIMEZONE: {command.zone!r} is not a time zone; give a tz "
                        "database name such as Europe/Paris or UTC.")
        return
    if _change(ctx, "SET TIMEZONE", {"zone": command.zone}, timezone=command.zone) is not None:
        ctx.results.add(f"Time zone of {_game_name(ctx)}: {command.zone}.")


_PRESS_TEXT = {
    "none": "no press",
    "white": "signed press only",
    "grey": "grey (anonymous) press only",
    "all": "signed and grey press",
}


def set_press(ctx: Context, command: SetPress) -> None:
    if _change(ctx, "SET PRESS", {"press": command.policy.value},
               press=command.policy) is not None:
        ctx.results.add(f"Press in {_game_name(ctx)}: {command.policy.value.upper()} "
                        f"({_PRESS_TEXT[command.policy.value]}).")


def set_late(ctx: Context, command: SetLate) -> None:
    after = command.after if command.policy is LatePolicy.DISORDER else 0
    if _change(ctx, "SET LATE", {"late": command.policy.value, "after": after},
               late=command.policy, late_after=after) is None:
        return
    text = {
        LatePolicy.HOLD: "HOLD (late powers' units hold)",
        LatePolicy.WAIT: "WAIT (the phase waits for every power's orders)",
        LatePolicy.DISORDER: f"DISORDER (units hold; civil disorder after {after} missed "
                             f"deadline{'s' if after != 1 else ''} in a row)",
    }[command.policy]
    ctx.results.add(f"Late orders in {_game_name(ctx)}: {text}.")


def set_early(ctx: Context, command: SetEarly) -> None:
    if _change(ctx, "SET EARLY", {"early": command.early}, early=command.early) is not None:
        ctx.results.add(f"Early processing in {_game_name(ctx)}: "
                        + ("ON (as soon as every power has ordered)." if command.early
                           else "OFF (at the deadline)."))


def set_remind(ctx: Context, command: SetRemind) -> None:
    before = DEFAULT_REMIND if command.before is None else command.before
    signed = as_master(ctx, "SET REMIND")
    if signed is None:
        return
    extra = {**refresh(ctx, signed.game).settings.extra,
             REMIND_KEY: int(before.total_seconds())}
    if _change(ctx, "SET REMIND", {"seconds": int(before.total_seconds())},
               extra=extra) is None:
        return
    ctx.results.add(f"Reminders in {_game_name(ctx)}: " + (
        "OFF (no reminders)." if before <= timedelta(0) else
        f"{duration_text(before)} before the deadline, to powers without orders."))


def set_rulebook(ctx: Context, command: SetRulebook) -> None:
    """The rulebook is part of the rules the players sign up for: chosen before START."""
    signed = as_master(ctx, "SET RULEBOOK")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"SET RULEBOOK: refused, {game.name} has started; the rulebook is "
                        "chosen before START.")
        return
    refusal = rulebook_refusal(variant_of(game), command.rulebook)
    if refusal is not None:
        ctx.results.add(f"SET RULEBOOK: refused, {refusal}.")
        return
    extra = {**game.settings.extra, RULEBOOK_KEY: command.rulebook}
    if _change(ctx, "SET RULEBOOK", {"rulebook": command.rulebook}, extra=extra) is None:
        return
    ctx.results.add(f"Rulebook of {_game_name(ctx)}: {command.rulebook} (HELP RULEBOOK).")


MAX_OBSERVERS = 50


def _store_observers(ctx: Context, what: str, addresses: list[str]) -> None:
    """Make `addresses` the signed-on GM's game's observers."""
    if len(addresses) > MAX_OBSERVERS:
        ctx.results.add(f"{what}: refused, a game has at most {MAX_OBSERVERS} observers.")
        return
    signed = ctx.signed
    assert signed is not None  # as_master checked it
    extra = {**refresh(ctx, signed.game).settings.extra, OBSERVERS_KEY: addresses}
    if _change(ctx, what, {"observers": len(addresses)}, extra=extra) is None:
        return
    ctx.results.add(f"Observers of {_game_name(ctx)}: "
                    + (", ".join(addresses) if addresses else "none") + ".")


def set_observers(ctx: Context, command: SetObservers) -> None:
    if as_master(ctx, "SET OBSERVERS") is not None:
        _store_observers(ctx, "SET OBSERVERS", list(command.addresses))


def add_observer(ctx: Context, command: AddObserver) -> None:
    signed = as_master(ctx, "ADD OBSERVER")
    if signed is None:
        return
    current = observers(refresh(ctx, signed.game))
    if any(a.lower() == command.address.lower() for a in current):
        ctx.results.add(f"ADD OBSERVER: {command.address} already observes {signed.game.name}.")
        return
    _store_observers(ctx, "ADD OBSERVER", [*current, command.address])
