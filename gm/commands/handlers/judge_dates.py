"""njudge's dates, as HISTORY <game> FROM <date> TO <date> takes them (njudge `data/history`):
a day of the week; a day and month or month and day; either with a year (four digits, or 80-99
for 1980-1999); each with an optional hh:mm (24-hour clock; midnight if none). A date is read
when the line is read and placed in time when the command runs (a weekday is the latest such
day up to today; a date without a year the latest such date up to today)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from gm.commands.reading import Invalid
from gm.play.zones import zone

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class JudgeDate:
    """A date as written: `text`, and what it names (year, month and day, or a weekday)."""

    text: str
    month: int | None = None
    day: int | None = None
    year: int | None = None
    weekday: int | None = None  # 0 Monday; a weekday alone
    clock: time = time(0, 0)

    def moment(self, now: datetime, zone_name: str) -> datetime:
        """The moment it names in the game's time zone, as UTC, seen from `now`."""
        tz = zone(zone_name)
        today = now.astimezone(tz).date()
        if self.weekday is not None:
            day = today - timedelta(days=(today.weekday() - self.weekday) % 7)
        else:
            assert self.month is not None and self.day is not None
            year = self.year if self.year is not None else today.year
            day = _day(year, self.month, self.day, self.text)
            if self.year is None and day > today:
                day = _day(year - 1, self.month, self.day, self.text)
        return datetime.combine(day, self.clock, tzinfo=tz).astimezone(UTC)


def _day(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise Invalid(f'"{text}" is not a date') from None


def read_judge_date(text: str) -> JudgeDate:
    """`Jan 1, 2003 18:00`, `1 Jan 2003`, `Jan 1`, `2003-01-01`, `Mon` (the grammar's
    JUDGE_DATE) as a JudgeDate; Invalid for a day that does not exist."""
    words = [w.strip(".,").lower() for w in text.split()]
    clock = time(0, 0)
    if ":" in words[-1]:
        hours, minutes = (int(part) for part in words.pop().split(":"))
        if hours > 23 or minutes > 59:
            raise Invalid(f'"{text}": {hours}:{minutes:02d} is not a time (hh:mm, 00:00 to '
                          "23:59)")
        clock = time(hours, minutes)
    if words and words[0][:3] in _DAYS and (len(words) > 1 or not words[0][:1].isdigit()):
        weekday = _DAYS.index(words[0][:3])
        words = words[1:]
        if not words:
            return JudgeDate(text, weekday=weekday, clock=clock)
    if len(words) == 1 and re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", words[0]):
        iso_year, iso_month, iso_day = (int(part) for part in words[0].split("-"))
        _day(iso_year, iso_month, iso_day, text)
        return JudgeDate(text, iso_month, iso_day, iso_year, clock=clock)
    if words[0][:1].isdigit():  # 1 Jan [2003]
        day_word, month_word, *rest = words
    else:  # Jan 1 [2003]
        month_word, day_word, *rest = words
    month = _MONTHS.index(month_word[:3]) + 1
    day = int(re.sub(r"\D", "", day_word))
    year: int | None = None
    if rest:
        year = int(rest[0])
        if year < 100:
            if year < 80:
                raise Invalid(f'"{text}": a two-digit year is 80 to 99 (1980-1999); write '
                              "the year in full: Jan 1, 2026")
            year += 1900
    if year is not None:
        _day(year, month, day, text)
    elif not 1 <= day <= 31:
        raise Invalid(f'"{text}" is not a date')
    return JudgeDate(text, month, day, year, clock=clock)
