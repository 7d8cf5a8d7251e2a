"""Deadlines in the players' calendars, by mail through the real service (MailTable: Maildir in
and out): the start mail, the phase reports and the mail that moves a deadline carry an
iCalendar event (read back here with the icalendar library) whose UID stays the same for a
phase and reader, whose SEQUENCE grows as the deadline moves (SET DEADLINE <date>, PAUSE,
RESUME) and which is cancelled when the phase ends early; SET TIMEZONE from a player shows
every deadline in their time beside the game's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import Message
from pathlib import Path

from icalendar import Calendar

from gm.service.tick import tick
from gm.store.db import Database
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    read_head,
    read_mail,
    text_of,
)

ITALY = PLAYERS["Italy"]


def _fresh(table: MailTable) -> list[Path]:
    """The files of the messages the service mailed since the last call (the outbox's files
    are named at random, not in order)."""
    folder = table.config.maildir.outbox / "new"
    paths = sorted(p for p in folder.iterdir() if p.name not in table.seen)
    table.seen.update(p.name for p in paths)
    return paths


def _to(messages: list[Path], address: str, subject: str) -> Message:
    """The one message to `address` with `subject` in its subject (found by the headers,
    only that one read whole)."""
    [found] = [path for path in messages
               if address in str(read_head(path)["To"])
               and subject in str(read_head(path)["Subject"])]
    return read_mail(found)


def _events(msg: Message) -> list[tuple[str, Calendar]]:
    """Each text/calendar part of `msg`: its Content-Type `method` parameter and the calendar."""
    found = []
    for part in msg.walk():
        if part.get_content_type() == "text/calendar":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            found.append((str(part.get_param("method")), Calendar.from_ical(payload)))
    return found


def _event(msg: Message, method: str = "REQUEST") -> dict[str, object]:
    """The one event of `msg` sent with `method`: UID, SEQUENCE, DTSTART, STATUS, alarms."""
    [cal] = [c for m, c in _events(msg) if m == method]
    assert str(cal["METHOD"]) == method
    [event] = cal.walk("VEVENT")
    return {"uid": str(event["UID"]), "sequence": int(event["SEQUENCE"]),
            "start": event.decoded("DTSTART"), "status": str(event.get("STATUS")),
            "alarms": [a.decoded("TRIGGER") for a in event.walk("VALARM")],
            "attendee": str(event["ATTENDEE"]), "summary": str(event["SUMMARY"])}


async def _started(database: Database, tmp_path: Path,
                   game: str) -> tuple[MailTable, list[Message]]:
    table = seven_powers(database, tmp_path, game)
    await table.start("standard")
    return table, _fresh(table)


async def test_the_start_mail_carries_the_deadline_as_an_invitation_with_an_alarm(
        database: Database, tmp_path: Path) -> None:
    _, mail = await _started(database, tmp_path, "cal1")
    start = _to(mail, ITALY, "the game has started")
    event = _event(start)
    assert event["start"] == START + timedelta(hours=72)  # the default movement deadline
    assert event["sequence"] == 0 and event["status"] == "CONFIRMED"
    assert event["alarms"] == [-timedelta(hours=12)]  # the game's reminder lead (SET REMIND)
    assert event["attendee"] == f"mailto:{ITALY}"
    assert event["summary"] == "Orders due: cal1 Spring 1901, Movement (Italy)"
    # one UID a reader: another player's event of the same phase is another event
    other = _event(_to(mail, PLAYERS["France"], "the game has started"))
    assert other["uid"] != event["uid"] and other["start"] == event["start"]
    assert _event(_to(mail, GM, "the game has started"))["start"] == event["start"]


async def test_set_deadline_updates_the_event_and_an_early_end_cancels_it(
        database: Database, tmp_path: Path) -> None:
    table, start_mail = await _started(database, tmp_path, "cal2")
    first = _event(_to(start_mail, ITALY, "the game has started"))
    await table.gm("SIGNON GM cal2 gmpass\nSET DEADLINE 2026-03-05 18:00")
    mail = _fresh(table)
    moved = _event(_to(mail, ITALY, "the deadline has moved"))
    assert moved["uid"] == first["uid"]
    assert moved["sequence"] == 1
    assert moved["start"] == datetime(2026, 3, 5, 18, 0, tzinfo=UTC)
    table.clock.advance(timedelta(hours=1))
    await table.gm("SIGNON GM cal2 gmpass\nSET DEADLINE 2026-03-06 09:00")
    again = _event(_to(_fresh(table), ITALY, "the deadline has moved"))
    assert (again["uid"], again["sequence"]) == (first["uid"], 2)
    assert again["start"] == datetime(2026, 3, 6, 9, 0, tzinfo=UTC)
    # every power orders and the GM processes before the deadline: the phase's event is
    # cancelled (a higher SEQUENCE, STATUS:CANCELLED) and Fall 1901's sent, a new event
    await table.orders(SPRING_1901)
    await table.gm("SIGNON GM cal2 gmpass\nPROCESS")
    report = _to(_fresh(table), ITALY, "results")
    cancelled = _event(report, "CANCEL")
    assert cancelled["uid"] == first["uid"] and cancelled["sequence"] == 3
    assert cancelled["status"] == "CANCELLED"
    fall = _event(report)
    assert fall["uid"] != first["uid"] and fall["sequence"] == 0
    assert fall["start"] == START + timedelta(hours=1 + 72)
    assert "Fall 1901, Movement" in str(fall["summary"])


async def test_a_phase_ended_by_its_deadline_is_not_cancelled(database: Database,
                                                               tmp_path: Path) -> None:
    table, _ = await _started(database, tmp_path, "cal3")
    table.clock.advance(timedelta(days=4))
    await table.run()  # the running service reads its inbox, as it does all the time
    tick(table.db, config=table.config, clock=table.clock)
    await table.run()
    report = _to(_fresh(table), ITALY, "results")
    assert [m for m, _ in _events(report)] == ["REQUEST"]
    assert _event(report)["start"] == START + timedelta(days=4, hours=72)


async def test_pause_cancels_the_event_and_resume_sends_it_moved_on(database: Database,
                                                                    tmp_path: Path) -> None:
    table, start_mail = await _started(database, tmp_path, "cal4")
    first = _event(_to(start_mail, ITALY, "the game has started"))
    await table.gm("SIGNON GM cal4 gmpass\nPAUSE")
    paused = _event(_to(_fresh(table), ITALY, "the game is paused"), "CANCEL")
    assert (paused["uid"], paused["sequence"], paused["status"]) == (first["uid"], 1,
                                                                      "CANCELLED")
    table.clock.advance(timedelta(hours=10))
    await table.gm("SIGNON GM cal4 gmpass\nRESUME")
    resumed = _event(_to(_fresh(table), ITALY, "the game goes on"))
    assert (resumed["uid"], resumed["sequence"]) == (first["uid"], 2)
    assert resumed["start"] == START + timedelta(hours=72 + 10)


async def test_a_players_own_time_zone_shows_beside_the_games(database: Database,
                                                              tmp_path: Path) -> None:
    table, _ = await _started(database, tmp_path, "cal5")
    bad = await table.answer("Italy", "SET TIMEZONE Mars/Olympus_Mons")
    assert ('Cannot read "SET TIMEZONE Mars/Olympus_Mons": "Mars/Olympus_Mons" is not a time zone; '
            "give a tz database name such as Europe/Paris, America/New_York or UTC") in bad
    reply = " ".join((await table.answer("Italy", "SET TIMEZONE america/new_york")).split())
    assert ("Your mail of cal5 (to italy@example.org) shows the deadlines in your time, "
            "America/New_York, beside the game's (UTC).") in reply
    assert ("Deadline of Spring 1901, Movement: Wed 2026-03-04 12:00 UTC; your time: Wed "
            "2026-03-04 07:00 EST (America/New_York).") in reply
    # LIST and SUMMARY show it too
    for asked in ("LIST cal5", "SUMMARY cal5"):
        assert ("Wed 2026-03-04 12:00 UTC; your time: Wed 2026-03-04 07:00 EST "
                "(America/New_York)") in " ".join((await table.answer("Italy", asked)).split())
    assert "your time" not in await table.answer("France", "LIST cal5")
    # the player's zone is theirs alone: the game keeps its clock
    await table.gm("SIGNON GM cal5 gmpass\nSET DEADLINE 2026-03-10 18:00")
    mail = _fresh(table)
    moved = text_of(_to(mail, ITALY, "the deadline has moved"))
    assert moved.startswith(
        "Deadline of Spring 1901, Movement in your time: Tue 2026-03-10 14:00 EDT "
        "(America/New_York); in the game's: Tue 2026-03-10 18:00 UTC.")
    assert "your time" not in text_of(_to(mail, PLAYERS["France"], "the deadline has moved"))
    # the reports too, their HTML part as well
    await table.orders(SPRING_1901)
    await table.gm("SIGNON GM cal5 gmpass\nPROCESS")
    report = _to(_fresh(table), ITALY, "results")
    assert text_of(report).startswith(
        "Deadline of Fall 1901, Movement in your time: Wed 2026-03-04 07:00 EST "
        "(America/New_York); in the game's: Wed 2026-03-04 12:00 UTC.")
    html = report.get_body(preferencelist=("html",))
    assert html is not None and "in your time: Wed 2026-03-04 07:00 EST" in html.get_content()
    # and the reminder before the deadline
    table.clock.advance(timedelta(hours=72 - 11))
    await table.run()
    tick(table.db, config=table.config, clock=table.clock)
    await table.run()
    reminder = text_of(_to(_fresh(table), ITALY, "orders due"))
    assert ("Wed 2026-03-04 12:00 UTC; your time: Wed 2026-03-04 07:00 EST "
            "(America/New_York)") in " ".join(reminder.split())


async def test_an_absence_moves_the_next_phases_event_and_a_new_player_gets_the_open_one(
        database: Database, tmp_path: Path) -> None:
    table, _ = await _started(database, tmp_path, "cal6")
    # Italy is away over Fall 1901's deadline (Spring processed now + 72 hours: Wed 4 Mar):
    # the report's event is at the deadline moved past the absence, whole days on
    await table.answer("Italy", "SET ABSENCE 2026-03-04 TO 2026-03-05")
    await table.orders(SPRING_1901)
    _fresh(table)
    await table.gm("SIGNON GM cal6 gmpass\nPROCESS")
    fall = _event(_to(_fresh(table), ITALY, "results"))
    assert fall["start"] == datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    # the GM gives France to a new player: their first mail carries the open phase's event
    await table.gm("SIGNON GM cal6 gmpass\nREPLACE France newfrance@example.org pwnew")
    seated = _event(_to(_fresh(table), "newfrance@example.org", "you play France"))
    assert seated["start"] == fall["start"] and seated["uid"] != fall["uid"]
    assert seated["attendee"] == "mailto:newfrance@example.org"


async def test_rollback_cancels_the_withdrawn_phase_and_sends_the_reopened_one_anew(
        database: Database, tmp_path: Path) -> None:
    table, start_mail = await _started(database, tmp_path, "cal7")
    spring = _event(_to(start_mail, ITALY, "the game has started"))
    await table.orders(SPRING_1901)
    await table.gm("SIGNON GM cal7 gmpass\nPROCESS")
    fall = _event(_to(_fresh(table), ITALY, "results"))
    table.clock.advance(timedelta(hours=2))
    await table.gm("SIGNON GM cal7 gmpass\nROLLBACK S1901M")
    told = _to(_fresh(table), ITALY, "rolled back to")
    withdrawn = _event(told, "CANCEL")
    assert (withdrawn["uid"], withdrawn["sequence"]) == (fall["uid"], 1)
    reopened = _event(told)
    # a new event: the one of Spring 1901 as first opened was cancelled when it ended early
    assert reopened["uid"] not in (spring["uid"], fall["uid"])
    assert reopened["start"] == START + timedelta(hours=2 + 72)


async def test_a_takeover_carries_the_open_phases_event(database: Database,
                                                        tmp_path: Path) -> None:
    table, start_mail = await _started(database, tmp_path, "cal8")
    spring = _event(_to(start_mail, ITALY, "the game has started"))
    await table.gm("SIGNON GM cal8 gmpass\nEJECT France\nSET TAKEOVER opensesame")
    _fresh(table)
    taker = "taker@example.org"
    await table.send(taker, "TAKEOVER France cal8 opensesame mine")
    reply = _to(_fresh(table), taker, "")
    assert "You took over France in cal8" in text_of(reply)
    seated = _event(reply)
    # the phase's deadline, for the new reader (a UID of their own), as ADD and REPLACE give it
    assert seated["start"] == spring["start"] and seated["uid"] != spring["uid"]
    assert seated["attendee"] == f"mailto:{taker}" and seated["sequence"] == 0
    assert seated["alarms"] == spring["alarms"]
