"""The commands players bring from the classic judges, as the command grammar reads them:
OBSERVE, MAP, STANDBY, REPLACE ... STANDBY, SET ADDRESS, SET ABSENCE, JOIN ... PREFER, and
their words for commands gm has (WATCH, WITHDRAW, PREDICT, SET HOLIDAY, SIGNON ?, ...), and
njudge's forms (CREATE ?game, OBSERVE game password, LIST FULL, HISTORY ... FROM <date>,
ROLLBACK n, SET NMR, SET PREFERENCE, EJECT address, PROMOTE)."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from gm.commands.catalog.become import Become
from gm.commands.catalog.clear_absence import ClearAbsence
from gm.commands.catalog.confirm_address import ConfirmAddress
from gm.commands.catalog.create import Create
from gm.commands.catalog.eject import Eject
from gm.commands.catalog.history import History
from gm.commands.catalog.join import Join
from gm.commands.catalog.join_prefer import JoinPrefer
from gm.commands.catalog.list_games import ListGames
from gm.commands.catalog.map_request import MapRequest
from gm.commands.catalog.observe import Observe
from gm.commands.catalog.preview import Preview
from gm.commands.catalog.process import Process
from gm.commands.catalog.promote import Promote
from gm.commands.catalog.replace_standby import ReplaceFromStandby
from gm.commands.catalog.resign import Resign
from gm.commands.catalog.rollback import Rollback
from gm.commands.catalog.set_absence import SetAbsence
from gm.commands.catalog.set_absence_limit import SetAbsenceLimit
from gm.commands.catalog.set_address import SetAddress
from gm.commands.catalog.set_dias import SetDias
from gm.commands.catalog.set_fake import SetFake
from gm.commands.catalog.set_late import SetLate
from gm.commands.catalog.set_observe import SetObserve
from gm.commands.catalog.set_partial import SetPartial
from gm.commands.catalog.set_preference import SetPreference
from gm.commands.catalog.signon import SignOn
from gm.commands.catalog.standby import Standby
from gm.commands.catalog.summary import Summary
from gm.commands.dates import DateWords, looking_back, read_date
from gm.commands.parse import parse_message
from gm.commands.values import Command, Line, PhaseCode, Unreadable
from gm.engine.phase import Phase, PhaseType
from gm.policies import LatePolicy
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


# ---- the njudge forms of CREATE, SIGNON, OBSERVE, LIST, SUMMARY, HISTORY, ROLLBACK, SET ... ----


def test_create_in_njudges_order_of_words() -> None:
    command = _one("CREATE ?alpha secret")
    assert command == Create(Line(1, "CREATE ?alpha ******"), "alpha", "standard",
                             Secret("secret"), judge=True)
    command = _one("create ?Alpha secret Deluge II rulebook 2023")
    assert isinstance(command, Create)
    assert (command.game, command.variant, command.rulebook, command.judge) == (
        "alpha", "Deluge II", "2023", True)
    assert command.line.text == "create ?Alpha ****** Deluge II rulebook 2023"
    # gm's own order reads as before
    command = _one("CREATE alpha standard secret")
    assert isinstance(command, Create) and not command.judge and command.variant == "standard"
    bad = _one("CREATE ?alpha s3cr3t standard RULEBOOK 1999")
    assert isinstance(bad, Unreadable) and "s3cr3t" not in bad.message
    assert "CREATE ?alpha ****** standard RULEBOOK 1999" in bad.message


def test_observer_sign_on_and_observe_with_a_password() -> None:
    command = _one("OBSERVE alpha secret")
    assert command == Observe(Line(1, "OBSERVE alpha ******"), "alpha", password=True)
    command = _one("WATCH alpha secret")
    assert isinstance(command, Observe) and command.password and not command.off
    assert _one("OBSERVE alpha OFF") == Observe(Line(1, "OBSERVE alpha OFF"), "alpha", True)
    # njudge's SIGNON ?<game> <password> <variant>: JOIN, the variant to check
    assert _one("SIGNON ?alpha secret Deluge II") == Join(
        Line(1, "SIGNON ?alpha ****** Deluge II"), "alpha", Secret("secret"), variant="Deluge II")
    # SIGNON O<game> is read as a sign-on with the code O; the game's powers decide at once
    command = _one("SIGNON Oalpha secret")
    assert isinstance(command, SignOn) and (command.power, command.by_code) == ("O", True)


@pytest.mark.parametrize(("text", "expected"), [
    ("LIST", ListGames(Line(1, "LIST"))),
    ("LIST FULL", ListGames(Line(1, "LIST FULL"), full=True)),
    ("list full", ListGames(Line(1, "list full"), full=True)),
    ("SUMMARY", Summary(Line(1, "SUMMARY"))),
    ("SUMMARY alpha", Summary(Line(1, "SUMMARY alpha"), "alpha")),
    ("HISTORY", History(Line(1, "HISTORY"), None)),
    ("BECOME MASTER", Become(Line(1, "BECOME MASTER"), "MASTER")),
    ("ROLLBACK", Rollback(Line(1, "ROLLBACK"))),
    ("ROLLBACK 3", Rollback(Line(1, "ROLLBACK 3"), turn=3)),
    ("SET NMR", SetLate(Line(1, "SET NMR"), LatePolicy.HOLD, nmr=True)),
    ("SET CD", SetLate(Line(1, "SET CD"), LatePolicy.HOLD, nmr=True)),
    ("SET NONMR", SetLate(Line(1, "SET NONMR"), LatePolicy.WAIT, nmr=True)),
    ("SET NO NMR", SetLate(Line(1, "SET NO NMR"), LatePolicy.WAIT, nmr=True)),
    ("SET NO CD", SetLate(Line(1, "SET NO CD"), LatePolicy.WAIT, nmr=True)),
    ("SET NOCD", SetLate(Line(1, "SET NOCD"), LatePolicy.WAIT, nmr=True)),
    ("SET DIAS", SetDias(Line(1, "SET DIAS"), True)),
    ("SET NODIAS", SetDias(Line(1, "SET NODIAS"), False)),
    ("SET PREFERENCE E[FGR][TAI]", SetPreference(Line(1, "SET PREFERENCE E[FGR][TAI]"),
                                                 "E[FGR][TAI]")),
    ("SET PREFERENCE *", SetPreference(Line(1, "SET PREFERENCE *"), "*")),
    ("EJECT <watcher@example.org>", Eject(Line(1, "EJECT <watcher@example.org>"),
                                          "watcher@example.org", by_address=True)),
    ("EJECT France", Eject(Line(1, "EJECT France"), "France")),
    ("PROMOTE co@example.org", Promote(Line(1, "PROMOTE co@example.org"), "co@example.org")),
])
def test_njudge_forms_read(text: str, expected: Command) -> None:
    assert _one(text) == expected


def test_rollback_and_set_late_keep_their_own_forms() -> None:
    assert _one("ROLLBACK S1901M") == Rollback(Line(1, "ROLLBACK S1901M"),
                                               PhaseCode("S", 1901, PhaseType.MOVEMENT))
    command = _one("SET LATE CD")
    assert isinstance(command, SetLate) and command.policy is LatePolicy.DISORDER


def test_history_with_njudges_dates() -> None:
    command = _one("HISTORY alpha FROM Jan 1, 2026 TO Feb 1, 2026 18:30 LINES 500")
    assert isinstance(command, History) and command.dates
    assert (command.game, command.lines) == ("alpha", 500)
    assert command.since == DateWords("Jan 1, 2026", month=1, day=1, year=2026)
    assert command.until == DateWords("Feb 1, 2026 18:30", month=2, day=1, year=2026,
                                       at=time(18, 30))
    command = _one("HISTORY FROM S1902M TO F1903M")  # no game: the signed-on one
    assert command == History(Line(1, "HISTORY FROM S1902M TO F1903M"), None,
                              PhaseCode("S", 1902, PhaseType.MOVEMENT),
                              to=PhaseCode("F", 1903, PhaseType.MOVEMENT))
    command = _one("HISTORY FROM S1902M")
    assert isinstance(command, History) and command.onward and command.game is None
    assert _one("HISTORY LAST 2") == History(Line(1, "HISTORY LAST 2"), None, last=2)
    command = _one("HISTORY FROM Mon")
    assert isinstance(command, History) and command.game is None
    assert command.since == DateWords("Mon", weekday=0)
    command = _one("HISTORY alpha FROM 3 Mar 99")
    assert isinstance(command, History)
    assert command.since == DateWords("3 Mar 99", month=3, day=3, year=1999)
    command = _one("HISTORY alpha TO 2026-03-04 12:00")
    assert isinstance(command, History) and command.since is None
    assert command.until == DateWords("2026-03-04 12:00", month=3, day=4, year=2026,
                                       at=time(12, 0))
    command = _one("HISTORY alpha LINES 40")
    assert isinstance(command, History) and (command.dates, command.lines) == (True, 40)
    command = _one("HISTORY alpha EXCLSTART S1903M EXCLEND F1904B BROAD")
    assert isinstance(command, History)
    assert command.exclude == PhaseCode("S", 1903, PhaseType.MOVEMENT)
    assert command.exclude_to == PhaseCode("F", 1904, PhaseType.ADJUSTMENT)
    # the phase forms read as before, months of Abstraction2 included
    command = _one("HISTORY alpha FROM S1902M")
    assert isinstance(command, History) and command.onward and not command.dates
    command = _one("HISTORY alpha FROM July 1914 Movement")
    assert isinstance(command, History) and command.phase == Phase("July", 1914,
                                                                   PhaseType.MOVEMENT)


def test_a_judge_date_is_placed_in_time_when_it_runs() -> None:
    now = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)  # a Wednesday

    def back(text: str, zone_name: str = "UTC") -> datetime:
        return looking_back(read_date(text.split()), now, zone_name)

    assert back("Mon") == datetime(2026, 3, 2, tzinfo=UTC)
    assert back("Wed") == datetime(2026, 3, 4, tzinfo=UTC)
    # no year: the latest such day up to today
    assert back("Dec 25") == datetime(2025, 12, 25, tzinfo=UTC)
    assert back("Mar 1 18:00", "Europe/Paris") == datetime(2026, 3, 1, 17, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "says"), [
    ("HISTORY alpha FROM Feb 30 2026", '"Feb 30 2026" is not a date'),
    ("HISTORY alpha FROM Jan 1 12", "a two-digit year is 80 to 99"),
    ("HISTORY alpha FROM Jan 1 25:00", "25:00 is not a time"),
    ("HISTORY alpha LINES 0", "LINES takes a number of lines from 1 up"),
    ("ROLLBACK 0", "ROLLBACK takes a turn number from 1 (the first phase) up"),
    ("ROLLBACK soon", "ROLLBACK takes a phase, or a phase's number"),
    ("SET NMR now", "SET NMR takes nothing after it (njudge's word for SET LATE HOLD)"),
    ("SET PREFERENCE", "SET PREFERENCE needs the powers you want"),
    ("EJECT", "EJECT needs a power, or an address"),
    ("LIST FULL now", "LIST takes at most a game name, or FULL"),
])
def test_njudge_forms_misused_are_answered(text: str, says: str) -> None:
    error = _one(text)
    assert isinstance(error, Unreadable) and says in error.message, error
