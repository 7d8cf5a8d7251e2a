"""The email command language: message text -> command values (gm.commands.parse)."""

from __future__ import annotations

import re
from datetime import time, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.commands import help_text, parse_message, sessions
from gm.commands.catalog import HELP_TOPICS as TOPICS
from gm.commands.catalog.add import Add
from gm.commands.catalog.add_observer import AddObserver
from gm.commands.catalog.create import Create
from gm.commands.catalog.eject import Eject
from gm.commands.catalog.help import WIDTH, Help, fit
from gm.commands.catalog.history import History
from gm.commands.catalog.join import Join
from gm.commands.catalog.list_games import ListGames
from gm.commands.catalog.pause import Pause
from gm.commands.catalog.press import Fake, Press, PressEnd
from gm.commands.catalog.preview import Preview
from gm.commands.catalog.process import Process
from gm.commands.catalog.replace import Replace
from gm.commands.catalog.resign import Resign
from gm.commands.catalog.resume import Resume
from gm.commands.catalog.rollback import Rollback
from gm.commands.catalog.set_deadline import SetDeadline
from gm.commands.catalog.set_draw import SetDraw
from gm.commands.catalog.set_early import SetEarly
from gm.commands.catalog.set_grace import SetGrace
from gm.commands.catalog.set_late import SetLate
from gm.commands.catalog.set_observers import SetObservers
from gm.commands.catalog.set_password import SetPassword
from gm.commands.catalog.set_press import SetPress
from gm.commands.catalog.set_remind import SetRemind
from gm.commands.catalog.set_timezone import SetTimezone
from gm.commands.catalog.set_wait import SetWait
from gm.commands.catalog.signoff import SignOff
from gm.commands.catalog.signon import SignOn
from gm.commands.catalog.signon_master import SignOnMaster
from gm.commands.catalog.start import Start
from gm.commands.catalog.summary import Summary
from gm.commands.catalog.terminate import Terminate
from gm.commands.parse import KEYWORDS, MAX_LINE_CHARS, MAX_LINES, MAX_NOT_COMMANDS
from gm.commands.values import (
    Clear,
    Command,
    CommandError,
    Line,
    NotACommand,
    OrderLine,
    PhaseCode,
    TooLong,
    Unreadable,
)
from gm.engine.phase import Phase, PhaseType
from gm.policies import LatePolicy, PressPolicy
from gm.secret import Secret


def one(text: str) -> Command:
    """The single value a one-line message gives."""
    result = parse_message(text)
    assert len(result) == 1, result
    return result[0]


def line(text: str, number: int = 1) -> Line:
    return Line(number, text)


pw = Secret


# ---- every command, as written in the issue --------------------------------------------------

