"""The service's clock, injected so tests can fix or move the time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Something that tells the time: an aware UTC datetime."""

    def now(self) -> datetime: ...

    def at(self, real: datetime) -> datetime:
        """What this clock read at the real instant `real` (a mail server's timestamp), at
        most `now()`."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def at(self, real: datetime) -> datetime:
        return min(real, self.now())


class FixedClock:
    """A clock that stands still until it is set or advanced."""

    def __init__(self, at: datetime) -> None:
        self.set(at)

    def set(self, at: datetime) -> None:
        if at.tzinfo is None or at.utcoffset() is None:
            raise ValueError(f"naive datetime {at.isoformat()} given: the clock needs UTC-aware")
        self._at = at.astimezone(UTC)

    def advance(self, by: timedelta) -> None:
        self._at += by

    def now(self) -> datetime:
        return self._at

    def at(self, real: datetime) -> datetime:
        """A clock that stands still read the same at every instant."""
        return self._at
