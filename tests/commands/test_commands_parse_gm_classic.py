"""The GM's classic judge commands as the command grammar reads them: SET DEADLINE with a
date (njudge's ways of writing one, gm.commands.dates), SET [NO] MANUAL PROCESS, FORCE BEGIN,
UNSTART, BECOME, SET DRAW <powers>, SET [NO]
CONCEDE, TAKEOVER and SET [NO] TAKEOVER (passwords masked when a line is quoted back)."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

import pytest

from gm.commands.catalog.become import Become
from gm.commands.catalog.force_begin import ForceBegin
from gm.commands.catalog.set_concede import SetConcede
from gm.commands.catalog.set_deadline import SetDeadline
from gm.commands.catalog.set_deadline_at import SetDeadlineAt
from gm.commands.catalog.set_draw import SetDraw
from gm.commands.catalog.set_manual import SetManual
from gm.commands.catalog.set_takeover import SetTakeover
from gm.commands.catalog.takeover import Takeover
from gm.commands.catalog.unstart import Unstart
from gm.commands.dates import DateProblem, resolve
from gm.commands.parse import parse_message
from gm.commands.values import Command, Unreadable
from gm.engine.phase import PhaseType
from gm.secret import Secret


def _one(text: str) -> Command:
    (command,) = parse_message(text)
    return command


@pytest.mark.parametrize("text", [
    "SET DEADLINE 2026-12-01 18:00",
    "set deadline Dec 1 2026 18:00",
    "SET DEADLINE December 1st, 2026 18:00",
    "SET DEADLINE Tue Dec 1 2026 18:00",
    "SET DEADLINE Tuesday, Dec. 1 2026 18:00",
])
def test_set_deadline_with_a_date(text: str) -> None:
    command = _one(text)
    assert isinstance(command, SetDeadlineAt)
    when = command.when
    assert (when.year, when.month, when.day, when.at) == (2026, 12, 1, time(18, 0))
    assert resolve(when, datetime(2026, 3, 1, 12, 0), time(23, 30)) == datetime(
        2026, 12, 1, 18, 0)


@pytest.mark.parametrize(("text", "expected"), [
    # njudge `data/deadlines`, HOW THE JUDGE INTERPRETS DATES; it is Sun 2026-03-01 12:00
    ("SET DEADLINE 23:30", datetime(2026, 3, 1, 23, 30)),  # a time alone: today
    ("SET DEADLINE 11:00", datetime(2026, 3, 2, 11, 0)),  # ... tomorrow once past
    ("SET DEADLINE Tue", datetime(2026, 3, 3, 23, 30)),  # no time: the phase's clock
    ("SET DEADLINE Sun 18:00", datetime(2026, 3, 8, 18, 0)),  # the next Sunday, after today
    ("SET DEADLINE Mar 9", datetime(2026, 3, 9, 23, 30)),
    ("SET DEADLINE 9 Mar 18:00", datetime(2026, 3, 9, 18, 0)),
    ("SET DEADLINE Jun 23:30 15", datetime(2026, 6, 15, 23, 30)),  # any order
    ("SET DEADLINE 15", datetime(2026, 3, 15, 23, 30)),  # a day alone: the next 15th
    ("SET DEADLINE Apr", datetime(2026, 4, 30, 23, 30)),  # a month alone: its last day
    ("SET DEADLINE 2026-04-01", datetime(2026, 4, 1, 23, 30)),
])
def test_set_deadline_reads_dates_as_njudge(text: str, expected: datetime) -> None:
    command = _one(text)
    assert isinstance(command, SetDeadlineAt)
    assert resolve(command.when, datetime(2026, 3, 1, 12, 0), time(23, 30)) == expected


@pytest.mark.parametrize(("text", "reason"), [
    ("SET DEADLINE Dec 9", '"Dec 9" would be Wed 2026-12-09, more than 120 days ahead: give '
                           "the year, month and day (Dec 9 2026)"),
    ("SET DEADLINE Dec 9 9999", '"Dec 9 9999" (Thu 9999-12-09 23:30) is too far ahead: give a '
                                "date from now (2026-03-01) to 2027-03-02"),
])
def test_dates_out_of_range_say_the_range(text: str, reason: str) -> None:
    command = _one(text)
    assert isinstance(command, SetDeadlineAt)
    with pytest.raises(DateProblem, match=re.escape(reason)):
        resolve(command.when, datetime(2026, 3, 1, 12, 0), time(23, 30))


@pytest.mark.parametrize(("text", "reason"), [
    ("SET DEADLINE Mon Dec 1 2026 18:00", "Dec 1 2026 is a Tuesday, not Mon"),
    ("SET DEADLINE Feb 30 2026 18:00", '"Feb 30 2026" is not a date'),
    ("SET DEADLINE 2026-02-30 18:00", '"2026-02-30" is not a date'),
    ("SET DEADLINE Tue 15", "a weekday goes alone"),
    ("SET DEADLINE 9 9", 'gives the day twice ("9")'),
    ("SET DEADLINE 2026", "with a year give the month too"),
])
def test_set_deadline_with_a_wrong_date_says_why(text: str, reason: str) -> None:
    command = _one(text)
    assert isinstance(command, Unreadable) and reason in str(command)


def test_the_deadline_rule_is_read_as_before() -> None:
    assert _one("SET DEADLINE MOVEMENT 48h") == SetDeadline(
        _one("SET DEADLINE MOVEMENT 48h").line, PhaseType.MOVEMENT, timedelta(hours=48))
    command = _one("SET DEADLINE ALL 20:00")
    assert isinstance(command, SetDeadline) and command.when == time(20, 0)
    assert command.phase_type is None
    command = _one("SET DEADLINE 36 hours")
    assert isinstance(command, SetDeadline) and command.when == timedelta(hours=36)
    # a time of day without a phase type is the open phase's deadline (njudge)
    assert isinstance(_one("SET DEADLINE 20:00"), SetDeadlineAt)


@pytest.mark.parametrize(("text", "expected"), [
    ("SET MANUAL PROCESS", SetManual(_one("SET MANUAL").line, True)),
    ("set manual", SetManual(_one("SET MANUAL").line, True)),
    ("SET NO MANUAL PROCESS", SetManual(_one("SET MANUAL").line, False)),
    ("SET NOMANUAL", SetManual(_one("SET MANUAL").line, False)),
])
def test_set_manual_process(text: str, expected: SetManual) -> None:
    command = _one(text)
    assert isinstance(command, SetManual) and command.manual == expected.manual


def test_force_begin_unstart_become() -> None:
    assert isinstance(_one("FORCE BEGIN"), ForceBegin)
    assert isinstance(_one("force start"), ForceBegin)
    assert isinstance(_one("UNSTART"), Unstart)
    become = _one("BECOME St Petersburg")
    assert isinstance(become, Become) and become.power == "St Petersburg"
    assert isinstance(_one("FORCE"), Unreadable)
    assert "FORCE needs BEGIN" in str(_one("FORCE"))


def test_draws_and_concessions() -> None:
    draw = _one("SET DRAW France, Italy and Turkey")
    assert isinstance(draw, SetDraw) and draw.draw and draw.among == ("France", "Italy", "Turkey")
    alone = _one("SET DRAW")
    assert isinstance(alone, SetDraw) and alone.draw and alone.among == ()
    concede = _one("SET CONCEDE Turkey")
    assert isinstance(concede, SetConcede) and concede.power == "Turkey"
    withdrawn = _one("SET NO CONCEDE")
    assert isinstance(withdrawn, SetConcede) and withdrawn.power is None
    assert "SET CONCEDE needs the power" in str(_one("SET CONCEDE"))


def test_takeover_masks_its_passwords() -> None:
    command = _one("TAKEOVER France mygame opensesame mysecret")
    assert isinstance(command, Takeover)
    assert (command.power, command.game) == ("France", "mygame")
    assert command.takeover == Secret("opensesame") and command.password == Secret("mysecret")
    assert "opensesame" not in command.line.text and "mysecret" not in command.line.text
    two_words = _one("TAKEOVER St Petersburg mygame opensesame mysecret")
    assert isinstance(two_words, Takeover) and two_words.power == "St Petersburg"
    # a line that cannot be read is quoted back with its passwords masked
    unread = _one("TAKEOVER France mygame opensesame")
    assert isinstance(unread, Unreadable) and "opensesame" not in str(unread)
    assert "TAKEOVER needs the power, the game" in str(unread)
    too_many = _one("TAKEOVER a b c opensesame mysecret extra")
    assert isinstance(too_many, Unreadable)
    assert "opensesame" not in str(too_many) and "mysecret" not in str(too_many)
    set_it = _one("SET TAKEOVER opensesame")
    assert isinstance(set_it, SetTakeover) and set_it.password == Secret("opensesame")
    assert "opensesame" not in set_it.line.text
    unread_set = _one("SET TAKEOVER open zzpass")
    assert isinstance(unread_set, Unreadable) and "zzpass" not in str(unread_set)
    off = _one("SET NO TAKEOVER")
    assert isinstance(off, SetTakeover) and off.password is None
