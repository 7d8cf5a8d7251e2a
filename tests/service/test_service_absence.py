"""SET ABSENCE, SET NO ABSENCE and SET ABSENCE LIMIT through ingest() and the tick: deadlines
of phases opened later inside an absence move past it (the open phase's never does), the GM
is told, within the GM's limit of days; dates written as njudge reads them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.service_support import GM, PLAYERS, SPRING_1901, START, maildir_config, send_all


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    return send_all(db, tmp_path, sender, body)[0]


def _game(db: Database, tmp_path: Path) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines.append("START")
    assert "alpha has started" in _send(db, tmp_path, GM, "\n".join(lines))


def _deadline(db: Database) -> datetime | None:
    with db.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        return phase.deadline_at


def test_an_absence_never_moves_the_open_deadline_and_the_gm_is_told(
        database: Database, tmp_path: Path) -> None:
    """njudge `data/absence`: "Setting an absence never extends the *current* deadline"; the
    absence moves the deadlines of the phases opened later; the GM is told of it."""
    _game(database, tmp_path)
    # START is 2026-03-01 12:00 UTC; movement phases last 72 hours
    assert _deadline(database) == datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           "SIGNON France alpha pwfrance\nSET ABSENCE 2026-03-03 TO 2026-03-05")
    assert ("France is away from 2026-03-03 to 2026-03-05 in alpha (3 days of 14 claimed); "
            "the deadlines of the phases to come that fall within it move past it.") in reply
    assert ("The deadline of Spring 1901, Movement (Wed 2026-03-04 12:00 UTC) falls within it "
            "but does not move: an absence never moves the deadline of the phase open now. "
            "Send your orders before you go, or ask the GM to move the deadline.") in reply
    assert _deadline(database) == datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
    told = {m.recipients[0]: m.parts[0].text for m in mail}
    assert set(told) == {GM}  # the GM alone is told, of the absence
    assert "France is away from 2026-03-03 to 2026-03-05 in alpha" in told[GM]
    # an absence claimed ahead moves the deadline of the phase that opens within it
    reply = _send(database, tmp_path, PLAYERS["Italy"],
                  "SIGNON Italy alpha pwitaly\nSET ABSENCE 2026-03-08 TO 2026-03-09")
    assert "Italy is away from 2026-03-08 to 2026-03-09" in reply
    assert "moves to" not in reply  # the open phase's deadline is not within it
    for power, orders in SPRING_1901.items():
        _send(database, tmp_path, PLAYERS[power],
              "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    opened = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)
    tick(database, config=maildir_config(tmp_path), clock=FixedClock(opened))
    # Fall 1901 opened 2026-03-05 12:00: due 2026-03-08 12:00, inside Italy's absence
    assert _deadline(database) == datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def test_absence_limits_and_refusals(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    france = "SIGNON France alpha pwfrance\n"
    reply = _send(database, tmp_path, PLAYERS["France"],
                  france + "SET ABSENCE 2026-02-20 TO 2026-03-02")
    assert ("line 2: SET ABSENCE 2026-02-20 TO 2026-03-02: refused, 2026-02-20 has passed "
            "(today is 2026-03-01 in the game's time zone, UTC).") in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  france + "SET ABSENCE 2026-03-10 TO 2026-03-30")
    assert ("refused, 21 days is more than the 14 days of absence France has left in alpha "
            "(the GM allows 14 days in all).") in reply
    assert "2026-03-10 to 2026-03-19 in alpha (10 days of 14 claimed)" in _send(
        database, tmp_path, PLAYERS["France"], france + "SET ABSENCE 2026-03-10 TO 2026-03-19")
    reply = _send(database, tmp_path, PLAYERS["France"],
                  france + "SET ABSENCE 2026-03-19 TO 2026-03-20")
    assert "refused, you are away from 2026-03-10 to 2026-03-19 already" in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  france + "SET ABSENCE 2026-03-25 TO 2026-03-29")
    assert "refused, 5 days is more than the 4 days of absence France has left" in reply
    # withdrawn before it begins: the days are free again
    reply = _send(database, tmp_path, PLAYERS["France"], france + "SET NO ABSENCE")
    assert ("Absence of France in alpha withdrawn from today on: 2026-03-10 to 2026-03-19."
            in reply)
    assert "nothing to withdraw" in _send(database, tmp_path, PLAYERS["France"],
                                          france + "SET NO ABSENCE")
    # the GM's limit, and absences off
    assert "refused, only the game's GM may do this" in _send(
        database, tmp_path, PLAYERS["France"], france + "SET ABSENCE LIMIT 30")
    assert "Absences in alpha: each power may claim 3 days in all." in _send(
        database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET ABSENCE LIMIT 3")
    assert "refused, 4 days is more than the 3 days" in _send(
        database, tmp_path, PLAYERS["France"], france + "SET ABSENCE 2026-03-10 TO 2026-03-13")
    assert "Absences in alpha: OFF" in _send(database, tmp_path, GM,
                                             "SIGNON GM alpha gmpass\nSET ABSENCE LIMIT OFF")
    reply = _send(database, tmp_path, PLAYERS["France"],
                  france + "SET ABSENCE 2026-03-10 TO 2026-03-10")
    assert "refused, the GM of alpha allows no absences." in reply
    # unreadable forms are answered with the usage
    reply = _send(database, tmp_path, PLAYERS["France"], france + "SET ABSENCE next week")
    assert ('Cannot read "SET ABSENCE next week": SET ABSENCE needs your first and last day '
            "away: SET ABSENCE Dec 20 TO Dec 22") in reply
    assert "refused, sign on to a power first" in _send(
        database, tmp_path, PLAYERS["France"], "SET ABSENCE 2026-03-10 TO 2026-03-10")
    assert _deadline(database) == START + timedelta(hours=72)  # nothing moved it


def test_an_absence_under_way_is_cut_short(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    france = "SIGNON France alpha pwfrance\n"
    _send(database, tmp_path, PLAYERS["France"], france + "SET ABSENCE 2026-03-01 TO 2026-03-02")
    assert _deadline(database) == START + timedelta(hours=72)  # 03-04: not within
    later = FixedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    reply = send_all(database, tmp_path, PLAYERS["France"], france + "SET NO ABSENCE", later)[0]
    assert "withdrawn from today on: 2026-03-01 to 2026-03-02" in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert game.settings.extra["absences"] == [
            {"power": "France", "from": "2026-03-01", "to": "2026-03-01"}]


def test_absence_dates_as_njudge_reads_them(database: Database, tmp_path: Path) -> None:
    """`SET ABSENCE Dec 20 TO Dec 22`, a start alone (24 hours) and a start with a time: the
    dates of njudge `data/absence`, kept as the whole days they touch."""
    _game(database, tmp_path)  # Sunday 2026-03-01 12:00 UTC
    france = "SIGNON France alpha pwfrance\n"
    reply = _send(database, tmp_path, PLAYERS["France"], france + "SET ABSENCE Mar 20 TO Mar 22")
    assert "France is away from 2026-03-20 to 2026-03-22 in alpha (3 days of 14" in reply
    reply = _send(database, tmp_path, PLAYERS["Italy"],
                  "SIGNON Italy alpha pwitaly\nSET HOLIDAY 10 Mar")
    assert "Italy is away from 2026-03-10 to 2026-03-10 in alpha (1 day of 14" in reply
    reply = _send(database, tmp_path, PLAYERS["Turkey"],
                  "SIGNON Turkey alpha pwturkey\nSET ABSENCE Mar 12 12:00")
    assert "Turkey is away from 2026-03-12 to 2026-03-13 in alpha (2 days of 14" in reply
    reply = _send(database, tmp_path, PLAYERS["England"],
                  "SIGNON England alpha pwengland\nSET ABSENCE Mar 22 TO Mar 20")
    assert ("SET ABSENCE Mar 22 TO Mar 20: refused, the absence ends (Fri 2026-03-20 23:59) "
            "before it begins (Sun 2026-03-22 00:00)") in reply
    reply = _send(database, tmp_path, PLAYERS["England"],
                  "SIGNON England alpha pwengland\nSET ABSENCE Dec 9 9999")
    assert "too far ahead: give a date from now (2026-03-01) to 2027-03-02." in reply
    assert _deadline(database) == START + timedelta(hours=72)
