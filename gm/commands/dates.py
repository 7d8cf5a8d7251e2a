"""Dates as the classic judges read them (njudge `data/deadlines`, "HOW THE JUDGE INTERPRETS
DATES"), for SET DEADLINE, SET GRACE and SET ABSENCE.

A date is made of any of: a weekday (`Tue`), a month (`Dec`), a day of the month (`9`, `9th`),
a four-digit year, a time (`23:30`), in any order (`Jun 15`, `15 Jun`, `Jun 23:30 15`); gm's
own `2026-12-09` stands for year, month and day. `DateWords` keeps what was written;
`resolve` makes it a moment, in the game's time zone, from the time it is now:

- a weekday is the next such day after today (`Tue` on a Tuesday is a week ahead); it does not
  go with a day or a month, unless the date is given whole and falls on it (`Tue Dec 1 2026`);
- without a year, the next time the date comes round (`Jan 10` in December is next year's), no
  more than `UNDATED_DAYS` ahead (njudge's 120 days: further, the year is asked for);
- a day without a month is the next date with that day; a month without a day its last day;
  neither (a time alone) today, or tomorrow once the time has passed today;
- without a time, the time the caller gives (njudge: the phase's clock, else 23:30);
- nothing more than `MAX_AHEAD` ahead (so a year such as 9999 is refused, not overflowed).

HISTORY FROM and TO (njudge `data/history`) look back instead (`latest`): a weekday is the
latest such day up to today, a date without a year the latest such date up to today, midnight
without a time. A two-digit year 80 to 99 is 1980 to 1999, as njudge reads it.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from gm.play.zones import zone

UNDATED_DAYS = 120  # njudge: a date without a year at most this far ahead
MAX_AHEAD = timedelta(days=366)  # no date further ahead than this

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?", re.IGNORECASE)
_TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")
_WORD = re.compile(r"([a-z]{3})[a-z]*\.?", re.IGNORECASE)

# the usage told with a date that cannot be read
EXAMPLES = "23:30, Tue, Tue 18:00, Dec 9, 9 Dec 18:00, Dec 9 2026 18:00 or 2026-12-09 18:00"


class DateProblem(ValueError):
    """A date that cannot be read or is out of range; the message says why, quoting it."""


@dataclass(frozen=True)
class DateWords:
    """A date as written: each part None when not given; `text` as written."""

    text: str
    weekday: int | None = None  # 0 Monday .. 6 Sunday
    month: int | None = None  # 1..12
    day: int | None = None  # 1..31
    year: int | None = None
    at: time | None = None

    @property
    def dated(self) -> bool:
        """Does it name a day (a weekday, a day, a month or a year), not only a time?"""
        return any(x is not None for x in (self.weekday, self.month, self.day, self.year))


def read_date(words: list[str]) -> DateWords:
    """The parts of a date written as `words` (DateProblem when they do not make one)."""
    text = " ".join(words)
    parts: dict[str, int | time] = {}

    def put(name: str, value: int | time, word: str) -> None:
        if name in parts:
            raise DateProblem(f'"{text}" gives the {name} twice ("{word}"); a date has one '
                              f"of each: {EXAMPLES}")
        parts[name] = value

    for raw in words:
        word = raw.rstrip(",")
        name3 = _WORD.fullmatch(word)
        short = name3[1].lower() if name3 else ""
        if iso := _ISO.fullmatch(word):
            for name, value in zip(("year", "month", "day"), iso.groups(), strict=True):
                put(name, int(value), word)
        elif clock := _TIME.fullmatch(word):
            put("time", time(int(clock[1]), int(clock[2])), word)
        elif re.fullmatch(r"\d{4}", word):
            put("year", int(word), word)
        elif re.fullmatch(r"(8|9)\d", word):  # njudge: 80 to 99 are 1980 to 1999
            put("year", 1900 + int(word), word)
        elif re.fullmatch(r"\d{1,2}:\d{2}", word):
            raise DateProblem(f'"{text}": {word} is not a time (hh:mm, 00:00 to 23:59)')
        elif (number := _DAY.fullmatch(word)) and "day" in parts and "month" in parts \
                and re.fullmatch(r"\d\d", word):
            raise DateProblem(f'"{text}": a two-digit year is 80 to 99 (1980-1999); write '
                              "the year in full: Jan 1, 2026")
        elif number := _DAY.fullmatch(word):
            put("day", int(number[1]), word)
        elif short in _MONTHS:
            put("month", _MONTHS.index(short) + 1, word)
        elif short in _WEEKDAYS:
            put("weekday", _WEEKDAYS.index(short), word)
        else:
            raise DateProblem(f'"{word}" in "{text}" is not part of a date; write it as '
                              f"{EXAMPLES}")
    found = DateWords(text, weekday=_int(parts.get("weekday")), month=_int(parts.get("month")),
                      day=_int(parts.get("day")), year=_int(parts.get("year")),
                      at=_time(parts.get("time")))
    if found.day is not None and not 1 <= found.day <= 31:
        raise DateProblem(f'"{text}": {found.day} is not a day of the month')
    if found.month is not None and not 1 <= found.month <= 12:
        raise DateProblem(f'"{text}": {found.month} is not a month')
    if found.weekday is not None and (found.day is not None or found.month is not None) \
            and (found.year is None or found.day is None or found.month is None):
        raise DateProblem(f'"{text}": a weekday goes alone (Tue 18:00: the next Tuesday) or '
                          "with the whole date (Tue Dec 1 2026); not with a day or a month")
    if found.year is not None:
        if found.month is None:
            raise DateProblem(f'"{text}": with a year give the month too: Dec 9 2026')
        written = " ".join(w.rstrip(",") for w in words if not _TIME.fullmatch(w.rstrip(",")))
        try:
            day = _whole(found.year, found.month, found.day)
        except ValueError:
            raise DateProblem(f'"{written}" is not a date') from None
        if found.weekday is not None and day.weekday() != found.weekday:
            weekday = next(w for w in words if w[:3].lower() in _WEEKDAYS)
            raise DateProblem(f'"{written}": {day:%b} {day.day} {day.year} is a '
                              f"{_DAY_NAMES[day.weekday()]}, not {weekday.rstrip('.,')}")
    return found


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _time(value: object) -> time | None:
    return value if isinstance(value, time) else None


def resolve(words: DateWords, now: datetime, default_time: time) -> datetime:
    """The moment `words` mean, as a naive wall-clock time of the zone `now` (naive, local) is
    in (DateProblem when it is no date, or too far ahead). A date without a year or a day is
    the next one to come at or after `now`; it may still be in the past when a year is given."""
    at = words.at if words.at is not None else default_time
    today = now.date()
    if words.year is not None:
        assert words.month is not None  # read_date insists, and that the date exists
        moment = datetime.combine(_whole(words.year, words.month, words.day), at)
    elif words.weekday is not None:
        ahead = (words.weekday - today.weekday() - 1) % 7 + 1  # after today: 1 to 7 days
        moment = datetime.combine(today + timedelta(days=ahead), at)
    elif words.month is not None:
        moment = _next_of_month(words, today, at, now)
    elif words.day is not None:
        moment = _next_day_number(words.day, today, at, now)
    else:
        moment = datetime.combine(today, at)
        if moment < now:
            moment += timedelta(days=1)
    if moment - now > MAX_AHEAD:
        raise DateProblem(f'"{words.text}" ({moment:%a %Y-%m-%d %H:%M}) is too far ahead: '
                          f"give a date from now ({now:%Y-%m-%d}) to "
                          f"{(now + MAX_AHEAD):%Y-%m-%d}")
    if words.year is None and moment - now > timedelta(days=UNDATED_DAYS):
        raise DateProblem(f'"{words.text}" would be {moment:%a %Y-%m-%d}, more than '
                          f"{UNDATED_DAYS} days ahead: give the year, month and day "
                          f"({moment:%b} {moment.day} {moment.year})")
    return moment


def looking_back(words: DateWords, now: datetime, zone_name: str) -> datetime:
    """The moment `words` mean looking back from `now` in the zone `zone_name`, in UTC."""
    tz = zone(zone_name)
    local = latest(words, now.astimezone(tz).replace(tzinfo=None))
    return local.replace(tzinfo=tz).astimezone(UTC)


def latest(words: DateWords, now: datetime) -> datetime:
    """The moment `words` mean looking back, as a naive wall-clock time of the zone `now`
    (naive, local) is in: the latest such day up to today (HISTORY's dates)."""
    at = words.at if words.at is not None else time(0, 0)
    today = now.date()
    if words.year is not None:
        assert words.month is not None  # read_date insists, and that the date exists
        day = _whole(words.year, words.month, words.day)
    elif words.weekday is not None:
        day = today - timedelta(days=(today.weekday() - words.weekday) % 7)
    elif words.month is not None:
        day = _latest_of_month(words.month, words.day, today, words.text)
    elif words.day is not None:
        day = _latest_day_number(words.day, today)
    else:
        day = today
    return datetime.combine(day, at)


def _latest_of_month(month: int, day: int | None, today: date, text: str) -> date:
    for year in (today.year, today.year - 1, today.year - 2, today.year - 3, today.year - 4):
        try:
            found = _whole(year, month, day)
        except ValueError:
            continue  # Feb 29 in a year that has none
        if found <= today:
            return found
    raise DateProblem(f'"{text}" is not a date')


def _latest_day_number(number: int, today: date) -> date:
    year, month = today.year, today.month
    for _ in range(13):
        if number <= calendar.monthrange(year, month)[1]:
            found = date(year, month, number)
            if found <= today:
                return found
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    raise DateProblem(f'"{number}" is not a day of the month')  # pragma: no cover


def _whole(year: int, month: int, day: int | None) -> date:
    """The date; a month without a day is its last day (njudge)."""
    return date(year, month, calendar.monthrange(year, month)[1] if day is None else day)


def _next_of_month(words: DateWords, today: date, at: time, now: datetime) -> datetime:
    assert words.month is not None
    for year in (today.year, today.year + 1):
        try:
            moment = datetime.combine(_whole(year, words.month, words.day), at)
        except ValueError:
            continue  # Feb 29 in a year that has none
        if moment >= now:
            return moment
    raise DateProblem(f'"{words.text}" is not a date')


def _next_day_number(number: int, today: date, at: time, now: datetime) -> datetime:
    year, month = today.year, today.month
    for _ in range(13):
        if number <= calendar.monthrange(year, month)[1]:
            moment = datetime.combine(date(year, month, number), at)
            if moment >= now:
                return moment
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    raise DateProblem(f'"{number}" is not a day of the month')  # pragma: no cover
