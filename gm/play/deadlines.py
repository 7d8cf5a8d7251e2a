"""Deadlines: when a phase is due, by the game's rule for its phase type, and how to show it.

A rule (gm.store.settings.Deadline, set by SET DEADLINE) is either a length of time from the
moment the phase opens (movement 48 hours, retreats 24 hours, ...) or a time of day in the
game's timezone: the phase is then due at the first such time at least `MIN_TIME_OF_DAY` after
it opens (so a retreat phase opened at 17:59 with a rule of 18:00 gets until 18:00 next day).
A deadline that falls within a player's absence moves past it (gm.play.absences).
The grace period (SET GRACE) runs a length of time after each deadline, unless the GM set when
it ends for the open phase (njudge's SET GRACE <date>: `GRACE_UNTIL_KEY`, kept while it is
after that phase's deadline).
Every deadline is shown in the game's timezone and in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from gm.engine.phase import PhaseType
from gm.play.absences import past_absences
from gm.play.zones import zone
from gm.store.settings import GameSettings

MIN_TIME_OF_DAY = timedelta(hours=1)
GRACE_UNTIL_KEY = "grace_until"  # settings document key: {"phase": phase id, "at": ISO time}


def grace_end(settings: GameSettings, phase_id: int, deadline: datetime) -> datetime:
    """When the grace period of the phase `phase_id`, due at `deadline`, ends: the end the GM
    set for it (SET GRACE <date>) while that is after the deadline, else the game's grace
    period after the deadline."""
    until = settings.extra.get(GRACE_UNTIL_KEY)
    if isinstance(until, dict) and until.get("phase") == phase_id:
        try:
            at = datetime.fromisoformat(str(until.get("at")))
        except ValueError:
            at = None
        if at is not None and at.tzinfo is not None and at >= deadline:
            return at
    return deadline + settings.grace


def deadline_after(settings: GameSettings, phase_type: PhaseType,
                   opened: datetime) -> datetime | None:
    """The deadline of a phase of `phase_type` opened at `opened` (None: the game has no
    deadline rule for that type)."""
    rule = settings.deadlines.get(phase_type)
    if rule is None:
        return None
    if isinstance(rule, timedelta):
        due = opened + rule
    else:
        due = next_time_of_day(rule, settings.timezone, opened + MIN_TIME_OF_DAY)
    return past_absences(settings, due)  # players' absences (SET ABSENCE) move it on


def next_time_of_day(at: time, zone_name: str, after: datetime) -> datetime:
    """The first moment at or after `after` when the clock in `zone_name` shows `at` (UTC).

    On a day when that local time does not exist (clocks go forward) the moment it maps to
    is used; when it exists twice (clocks go back) the first one."""
    tz = zone(zone_name)
    local = after.astimezone(tz)
    for days in range(3):
        day = local.date() + timedelta(days=days)
        candidate = datetime.combine(day, at, tzinfo=tz).astimezone(UTC)
        if candidate >= after:
            return candidate
    raise AssertionError("a time of day recurs within three days")  # pragma: no cover


def show(moment: datetime, zone_name: str, *, seconds: bool = False) -> str:
    """`moment` in the game's timezone and in UTC: "Tue 2026-03-03 18:00 CET (17:00 UTC)";
    only UTC when the game's timezone is UTC. With `seconds`, to the second (when a mail
    arrived): "Tue 2026-03-03 17:59:58 UTC"."""
    utc = moment.astimezone(UTC)
    tz = zone(zone_name)
    clock = "%H:%M:%S" if seconds else "%H:%M"
    if tz.key == "UTC":
        return f"{utc:%a %Y-%m-%d} {utc.strftime(clock)} UTC"
    local = moment.astimezone(tz)
    name = local.tzname() or tz.key
    day = "" if local.date() == utc.date() else f"{utc:%a} "
    return (f"{local:%a %Y-%m-%d} {local.strftime(clock)} {name} "
            f"({day}{utc.strftime(clock)} UTC)")