COMMANDS: list[tuple[str, Command]] = [
    (
        "SIGNON France mygame secret",
        SignOn(line("SIGNON France mygame ******"), "France", "mygame", pw("secret")),
    ),
    (
        "SIGNON St Petersburg chaos pw",
        SignOn(line("SIGNON St Petersburg chaos ******"), "St Petersburg", "chaos", pw("pw")),
    ),
    (
        "SIGNON Fmygame secret",
        SignOn(line("SIGNON Fmygame ******"), "F", "mygame", pw("secret"), by_code=True),
    ),
    (
        "signon 3chaos secret",
        SignOn(line("signon 3chaos ******"), "3", "chaos", pw("secret"), by_code=True),
    ),
    (
        "SIGNON GM mygame secret",
        SignOnMaster(line("SIGNON GM mygame ******"), "mygame", pw("secret")),
    ),
    ("SIGNON Mmygame secret", SignOnMaster(line("SIGNON Mmygame ******"), "mygame", pw("secret"))),
    ("JOIN mygame secret", Join(line("JOIN mygame ******"), "mygame", pw("secret"))),
    (
        "JOIN France mygame secret",
        Join(line("JOIN France mygame ******"), "mygame", pw("secret"), "France"),
    ),
    ("SIGNOFF", SignOff(line("SIGNOFF"))),
    ("SET PASSWORD n3w,pw!", SetPassword(line("SET PASSWORD ******"), pw("n3w,pw!"))),
    ("SET DRAW", SetDraw(line("SET DRAW"), True)),
    ("SET NO DRAW", SetDraw(line("SET NO DRAW"), False)),
    ("SET NODRAW", SetDraw(line("SET NODRAW"), False)),
    ("SET WAIT", SetWait(line("SET WAIT"), True)),
    ("SET NOWAIT", SetWait(line("SET NOWAIT"), False)),
    ("SET NO WAIT", SetWait(line("SET NO WAIT"), False)),
    ("LIST", ListGames(line("LIST"))),
    ("LIST MyGame", ListGames(line("LIST MyGame"), "mygame")),
    ("HISTORY mygame", History(line("HISTORY mygame"), "mygame")),
    (
        "HISTORY mygame S1901M",
        History(line("HISTORY mygame S1901M"), "mygame", PhaseCode("S", 1901, PhaseType.MOVEMENT)),
    ),
    (
        "HISTORY mygame Spring 1901, Movement",
        History(
            line("HISTORY mygame Spring 1901, Movement"),
            "mygame",
            Phase("Spring", 1901, PhaseType.MOVEMENT),
        ),
    ),
    ("SUMMARY mygame", Summary(line("SUMMARY mygame"), "mygame")),
    ("HELP", Help(line("HELP"))),
    ("HELP press", Help(line("HELP press"), "press")),
    ("HELP Deluge II", Help(line("HELP Deluge II"), "Deluge II")),
    ("RESIGN", Resign(line("RESIGN"))),
    ("CLEAR", Clear(line("CLEAR"))),
    (
        "CREATE mygame Standard secret",
        Create(line("CREATE mygame Standard ******"), "mygame", "Standard", pw("secret")),
    ),
    (
        "CREATE deluge1 Deluge II secret",
        Create(line("CREATE deluge1 Deluge II ******"), "deluge1", "Deluge II", pw("secret")),
    ),
    (
        "CREATE c2 Chaos II secret",
        Create(line("CREATE c2 Chaos II ******"), "c2", "Chaos II", pw("secret")),
    ),
    (
        "ADD France ann@example.org secret",
        Add(line("ADD France ann@example.org ******"), "France", "ann@example.org", pw("secret")),
    ),
    (
        "ADD St Petersburg <ann@example.org> secret",
        Add(
            line("ADD St Petersburg <ann@example.org> ******"),
            "St Petersburg",
            "ann@example.org",
            pw("secret"),
        ),
    ),
    ("START", Start(line("START"))),
    ("PAUSE", Pause(line("PAUSE"))),
    ("RESUME", Resume(line("RESUME"))),
    ("PROCESS", Process(line("PROCESS"))),
    ("PREVIEW", Preview(line("PREVIEW"))),
    ("TERMINATE", Terminate(line("TERMINATE"))),
    (
        "REPLACE France bob@example.org",
        Replace(line("REPLACE France bob@example.org"), "France", "bob@example.org"),
    ),
    (
        "REPLACE France bob@example.org secret",
        Replace(
            line("REPLACE France bob@example.org ******"),
            "France",
            "bob@example.org",
            pw("secret"),
        ),
    ),
    ("EJECT France", Eject(line("EJECT France"), "France")),
    ("EJECT St Petersburg", Eject(line("EJECT St Petersburg"), "St Petersburg")),
    (
        "ROLLBACK Spring 1901, Movement",
        Rollback(line("ROLLBACK Spring 1901, Movement"), Phase("Spring", 1901, PhaseType.MOVEMENT)),
    ),
    (
        "ROLLBACK S1901M",
        Rollback(line("ROLLBACK S1901M"), PhaseCode("S", 1901, PhaseType.MOVEMENT)),
    ),
    (
        "ROLLBACK July 1914 Movement",
        Rollback(line("ROLLBACK July 1914 Movement"), Phase("July", 1914, PhaseType.MOVEMENT)),
    ),
    (
        "ROLLBACK early summer 1905 retreats",
        Rollback(
            line("ROLLBACK early summer 1905 retreats"),
            Phase("Early Summer", 1905, PhaseType.RETREAT),
        ),
    ),
    (
        "ROLLBACK W1901B",
        Rollback(line("ROLLBACK W1901B"), PhaseCode("W", 1901, PhaseType.ADJUSTMENT)),
    ),
    (
        "SET DEADLINE MOVEMENT 48h",
        SetDeadline(line("SET DEADLINE MOVEMENT 48h"), PhaseType.MOVEMENT, timedelta(hours=48)),
    ),
    (
        "SET DEADLINE RETREAT 24h",
        SetDeadline(line("SET DEADLINE RETREAT 24h"), PhaseType.RETREAT, timedelta(hours=24)),
    ),
    (
        "SET DEADLINE ADJUSTMENTS 1d12h",
        SetDeadline(
            line("SET DEADLINE ADJUSTMENTS 1d12h"), PhaseType.ADJUSTMENT, timedelta(hours=36)
        ),
    ),
    ("SET DEADLINE ALL 2d", SetDeadline(line("SET DEADLINE ALL 2d"), None, timedelta(days=2))),
    ("SET DEADLINE 90m", SetDeadline(line("SET DEADLINE 90m"), None, timedelta(minutes=90))),
    (
        "SET DEADLINE MOVEMENT 20:00",
        SetDeadline(line("SET DEADLINE MOVEMENT 20:00"), PhaseType.MOVEMENT, time(20, 0)),
    ),
    ("SET GRACE 36 hours", SetGrace(line("SET GRACE 36 hours"), timedelta(hours=36))),
    (
        "SET GRACE 1 day 12 hours",
        SetGrace(line("SET GRACE 1 day 12 hours"), timedelta(hours=36)),
    ),
    ("SET GRACE 0h", SetGrace(line("SET GRACE 0h"), timedelta(0))),
    (
        "SET TIMEZONE Europe/Paris",
        SetTimezone(line("SET TIMEZONE Europe/Paris"), "Europe/Paris"),
    ),
    (
        "SET TIMEZONE america/new_york",
        SetTimezone(line("SET TIMEZONE america/new_york"), "America/New_York"),
    ),
    ("SET PRESS NONE", SetPress(line("SET PRESS NONE"), PressPolicy.NONE)),
    ("SET PRESS white", SetPress(line("SET PRESS white"), PressPolicy.WHITE)),
    ("SET PRESS GRAY", SetPress(line("SET PRESS GRAY"), PressPolicy.GREY)),
    ("SET PRESS ALL", SetPress(line("SET PRESS ALL"), PressPolicy.ALL)),
    ("SET LATE HOLD", SetLate(line("SET LATE HOLD"), LatePolicy.HOLD)),
    ("SET LATE WAIT", SetLate(line("SET LATE WAIT"), LatePolicy.WAIT)),
    ("SET LATE DISORDER", SetLate(line("SET LATE DISORDER"), LatePolicy.DISORDER, 1)),
    (
        "SET LATE DISORDER AFTER 2",
        SetLate(line("SET LATE DISORDER AFTER 2"), LatePolicy.DISORDER, 2),
    ),
    ("set late cd after 3", SetLate(line("set late cd after 3"), LatePolicy.DISORDER, 3)),
    ("SET EARLY ON", SetEarly(line("SET EARLY ON"), True)),
    ("SET EARLY off", SetEarly(line("SET EARLY off"), False)),
    ("SET REMIND 6h", SetRemind(line("SET REMIND 6h"), timedelta(hours=6))),
    ("SET REMIND 1 day 12 hours", SetRemind(line("SET REMIND 1 day 12 hours"),
                                            timedelta(hours=36))),
    ("SET REMIND OFF", SetRemind(line("SET REMIND OFF"), timedelta(0))),
    ("SET REMIND on", SetRemind(line("SET REMIND on"), None)),
    ("SET OBSERVERS a@example.org, <b@example.net> c@example.com a@example.org",
     SetObservers(line("SET OBSERVERS a@example.org, <b@example.net> c@example.com a@example.org"),
                  ("a@example.org", "b@example.net", "c@example.com"))),
    ("SET OBSERVERS none", SetObservers(line("SET OBSERVERS none"), ())),
    ("ADD OBSERVER <w@example.org>", AddObserver(line("ADD OBSERVER <w@example.org>"),
                                                 "w@example.org")),
]


