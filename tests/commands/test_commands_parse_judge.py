"""The commands players bring from the classic judges, as the command grammar reads them:
OBSERVE, MAP, STANDBY, REPLACE ... STANDBY, SET ADDRESS, SET ABSENCE, JOIN ... PREFER, and
their words for commands gm has (WATCH, WITHDRAW, PREDICT, SET HOLIDAY, SIGNON ?, ...)."""

from __future__ import annotations

from datetime import time

import pytest

from gm.commands.catalog.clear_absence import ClearAbsence
from gm.commands.catalog.confirm_address import ConfirmAddress
from gm.commands.catalog.join import Join
from gm.commands.catalog.join_prefer import JoinPrefer
from gm.commands.catalog.map_request import MapRequest
from gm.commands.catalog.observe import Observe
from gm.commands.catalog.preview import Preview
from gm.commands.catalog.process import Process
from gm.commands.catalog.replace_standby import ReplaceFromStandby
from gm.commands.catalog.resign import Resign
from gm.commands.catalog.set_absence import SetAbsence
from gm.commands.catalog.set_absence_limit import SetAbsenceLimit
from gm.commands.catalog.set_address import SetAddress
from gm.commands.catalog.set_fake import SetFake
from gm.commands.catalog.set_observe import SetObserve
from gm.commands.catalog.set_partial import SetPartial
from gm.commands.catalog.standby import Standby
from gm.commands.dates import DateWords
from gm.commands.parse import parse_message
from gm.commands.values import Command, Line, PhaseCode, Unreadable
from gm.engine.phase import Phase, PhaseType
from gm.secret import Secret


def _one(text: str) -> Command:
    (command,) = parse_message(text)
    return command


@pytest.mark.parametrize(("text", "expected"), [
    ("OBSERVE alpha", Observe),
    ("observe Alpha off", Observe),
    ("SET OBSERVE OFF", SetObserve),
    ("MAP alpha", MapRequest),
    ("STANDBY", Standby),
    ("REPLACE St Petersburg STANDBY", ReplaceFromStandby),
    ("SET ADDRESS <new@example.org>", SetAddress),
    ("SET ADDRESS CONFIRM k2m4", ConfirmAddress),
    ("SET ABSENCE 2026-3-5 TO 2026-03-08", SetAbsence),
    ("SET NO ABSENCE", ClearAbsence),
    ("SET ABSENCE LIMIT 21", SetAbsenceLimit),
    ("JOIN alpha secret PREFER France", JoinPrefer),
])
def test_each_form_reads(text: str, expected: type[Command]) -> None:
    assert type(_one(text)) is expected


def test_values() -> None:
    assert _one("observe Alpha off") == Observe(_one("observe Alpha off").line, "alpha", True)
    assert _one("SET OBSERVE on") == SetObserve(_one("SET OBSERVE on").line, True)
    command = _one("MAP alpha F1901R")
    assert isinstance(command, MapRequest)
    assert command.phase == PhaseCode("F", 1901, PhaseType.RETREAT)
    command = _one("MAP alpha Spring 1902, Movement")
    assert isinstance(command, MapRequest)
    assert command.phase == Phase("Spring", 1902, PhaseType.MOVEMENT)
    assert [(c.game, c.off) for c in parse_message(  # type: ignore[attr-defined]
        "STANDBY\nSTANDBY OFF\nSTANDBY alpha\nSTANDBY alpha OFF")] == [
        (None, False), (None, True), ("alpha", False), ("alpha", True)]
    command = _one("SET ADDRESS <new@example.org>")
    assert isinstance(command, SetAddress) and command.address == "new@example.org"
    command = _one("SET ABSENCE 2026-3-5 TO 2026-03-08")
    assert isinstance(command, SetAbsence)
    assert (command.start.year, command.start.month, command.start.day) == (2026, 3, 5)
    assert command.end is not None
    assert (command.end.year, command.end.month, command.end.day) == (2026, 3, 8)
    command = _one("SET ABSENCE Dec 20 TO Dec 22")  # njudge `data/absence`'s dates
    assert isinstance(command, SetAbsence) and command.end is not None
    assert (command.start.month, command.start.day, command.end.day) == (12, 20, 22)
    command = _one("SET HOLIDAY 3 Jul 12:00")  # no end: 24 hours
    assert isinstance(command, SetAbsence) and command.end is None
    assert command.start.at == time(12, 0)
    command = _one("SET ABSENCE LIMIT off")
    assert isinstance(command, SetAbsenceLimit) and command.days == 0
    command = _one("JOIN alpha secret PREFER France, St Petersburg and Italy")
    assert isinstance(command, JoinPrefer)
    assert command.preferences == ("France", "St Petersburg", "Italy")
    assert command.password == Secret("secret")
    # SIGNON ?game, as the classic judges join a forming game, is JOIN; SET NOABSENCE too
    command = _one("SIGNON ?alpha secret")
    assert isinstance(command, Join) and (command.game, command.power) == ("alpha", None)
    assert command.line.text == "SIGNON ?alpha ******"
    assert isinstance(_one("SET NOABSENCE"), ClearAbsence)
    # the older forms of JOIN read as before
    command = _one("JOIN St Petersburg alpha secret")
    assert isinstance(command, Join) and command.power == "St Petersburg"


