"""Absences (SET ABSENCE): days a player is away, past which the game's deadlines move.

An absence is a power's first and last day away, as dates in the game's time zone; it covers
them whole (from midnight before the first to midnight after the last). A deadline that falls
inside an absence of any power moves on by whole days, keeping its time of day, until it falls
after it: a deadline of Tuesday 18:00 inside an absence from Monday to Wednesday becomes
Thursday 18:00. Each power may claim at most the game's limit of days in all (SET ABSENCE
LIMIT; `DEFAULT_LIMIT` unless the GM set one; 0 turns absences off). Absences and the limit are
kept in the game's settings document, so every deadline rule (gm.play.deadlines) sees them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from gm.play.zones import zone
from gm.store.settings import GameSettings
from gm.store.types import day_kept

ABSENCES_KEY = "absences"  # settings document key: [{"power", "from", "to"}, ...]
LIMIT_KEY = "absence_limit_days"  # settings document key: days a power may claim; 0: off
DEFAULT_LIMIT = 14


@dataclass(frozen=True)
class Absence:
    power: str
    start: date  # first day away
    end: date  # last day away
    stand_in: str = ""  # SET ABSENCE ... STANDIN <policy>: it orders, no deadline moves

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def to_json(self) -> dict[str, str]:
        kept = {"power": self.power, "from": self.start.isoformat(), "to": self.end.isoformat()}
        return {**kept, "standin": self.stand_in} if self.stand_in else kept

    def __str__(self) -> str:
        return f"{self.start.isoformat()} to {self.end.isoformat()}"


def absences(settings: GameSettings) -> list[Absence]:
    """The game's absences, as stored (entries this version cannot read, or with days outside
    those gm keeps, gm.store.types.FIRST_DAY to LAST_DAY, are skipped)."""
    value: Any = settings.extra.get(ABSENCES_KEY, [])
    found = []
    for entry in value if isinstance(value, list) else []:
        try:
            absence = Absence(str(entry["power"]), date.fromisoformat(entry["from"]),
                              date.fromisoformat(entry["to"]), str(entry.get("standin", "")))
        except (KeyError, TypeError, ValueError):
            continue
        if day_kept(absence.start) and day_kept(absence.end):
            found.append(absence)
    return found


def limit(settings: GameSettings) -> int:
    """Days of absence each power may claim in the game (0: absences are off)."""
    value: Any = settings.extra.get(LIMIT_KEY, DEFAULT_LIMIT)
    return value if isinstance(value, int) and value >= 0 else DEFAULT_LIMIT


def with_absences(settings: GameSettings, kept: Sequence[Absence]) -> dict[str, Any]:
    """The settings' extra document with `kept` as the game's absences."""
    return {**settings.extra, ABSENCES_KEY: [a.to_json() for a in kept]}


def window(absence: Absence, zone_name: str) -> tuple[datetime, datetime]:
    """The moments (UTC) an absence begins and ends: midnight before its first day, midnight
    after its last, in the game's time zone."""
    tz = zone(zone_name)
    begin = datetime.combine(absence.start, time(0), tzinfo=tz).astimezone(UTC)
    end = datetime.combine(absence.end + timedelta(days=1), time(0), tzinfo=tz).astimezone(UTC)
    return begin, end


def past_absences(settings: GameSettings, deadline: datetime) -> datetime:
    """`deadline`, moved on by whole days (its time of day kept, in the game's time zone) until
    no absence holds it."""
    # an absence with a stand-in holds no deadline: the stand-in orders (gm.play.stand_in)
    windows = [window(a, settings.timezone) for a in absences(settings) if not a.stand_in]
    if not windows:
        return deadline
    tz = zone(settings.timezone)
    local = deadline.astimezone(tz)
    moved = deadline
    for _ in range(len(windows) + 1):
        holding = [end for begin, end in windows if begin <= moved < end]
        if not holding:
            return moved
        days = (max(holding).astimezone(tz).date() - local.date()).days
        candidate = datetime.combine(local.date() + timedelta(days=days), local.timetz())
        if candidate.astimezone(UTC) < max(holding):
            candidate += timedelta(days=1)
        local = candidate
        moved = candidate.astimezone(UTC)
    return moved


def holding(settings: GameSettings, moment: datetime) -> list[Absence]:
    """The absences that hold `moment`."""
    return [a for a in absences(settings)
            if window(a, settings.timezone)[0] <= moment < window(a, settings.timezone)[1]]