@pytest.mark.parametrize(("text", "expected"), COMMANDS, ids=[t for t, _ in COMMANDS])
def test_each_command_reads_into_its_value(text: str, expected: Command) -> None:
    assert one(text) == expected


@pytest.mark.parametrize(("text", "expected"), COMMANDS, ids=[t for t, _ in COMMANDS])
def test_keywords_are_case_insensitive_and_spacing_free(text: str, expected: Command) -> None:
    words = text.split(" ")
    # swap the keyword's case, spread the words with tabs and no-break spaces
    odd = "\t" + " \u00a0 ".join([words[0].swapcase(), *words[1:]]) + "  "
    got = one(odd)
    assert type(got) is type(expected)
    assert got.__dict__.keys() == expected.__dict__.keys()
    for name in expected.__dict__:
        if name != "line":
            assert getattr(got, name) == getattr(expected, name), name


def test_game_names_are_lower_cased_and_checked() -> None:
    assert one("SUMMARY MyGame").game == "mygame"  # type: ignore[attr-defined]
    error = one("SIGNON France my.game secret")
    assert isinstance(error, Unreadable)
    assert '"my.game" is not a game name' in error.message


# ---- lines, orders and sign-ons ------------------------------------------------------------


def test_orders_follow_a_signon_with_their_line_numbers() -> None:
    text = "\r\n".join(
        [
            "",
            "SIGNON France mygame secret",
            "A Par-Bur",
            "",
            "  F Bre  -  MAO ",
            "A Mar S A Par-Bur",
        ]
    )
    result = parse_message(text)
    assert result[1:] == [
        OrderLine(Line(3, "A Par-Bur")),
        OrderLine(Line(5, "F Bre - MAO")),
        OrderLine(Line(6, "A Mar S A Par-Bur")),
    ]
    assert result[0].line.number == 2
    assert result[1].text == "A Par-Bur"  # type: ignore[attr-defined]


def test_a_line_before_any_signon_is_not_a_command() -> None:
    result = parse_message("A Par-Bur\nSIGNON France mygame secret\nA Par-Bur")
    error = result[0]
    assert isinstance(error, NotACommand)
    assert error.line == Line(1, "A Par-Bur")
    assert error.message.startswith('"A Par-Bur" is not a command')
    assert "SIGNON, JOIN, CREATE, LIST, HISTORY, SUMMARY or HELP" in error.message
    assert "orders go on the lines after your SIGNON line" in error.message
    assert result[2] == OrderLine(Line(3, "A Par-Bur"))


def test_a_misspelt_keyword_gets_a_suggestion_and_its_password_masked() -> None:
    error = one("SINGON France mygame secret")
    assert isinstance(error, NotACommand)
    assert "did you mean SIGNON?" in error.message
    assert "secret" not in error.message and "secret" not in repr(error)


def test_several_signons_split_a_message_into_sessions() -> None:
    text = """
LIST
SIGNON GM mygame gmpw
SET DEADLINE MOVEMENT 48h
PROCESS
SIGNON England mygame eng
F Lon-NTH
SIGNON Fmygame fra
A Par-Bur
"""
    groups = sessions(parse_message(text))
    assert [g.signon.__class__.__name__ for g in groups] == [
        "NoneType",
        "SignOnMaster",
        "SignOn",
        "SignOn",
    ]
    assert [type(c).__name__ for c in groups[0].commands] == ["ListGames"]
    assert [type(c).__name__ for c in groups[1].commands] == ["SetDeadline", "Process"]
    assert groups[2].commands == (OrderLine(Line(7, "F Lon-NTH")),)
    assert groups[3].commands == (OrderLine(Line(9, "A Par-Bur")),)
    assert isinstance(groups[3].signon, SignOn) and groups[3].signon.power == "F"


def test_orders_after_an_unreadable_signon_stay_orders_of_that_failed_signon() -> None:
    result = parse_message("SIGNON France\nA Par-Bur")
    assert isinstance(result[0], Unreadable) and result[0].keyword == "SIGNON"
    assert result[1] == OrderLine(Line(2, "A Par-Bur"))
    (group,) = sessions(result)
    assert group.signon is result[0] and group.commands == (result[1],)


def test_signoff_ends_the_reading() -> None:
    text = "SIGNON France mygame secret\nA Par-Bur\nSIGNOFF\nA Mar-Spa\nRESIGN\n" + "x\n" * 50_000
    result = parse_message(text)
    assert [type(c) for c in result] == [SignOn, OrderLine, SignOff]


def test_blank_lines_and_invisible_characters_are_ignored() -> None:
    result = parse_message("\ufeffSIGNON France mygame secret\n\n \t \n\u200bA Par-Bur\n\n")
    assert [type(c) for c in result] == [SignOn, OrderLine]
    assert result[1].line == Line(4, "A Par-Bur")


# ---- press -----------------------------------------------------------------------------------


