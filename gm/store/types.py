"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

# The days gm reads and keeps (deadlines, absences): far enough either way for any game, and far
# from the ends of Python's calendar, where moving a time by a day or a zone overflows.
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2999, 12, 31)
DAYS_KEPT = f"{FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}"


def day_kept(day: date) -> bool:
    """Whether `day` is within the days gm reads and keeps (FIRST_DAY to LAST_DAY)."""
    return FIRST_DAY <= day <= LAST_DAY


class _JSONDocument(TypeDecorator[Any]):
    """JSON documents: JSONB on PostgreSQL (compact, queryable), JSON text on SQLite.

    PostgreSQL's type is looked up once a PostgreSQL database is in use: importing SQLAlchemy's
    PostgreSQL dialect would cost every start-up on SQLite (the default) some 30 ms."""

    impl = JSON(none_as_null=True)
    cache_ok = True
    hashable = False  # dicts and lists, as JSON's own values

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            return dialect.type_descriptor(JSONB(none_as_null=True))
        return dialect.type_descriptor(self.impl_instance)


JSONDocument: TypeEngine[Any] = _JSONDocument()


class UTCDateTime(TypeDecorator[datetime]):
    """A point in time, always given and returned timezone-aware in UTC.

    SQLite has no time zones: values are stored as UTC and marked UTC again when read. Naive
    datetimes are refused, so a local wall-clock time can never be stored by mistake.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value.isoformat()} given: times must be UTC-aware")
        try:
            utc = value.astimezone(UTC)
        except OverflowError:  # commands read days within DAYS_KEPT: this is a fault
            raise ValueError(f"{value.isoformat()} is outside the days gm keeps "
                             f"({DAYS_KEPT})") from None
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
