"""Time zones by name, as a game's settings give them (SET TIMEZONE)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def zone(name: str) -> ZoneInfo:
    """The tz database zone `name`; UTC if the name is not known."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a file
        return ZoneInfo("UTC")


def wall_clock(naive: datetime, name: str) -> tuple[datetime | None, bool]:
    """The moment a wall-clock time `naive` names in zone `name`, and whether it names two (the
    hour the clocks go back repeats: the first is given). None if it names none (the hour the
    clocks go forward skips)."""
    tz = zone(name)
    first, second = naive.replace(tzinfo=tz, fold=0), naive.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        return first, False
    if first.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != naive:
        return None, False
    return first, True