def test_press_body_is_kept_verbatim() -> None:
    text = (
        "SIGNON France mygame secret\n"
        "PRESS TO England, Germany\n"
        "\n"
        "Dear friends,\n"
        "   SIGNOFF is just a word here; so is A Par-Bur.\n"
        "SIGNON Germany mygame pw\n"
        "\n"
        "ENDPRESS\n"
        "A Par-Bur\n"
    )
    result = parse_message(text)
    assert result[1] == Press(
        Line(2, "PRESS TO England, Germany"),
        ("England", "Germany"),
        broadcast=False,
        grey=False,
        body="Dear friends,\n   SIGNOFF is just a word here; so is A Par-Bur.\n"
        "SIGNON Germany mygame pw",
        end_line=8,
    )
    assert result[2] == OrderLine(Line(9, "A Par-Bur"))


@pytest.mark.parametrize(
    ("header", "recipients", "broadcast", "grey"),
    [
        ("PRESS TO France", ("France",), False, False),
        ("PRESS TO France Germany", ("France", "Germany"), False, False),
        ("press to France,Germany , Italy", ("France", "Germany", "Italy"), False, False),
        ("PRESS TO France and Germany", ("France", "Germany"), False, False),
        ("PRESS TO St Petersburg, Paris", ("St Petersburg", "Paris"), False, False),
        ("PRESS TO GM", ("GM",), False, False),
        ("PRESS TO ALL", (), True, False),
        ("BROADCAST", (), True, False),
        ("GREY PRESS TO France", ("France",), False, True),
        ("gray press to France, Italy", ("France", "Italy"), False, True),
        ("PRESS TO France GREY", ("France",), False, True),
        ("GREY BROADCAST", (), True, True),
        ("BROADCAST GRAY", (), True, True),
    ],
)
def test_press_headers(
    header: str, recipients: tuple[str, ...], broadcast: bool, grey: bool
) -> None:
    (press,) = parse_message(f"{header}\nHello.\nENDPRESS")
    assert isinstance(press, Press)
    assert (press.recipients, press.broadcast, press.grey) == (recipients, broadcast, grey)
    assert press.body == "Hello." and press.end_line == 3


def test_end_press_may_be_two_words() -> None:
    (press,) = parse_message("BROADCAST\nHi\nend press")
    assert isinstance(press, Press) and press.body == "Hi"


def test_press_without_endpress_is_sent_up_to_the_end_of_the_message() -> None:
    result = parse_message("SIGNON France mygame secret\nPRESS TO England\nHi\nA Par-Bur\n")
    assert [type(c) for c in result] == [SignOn, Press]
    press = result[1]
    assert isinstance(press, Press) and press.line == Line(2, "PRESS TO England")
    assert press.body == "Hi\nA Par-Bur"  # sent as press; the reply quotes the order
    assert (press.ending, press.end_line) == (PressEnd.MESSAGE, 0)


def test_endbroadcast_ends_press_and_the_lines_after_it_are_orders() -> None:
    result = parse_message("SIGNON France mygame secret\nBROADCAST\nHello all.\nENDBROADCAST\n"
                           "A Par-Bur\nPRESS TO Italy\nHi\nend broadcast\nF Bre-MAO")
    assert [type(c) for c in result] == [SignOn, Press, OrderLine, Press, OrderLine]
    assert isinstance(result[1], Press) and result[1].body == "Hello all."
    assert result[1].ending is PressEnd.ENDPRESS and result[1].end_line == 4
    assert result[2] == OrderLine(Line(5, "A Par-Bur"))
    assert result[4] == OrderLine(Line(9, "F Bre-MAO"))


def test_press_without_endpress_ends_at_signoff() -> None:
    result = parse_message("SIGNON France mygame secret\nBROADCAST\nHello\nSIGNOFF\nA Par-Bur")
    assert [type(c) for c in result] == [SignOn, Press, SignOff]
    press = result[1]
    assert isinstance(press, Press) and press.body == "Hello"
    assert (press.ending, press.end_line) == (PressEnd.SIGNOFF, 4)


def test_unended_press_ends_at_a_signon_line_whose_orders_are_taken() -> None:
    result = parse_message("SIGNON France g pw\nPRESS TO England\nHi\nSIGNON Italy g pw2\n"
                           "A Ven H")
    assert [type(c) for c in result] == [SignOn, Press, SignOn, OrderLine]
    press = result[1]
    assert isinstance(press, Press) and press.body == "Hi"  # no password in the press
    assert (press.ending, press.end_line) == (PressEnd.SIGNON, 4)


def test_a_press_line_inside_a_press_is_its_text() -> None:
    # njudge copies every line up to ENDPRESS: a line that reads as a heading is press text
    (press,) = parse_message("PRESS TO England\nFor England\nPRESS TO Italy\nFor Italy\n"
                             "BROADCAST\nENDPRESS")
    assert isinstance(press, Press) and press.recipients == ("England",)
    assert press.body == "For England\nPRESS TO Italy\nFor Italy\nBROADCAST"
    assert (press.ending, press.end_line) == (PressEnd.ENDPRESS, 6)


def test_an_unended_press_runs_past_heading_lines_to_the_end() -> None:
    (press,) = parse_message("PRESS TO England\nFor England\nPRESS TO Italy\nFor Italy")
    assert isinstance(press, Press) and press.recipients == ("England",)
    assert press.body == "For England\nPRESS TO Italy\nFor Italy"
    assert press.ending is PressEnd.MESSAGE


@pytest.mark.parametrize("heading", ["PRESS", "PRESS TO E FAKE Germany", "PRESS TO G FAKE PARTIAL",
                                     "POSTAL PRESS", "DIARY", "GREY"])