def test_secrets_are_masked_even_when_the_line_is_not_read() -> None:
    assert _one("SET ADDRESS CONFIRM k2m4").line.text == "SET ADDRESS CONFIRM ******"
    assert _one("JOIN alpha secret PREFER France").line.text == "JOIN alpha ****** PREFER France"
    bad = _one("SET ADDRESS CONFIRM k2m4 please")
    assert isinstance(bad, Unreadable) and "k2m4" not in bad.message
    bad = _one("JOIN alpha s3cr3t PREFER")
    assert isinstance(bad, Unreadable) and "s3cr3t" not in bad.message


@pytest.mark.parametrize(("text", "says"), [
    ("SET ABSENCE 2026-03-09 TO 2026-03-08", "the absence ends (2026-03-08) before it begins"),
    ("SET ABSENCE 2026-02-30 TO 2026-03-08", '"2026-02-30" is not a date'),
    ("SET ABSENCE tomorrow", "SET ABSENCE needs your first and last day away"),
    ("SET ABSENCE LIMIT ON", "SET ABSENCE LIMIT needs a number of days, or OFF"),
    ("SET ADDRESS", "SET ADDRESS needs your new e-mail address"),
    ("OBSERVE", "OBSERVE needs a game, and OFF to stop"),
    ("MAP alpha someday", "MAP needs a game and may name a phase"),
    ("STANDBY a b c", "STANDBY may name a game"),
    ("SET NO", "SET NO needs DRAW, CONCEDE, WAIT or ABSENCE: SET NO DRAW"),
    ("SET GUNBOAT now", "SET GUNBOAT takes nothing after it"),
    ("HISTORY alpha LAST", "HISTORY mygame LAST 4 (1 to 99 phases)"),
    ("HISTORY alpha S1901M TO", "HISTORY mygame S1901M TO F1902M"),
])
def test_bad_forms_quote_the_line_and_say_what_works(text: str, says: str) -> None:
    error = _one(text)
    assert isinstance(error, Unreadable)
    assert says in error.message


# ---- the classic judges' words for commands gm has ------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("WATCH alpha", Observe(Line(1, "WATCH alpha"), "alpha", False)),
    ("watch Alpha OFF", Observe(Line(1, "watch Alpha OFF"), "alpha", True)),
    ("WITHDRAW", Resign(Line(1, "WITHDRAW"))),
    ("PREDICT", Preview(Line(1, "PREDICT"))),
    ("SET HOLIDAY 2026-03-05 TO 2026-03-08",
     SetAbsence(Line(1, "SET HOLIDAY 2026-03-05 TO 2026-03-08"),
                DateWords("2026-03-05", year=2026, month=3, day=5),
                DateWords("2026-03-08", year=2026, month=3, day=8))),
    ("SET NO HOLIDAY", ClearAbsence(Line(1, "SET NO HOLIDAY"))),
    ("SIGNON ? alpha secret", Join(Line(1, "SIGNON ? alpha ******"), "alpha", Secret("secret"))),
    ("PROCESS S1901M", Process(Line(1, "PROCESS S1901M"),
                               PhaseCode("S", 1901, PhaseType.MOVEMENT))),
    ("PROCESS", Process(Line(1, "PROCESS"))),
    ("SET NO PARTIAL", SetPartial(Line(1, "SET NO PARTIAL"), False)),
    ("SET NOPARTIAL", SetPartial(Line(1, "SET NOPARTIAL"), False)),
    ("SET PARTIAL", SetPartial(Line(1, "SET PARTIAL"), True)),
    ("SET FAKE", SetFake(Line(1, "SET FAKE"), True)),
    ("SET NO FAKE", SetFake(Line(1, "SET NO FAKE"), False)),
])
def test_classic_words_read_as_gm_commands(text: str, expected: Command) -> None:
    assert _one(text) == expected


@pytest.mark.parametrize(("text", "says"), [
    ("SIGNON ? hunter2", "SIGNON ? joins a forming game and needs its name"),
    ("PROCESS soon", "PROCESS takes nothing after it, or the current phase"),
    ("WATCH", "WATCH (OBSERVE) needs a game"),
    ("SET PARTIAL now", "SET PARTIAL takes nothing after it"),
])
def test_classic_words_misused_are_answered(text: str, says: str) -> None:
    error = _one(text)
    assert isinstance(error, Unreadable) and says in error.message
    assert "hunter2" not in error.message