def test_under_an_unreadable_heading_nothing_is_taken(heading: str) -> None:
    # njudge: "No press/broadcast message sent, discarding text"
    error, *rest = parse_message(f"SIGNON France g pw\n{heading}\nplus list body\nA Par H\n"
                                 "SET WAIT\nENDPRESS\nA Mar H")
    assert isinstance(error, SignOn)
    (refused, order) = rest
    assert isinstance(refused, Unreadable) and refused.line.number == 2
    assert ("nothing under it (lines 3 to 6) was sent or taken as orders or commands"
            in refused.message)
    assert "The press headings read are PRESS TO <powers>" in refused.message
    assert "PRESS +<letters>" in refused.message and "FAKE TO <powers>" in refused.message
    assert isinstance(order, OrderLine) and order.line.text == "A Mar H"


def test_an_unreadable_heading_with_no_end_takes_nothing_to_the_end() -> None:
    _, refused = parse_message("SIGNON France g pw\nPRESS\nI will play\nF Bre-MAO\nSET WAIT")
    assert isinstance(refused, Unreadable)
    assert "nothing under it (lines 3 to 5) was sent or taken" in refused.message


def test_unended_press_with_nothing_in_it_is_an_error_that_says_so() -> None:
    (error,) = parse_message("BROADCAST\n\n")
    assert isinstance(error, Unreadable)
    assert "has no text before the end of the message; nothing was sent" in error.message


@pytest.mark.parametrize(
    ("header", "recipients", "but", "fake"),
    [
        ("PRESS TO FRG", ("FRG",), False, None),
        ("PRESS TO ALL BUT Russia, Turkey", ("Russia", "Turkey"), True, None),
        ("press but r", ("r",), True, None),
        ("PRESS TO England FAKE BROADCAST", ("England",), False, Fake(shown_to=())),
        ("PRESS TO E FAKE PARTIAL TO F, G", ("E",), False, Fake(shown_to=("F", "G"))),
        # njudge's forms (data/press): +list, -list, FAKE alone, FAKE TO list, FAKE -list
        ("PRESS +GR", ("GR",), False, None),
        ("PRESS -G", ("G",), True, None),
        ("BROADCAST TO G", ("G",), False, None),
        ("PRESS TO GR FAKE", ("GR",), False, Fake()),
        ("PRESS FAKE TO G", (), False, Fake(shown_to=("G",))),
        ("PRESS TO ALL BUT ro FAKE BROADCAST", ("ro",), True, Fake()),
        ("PRESS TO F FAKE -G", ("F",), False, Fake(shown_to=("G",), but=True)),
        ("PRESS TO F FAKE TO ALL BUT GM", ("F",), False, Fake(shown_to=("GM",), but=True)),
    ],
)
def test_classic_press_lines(header: str, recipients: tuple[str, ...], but: bool,
                             fake: Fake | None) -> None:
    (press,) = parse_message(f"{header}\nHello.\nENDPRESS")
    assert isinstance(press, Press)
    assert (press.recipients, press.but, press.fake) == (recipients, but, fake)


def test_a_press_line_takes_one_fake() -> None:
    error = parse_message("PRESS TO England FAKE BROADCAST FAKE TO G\nHi\nENDPRESS")[0]
    assert isinstance(error, Unreadable) and "takes one FAKE option" in error.message


@pytest.mark.parametrize(
    ("header", "recipients", "broadcast", "grey", "white"),
    [
        ("PRESS GREY", (), True, True, False),
        ("PRESS ANONYMOUSLY", (), True, True, False),
        ("PRESS TO FG UNANONYMOUS", ("FG",), False, False, True),
        ("PRESS WHITE TO FG", ("FG",), False, False, True),
        ("PRESS TO ALL", (), True, False, False),
        ("PRESS NO FAKE", (), True, False, False),
    ],
)
def test_njudge_press_options(header: str, recipients: tuple[str, ...], broadcast: bool,
                              grey: bool, white: bool) -> None:
    (press,) = parse_message(f"{header}\nHello.\nENDPRESS")
    assert isinstance(press, Press)
    assert (press.recipients, press.broadcast, press.grey, press.white) == (
        recipients, broadcast, grey, white)


def test_fake_never_names_a_sender() -> None:
    # njudge's FAKE fakes the recipients only; white press always names its sender
    error = parse_message("PRESS TO E FAKE Germany\nHi\nENDPRESS")[0]
    assert isinstance(error, Unreadable)
    assert "never its sender: white press always names its sender" in error.message
    assert '"Germany" after FAKE cannot be read' in error.message


def test_empty_press_and_stray_endpress_are_errors() -> None:
    empty, stray = parse_message("PRESS TO England\n\n  \nENDPRESS\nENDPRESS")
    assert isinstance(empty, Unreadable) and "has no text" in empty.message
    assert isinstance(stray, Unreadable) and stray.line == Line(5, "ENDPRESS")
    assert "no PRESS TO or BROADCAST line open" in stray.message


def test_press_alone_sends_nothing() -> None:
    # njudge (data/press): "using the PRESS command without any options will result in no
    # message being sent"
    error = one("PRESS")
    assert isinstance(error, Unreadable)
    assert error.message.startswith(
        'Cannot read "PRESS": PRESS alone sends nothing (so that nothing goes to everyone by'
        " mistake): write PRESS TO <powers>, or BROADCAST for everyone. Nothing was sent."
    )


# ---- errors that say what is expected --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "quoted", "expected"),
    [
        ("SIGNON", "SIGNON", "SIGNON needs a power, a game and a password: SIGNON France mygame"),
        ("SIGNON a b c d e", "SIGNON a b c d ******", "SIGNON needs a power, a game and"),
        ("JOIN", "JOIN", "JOIN needs a game and a password"),
        ("CREATE mygame", "CREATE ******", "CREATE needs a game name, a variant and a password"),
        ("ADD France secret", "ADD France ******", "ADD needs a power and the player's e-mail"),
        ("RESIGN now", "RESIGN now", "RESIGN takes nothing after it"),
        ("SUMMARY a b", "SUMMARY a b", "SUMMARY takes a game (alone, after a SIGNON: the"),
        ("LIST a b", "LIST a b", "LIST takes at most a game name"),
        ("ROLLBACK yesterday", "ROLLBACK yesterday",
         "ROLLBACK takes a phase, or a phase's number (njudge's turn), or nothing"),
        ("SET", "SET", "SET needs one of PASSWORD, DRAW, NO DRAW, CONCEDE, NO CONCEDE, WAIT"),
        ("SET COLOUR red", "SET COLOUR red", "SET needs one of PASSWORD"),
        ("SET PASSWORD", "SET PASSWORD", "SET PASSWORD needs the new password"),
        ("SET PASSWORD a b", "SET PASSWORD ******", "SET PASSWORD needs the new password"),
        ("SET PASWORD x", "SET PASWORD ******", "SET needs one of PASSWORD"),
        ("SET DEADLINE", "SET DEADLINE", "SET DEADLINE needs a time"),
        ("SET DEADLINE 48", "SET DEADLINE 48", "SET DEADLINE needs a time"),
        ("SET DEADLINE MOVEMENT 48x", "SET DEADLINE MOVEMENT 48x", "SET DEADLINE needs a time"),
        ("SET DEADLINE WINTER 2d", "SET DEADLINE WINTER 2d", "phase types MOVEMENT, RETREAT"),
        ("SET DEADLINE 25:00", "SET DEADLINE 25:00", "or a time of day such as 20:00"),
        ("SET DEADLINE 0h", "SET DEADLINE 0h", "a deadline needs a time after 0"),
        ("SET GRACE soon", "SET GRACE soon", "SET GRACE needs a duration: SET GRACE 12h"),
        ("SET TIMEZONE Mars/Olympus", "SET TIMEZONE Mars/Olympus", '"Mars/Olympus" is not a'),
        ("SET PRESS fake", "SET PRESS fake", "SET PRESS needs NONE, WHITE"),
        ("SET LATE HOLD AFTER 2", "SET LATE HOLD AFTER 2", "SET LATE needs HOLD, WAIT, or"),
        ("SET LATE DISORDER AFTER 0", "SET LATE DISORDER AFTER 0", "from 1 up"),
        ("SET EARLY yes", "SET EARLY yes", "SET EARLY needs ON or OFF"),
        ("SET REMIND soon", "SET REMIND soon", "SET REMIND needs how long before the deadline"),
        ("SET OBSERVERS bob", "SET OBSERVERS bob", "SET OBSERVERS needs e-mail addresses"),
        ("HISTORY mygame Spring", "HISTORY mygame Spring", "HISTORY needs a game and may"),
        ("GREY", "GREY", "GREY goes before PRESS or BROADCAST"),
    ],
)
def test_unreadable_lines_quote_the_line_and_say_what_works(
    text: str, quoted: str, expected: str
) -> None:
    error = one(text)
    assert isinstance(error, Unreadable)
    assert error.keyword == text.split()[0].upper()
    assert error.line == Line(1, quoted)
    assert error.message.startswith(f'Cannot read "{quoted}": ')
    assert expected in error.message


def test_the_issue_example_message() -> None:
    error = one("SIGNON France")
    assert isinstance(error, Unreadable)
    assert (
        "SIGNON needs a power, a game and a password: SIGNON France mygame secret" in error.message
    )


def test_errors_print_with_their_line_number() -> None:
    (error,) = parse_message("\n\nSET EARLY maybe")
    assert str(error).startswith('line 3: Cannot read "SET EARLY maybe"')


# ---- passwords -------------------------------------------------------------------------------

PASSWORD_LINES = [
    "SIGNON France mygame {pw}",
    "SIGNON F{game} {pw}",
    "SIGNON GM mygame {pw}",
    "JOIN mygame {pw}",
    "JOIN France mygame {pw}",
    "SET PASSWORD {pw}",
    "CREATE mygame Deluge II {pw}",
    "ADD France ann@example.org {pw}",
    "REPLACE France ann@example.org {pw}",
    # lines that cannot be read still hide what may be the password
    "SIGNON {pw}",
    "SIGNON France mygame extra words {pw}",
    "SIGNON France bad!game {pw}",
    "SET PASSWORD two {pw}",
    "CREATE mygame {pw}",
    "ADD France nowhere {pw}",
    "SIGNNO France mygame {pw}",
]


@pytest.mark.parametrize("template", PASSWORD_LINES)
def test_passwords_never_show(template: str) -> None:
    secret = "Zq9-sesame"
    result = parse_message(template.format(pw=secret, game="mygame") + "\n" + "x" * 600)
    shown = repr(result) + "".join(str(c) for c in result)
    shown += "".join(c.message for c in result if isinstance(c, CommandError))
    assert secret not in shown
    assert "******" in shown


@given(st.text(alphabet=st.characters(blacklist_categories=["Z", "C"]), min_size=4, max_size=30))
def test_any_password_is_masked(secret: str) -> None:
    (value,) = parse_message(f"SIGNON France mygame {secret}")
    assert isinstance(value, SignOn)
    assert value.password.value == secret
    # the repr is that of any other password: nothing in it depends on this one
    assert repr(value) == repr(parse_message("SIGNON France mygame other")[0])
    assert value.line.text == "SIGNON France mygame ******"


def test_secret_compares_by_value_and_hides_it() -> None:
    assert Secret("a") == Secret("a") and Secret("a") != Secret("b")
    assert str(Secret("hunter2")) == "******" and "hunter2" not in repr(Secret("hunter2"))


# ---- limits and robustness -------------------------------------------------------------------


def test_a_message_of_ten_thousand_lines_is_refused_whole() -> None:
    text = "SIGNON France mygame secret\n" + "A Par-Bur\n" * 10_000
    (error,) = parse_message(text)
    assert isinstance(error, TooLong)
    assert error.line.number == 0
    assert f"at most {MAX_LINES} lines" in error.message
    assert "Nothing in it was done" in error.message


def test_a_huge_line_is_refused_alone() -> None:
    text = "SIGNON France mygame secret\nA Par-Bur " + "x" * 100_000 + "\nA Mar-Spa"
    result = parse_message(text)
    assert [type(c) for c in result] == [SignOn, TooLong, OrderLine]
    assert f"a command or order line may have at most {MAX_LINE_CHARS}" in result[1].message  # type: ignore[attr-defined]
    assert len(result[1].line.text) < 100


def test_long_press_lines_are_fine() -> None:
    paragraph = "word " * 400
    (press,) = parse_message(f"BROADCAST\n{paragraph}\nENDPRESS")
    assert isinstance(press, Press) and press.body == paragraph


def test_lines_that_are_not_commands_are_reported_up_to_a_limit() -> None:
    result = parse_message("\n".join(f"junk {i}" for i in range(1, 31)))
    assert len(result) == MAX_NOT_COMMANDS + 1
    assert all(isinstance(c, NotACommand) for c in result)
    assert result[-1].line.number == MAX_NOT_COMMANDS + 1
    assert result[-1].message == (  # type: ignore[attr-defined]
        "20 more lines from line 11 on are not commands either, and were ignored"
    )


def test_binary_junk_gives_values() -> None:
    junk = bytes(range(256)).decode("latin-1") * 20
    result = parse_message(junk + "\nSIGNON France mygame secret\n" + junk)
    assert result and all(isinstance(c, Command) for c in result)
    assert any(isinstance(c, SignOn) for c in result)
    for c in result:
        if isinstance(c, CommandError):
            assert c.message.isprintable()


ARGUMENT_WORDS = [
    *("TO", "GM", "NO", "ALL", "AFTER", "DEADLINE", "PASSWORD", ",", "48h", "20:00"),
    *("S1901M", "1901", "Spring", "a@b.c", "France", "mygame", "\n", "ENDPRESS\n"),
]
command_like = st.lists(
    st.one_of(
        st.sampled_from(sorted(KEYWORDS)), st.sampled_from(ARGUMENT_WORDS), st.text(max_size=8)
    ),
    max_size=30,
).map(" ".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=3000), command_like))
def test_any_text_gives_command_values(text: str) -> None:
    result = parse_message(text)
    assert isinstance(result, list)
    for command in result:
        assert isinstance(command, Command)
        assert isinstance(command.line.number, int)
        repr(command)
        if isinstance(command, CommandError):
            assert command.message


# ---- help ------------------------------------------------------------------------------------


def test_help_alone_lists_the_topics() -> None:
    index = help_text()
    for topic in TOPICS:
        assert f"HELP {topic}" in index


@pytest.mark.parametrize("keyword", sorted(KEYWORDS - {"HELP"}))
def test_help_on_each_command_mentions_it(keyword: str) -> None:
    text = help_text(keyword)
    assert not text.startswith("There is no help")
    shown = {"GRAY": "GREY", "NODRAW": "NO DRAW"}.get(keyword, keyword)
    assert shown in text


def test_help_on_an_unknown_topic_says_so_and_lists_topics() -> None:
    text = help_text("xyzzy")
    assert text.startswith('There is no help on "xyzzy"')
    assert "HELP ORDERS" in text


@pytest.mark.parametrize("topic", [None, *TOPICS])
def test_help_topics_fit_in_78_columns_and_keep_their_examples(topic: str | None) -> None:
    text = help_text(topic)
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    # every example line of the topic is still a line of the reply, as written
    source = TOPICS[topic] if topic else help_text()
    for example in _help_examples():
        if f"\n{' ' * 4}{example}" in source and len(example) < 40:
            assert any(line.strip().startswith(example) or line.strip().endswith(example)
                       for line in text.splitlines()), example


def test_fit_refills_a_paragraph_a_row_and_an_item_once() -> None:
    long = "word " * 20
    text = (f"{long.strip()}\nand more.\n\n    KEY        {long.strip()}\n"
            f"               {long.strip()}\n    SET DRAW\n- {long.strip()}\n  end\nshort\n")
    out = fit(text).split("\n")
    assert all(len(line) <= WIDTH for line in out)
    assert out[0].startswith("word") and out[1].startswith("word") and out[1].endswith("more.")
    assert out[3].startswith("    KEY        word")
    assert all(line.startswith(" " * 15 + "word") for line in out[4:7])
    assert out[7] == "    SET DRAW"  # a line that fits is kept as written
    assert out[8].startswith("- word") and out[9].startswith("  word")
    assert out[-2:] == ["short", ""]
    assert fit("    HELP  x\n") == "    HELP  x\n"


def test_help_takes_extra_topics() -> None:
    extra = {"Deluge II": "HELP DELUGE II\n..."}
    assert help_text("deluge ii", extra) == "HELP DELUGE II\n..."
    assert "HELP Deluge II" in help_text(None, extra)


def _help_examples() -> list[str]:
    """Every command example in the help texts (columns of indented lines, placeholders out)."""
    examples = []
    for text in TOPICS.values():
        for row in text.splitlines():
            if not row.startswith("    "):
                continue
            columns = re.split(r"\s{2,}", row.strip())
            # "change your password: SET PASSWORD newsecret" holds an example too
            columns += [c.rsplit(": ", 1)[1] for c in columns if ": " in c]
            for column in columns:
                words = column.split()
                # commands are written in capitals in the help; ENDPRESS only ends a press
                if (
                    words
                    and words[0] in KEYWORDS - {"ENDPRESS", "ENDBROADCAST"}
                    and not re.search(r"[<>|\[]", column)
                ):
                    examples.append(column)
    return examples


def test_help_has_examples_of_every_command() -> None:
    first_words = {e.split()[0].upper() for e in _help_examples()}
    assert KEYWORDS - first_words <= {"ENDPRESS", "ENDBROADCAST", "GRAY", "HELP"}


@pytest.mark.parametrize("example", _help_examples())
def test_every_command_example_in_help_reads(example: str) -> None:
    opens_press = example.split()[0] in ("PRESS", "BROADCAST", "GREY")
    result = parse_message(example + "\nHello\nENDPRESS" if opens_press else example)
    assert len(result) == 1
    assert not isinstance(result[0], CommandError), result
    assert isinstance(result[0], Press) == opens_press


def _order_examples() -> list[tuple[PhaseType, str]]:
    """The orders HELP ORDERS shows, with the phase type of the section that shows them."""
    sections = {"Movement": PhaseType.MOVEMENT, "Retreat": PhaseType.RETREAT}
    sections["Adjustment"] = PhaseType.ADJUSTMENT
    examples, phase_type = [], None
    for row in TOPICS["ORDERS"].splitlines():
        phase_type = next((t for s, t in sections.items() if row.startswith(s)), phase_type)
        example = re.split(r"\s{2,}", row.strip())[0]
        if (
            phase_type
            and row.startswith("    ")
            and re.match(r"(A|F|Build|Remove|Waive)\b", example)
        ):
            examples.append((phase_type, example))
    return examples


def test_help_shows_orders_of_every_kind() -> None:
    shown = {example.split()[0] for _, example in _order_examples()}
    assert shown == {"A", "F", "Build", "Remove", "Waive"}
    assert len(_order_examples()) == 13


@pytest.mark.parametrize(("phase_type", "example"), _order_examples())
def test_every_order_example_in_help_reads(phase_type: PhaseType, example: str) -> None:
    # the order parser and the variants are read only here: the other tests do not need them
    from gm.engine.errors import OrderError
    from gm.notation import parse_order
    from gm.variants.registry import get_variant

    (order_line,) = parse_message(f"SIGNON France mygame secret\n{example}")[1:]
    assert isinstance(order_line, OrderLine)
    order = parse_order(order_line.text, get_variant("standard").map, phase_type)
    assert not isinstance(order, OrderError), order


def test_create_centre_after_a_signon_is_an_order_not_the_create_command() -> None:
    """Geophysical rule 7: `Create centre Bur` (any spelling of centre) is a player's order."""
    lines = ["Create centre Bur", "Create supply center Bur", "Create s.c. Bur", "CREATE SC Bur"]
    result = parse_message("\n".join(["SIGNON France mygame secret", *lines]))
    assert result[1:] == [OrderLine(Line(n, text)) for n, text in enumerate(lines, start=2)]


# ---- the rulebook (gm.engine.rulebook) -----------------------------------------------------------
def test_create_takes_the_rulebook_and_set_rulebook_reads() -> None:
    from gm.commands.catalog.set_rulebook import SetRulebook

    assert one("CREATE g Deluge II secret RULEBOOK 2023") == Create(
        line("CREATE g Deluge II ****** RULEBOOK 2023"), "g", "Deluge II", pw("secret"), "2023")
    lower = one("create g standard secret rulebook 2000")
    assert isinstance(lower, Create) and lower.rulebook == "2000"
    assert one("CREATE g standard secret") == Create(
        line("CREATE g standard ******"), "g", "standard", pw("secret"))
    assert one("SET RULEBOOK 2023") == SetRulebook(line("SET RULEBOOK 2023"), "2023")


def test_an_unknown_rulebook_is_refused_and_the_password_stays_masked() -> None:
    result = one("CREATE g standard secret RULEBOOK 1999")
    assert isinstance(result, Unreadable)
    assert "secret" not in result.message and "secret" not in result.line.text
    assert "there is no '1999' rulebook: RULEBOOK 2000 or 2023" in result.message
    result = one("SET RULEBOOK 1971")
    assert isinstance(result, Unreadable) and "RULEBOOK 2000 or 2023" in result.message


@pytest.mark.parametrize("order", ["Create centre Bur", "Create new s.c. in Bur",
                                   "Create a new s.c. in Bur", "Create s.c. in Bur",
                                   "Create a new supply centre in Bur"])
def test_geophysical_rule_7_wordings_are_orders_not_create(order: str) -> None:
    result = parse_message(f"SIGNON Turkey g pw\n{order}")
    assert result[1] == OrderLine(Line(2, order), order)


def test_each_help_topic_is_made_of_the_commands_lines_in_place_order() -> None:
    """The registry makes every HELP topic from the lines the command modules give it
    (CommandSpec.help): each command's lines are in its topic, in the order of their places,
    and no two share a place."""
    from gm.commands.catalog import COMMANDS

    entries = [entry for command in COMMANDS for entry in command.help]
    by_topic: dict[str, list[tuple[int, str]]] = {}
    for entry in entries:
        by_topic.setdefault(entry.topic, []).append((entry.place, entry.text))
    assert set(by_topic) == set(TOPICS)
    for topic, lines in by_topic.items():
        places = [place for place, _ in lines]
        assert len(places) == len(set(places)), topic
        assert TOPICS[topic] == "".join(text for _, text in sorted(lines))
    givers = {command.value.__name__ for command in COMMANDS if command.help}
    assert {"SetDraw", "Pause", "Join", "Press", "Ahead", "SetDeadline"} <= givers
