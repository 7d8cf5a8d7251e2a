"""SET PICTURES: each reader (a player or the GM after SIGNON, an observer after OBSERVE)
chooses which pictures their reports carry, INLINE (the default), ALL or NONE; the GM sets the
game's default for who has not chosen (SET PICTURES DEFAULT ...); MAP always sends the
pictures. Through the real service: ingest(), the tick, and the sender writing to the Maildir
outbox."""

from __future__ import annotations

from email.message import Message
from pathlib import Path

import pytest

from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.store.db import Database
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    deliver,
    mail_by_recipient,
    maildir_config,
    message,
    observe,
    send_all,
    service_pass,
    text_of,
)

WATCHER = "watcher@example.org"


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    return send_all(db, tmp_path, sender, body)[0]


def _start(db: Database, tmp_path: Path) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    assert "Game alpha (Standard) created" in _send(db, tmp_path, GM, "\n".join(lines))
    assert "alpha has started" in _send(db, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")


async def _play_spring(db: Database, tmp_path: Path) -> dict[str, Message]:
    """Spring 1901 ordered and processed (the GM's PROCESS), the mail sent by the service:
    each address's report of it."""
    config = maildir_config(tmp_path)
    for power, orders in SPRING_1901.items():
        deliver(config.maildir.inbox, message(
            PLAYERS[power], "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders])))
    deliver(config.maildir.inbox, message(GM, "SIGNON GM alpha gmpass\nPROCESS"))
    outcomes = await service_pass(db, config, FixedClock(START))
    assert outcomes == [Disposition.ANSWERED] * (len(SPRING_1901) + 1)
    subject = "[alpha] Spring 1901, Movement: results"
    return {address: found[0] for address, mails in mail_by_recipient(config.maildir.outbox).items()
            if (found := [m for m in mails if str(m["Subject"]) == subject])}


def _files(msg: Message) -> list[tuple[str, str]]:
    """The images a mail carries (inline or attached): (content type, file name)."""
    return sorted((p.get_content_type(), p.get_filename() or "") for p in msg.walk()
                  if p.get_content_maintype() == "image")


def _html(msg: Message) -> str:
    part = msg.get_body(preferencelist=("html",))  # type: ignore[attr-defined]
    return str(part.get_content())


PNGS = [("image/png", "alpha-fall-1901-movement.png"),
        ("image/png", "alpha-spring-1901-movement-orders.png")]
SVGS = [("image/svg+xml", "alpha-fall-1901-movement.svg"),
        ("image/svg+xml", "alpha-spring-1901-movement-orders.svg")]


async def test_each_reader_chooses_the_pictures_of_their_reports(database: Database,
                                                           tmp_path: Path) -> None:
    _start(database, tmp_path)
    reply, _ = observe(database, tmp_path, WATCHER, "alpha", "SET PICTURES ALL")
    assert ("Your reports of alpha (to watcher@example.org) carry the pictures inside the HTML "
            "report (PNG) and as SVG files to zoom from now on." in reply)
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nset pictures none")
    assert "Your reports of alpha (to " in reply and "carry no pictures" in reply
    reports = await _play_spring(database, tmp_path)
    # the default (INLINE): the PNGs shown in the HTML part, no SVG
    england = reports[PLAYERS["England"]]
    assert _files(england) == PNGS
    assert 'src="cid:' in _html(england)
    assert "SET PICTURES ALL adds the SVG files, to zoom." in text_of(england)
    assert reports[GM] is not None and _files(reports[GM]) == PNGS
    # ALL: the SVGs attached too, as before
    assert _files(reports[WATCHER]) == sorted(PNGS + SVGS)
    assert "alpha-fall-1901-movement.svg to zoom" in text_of(reports[WATCHER])
    # NONE: text and HTML only, saying how to get the pictures
    france = reports[PLAYERS["France"]]
    assert _files(france) == []
    assert [p.get_content_type() for p in france.walk() if not p.is_multipart()
            and p.get_content_type() != "text/calendar"] == ["text/plain", "text/html"]
    # (the deadlines' calendar events, gm.play.calendar_event, are no pictures)
    assert [p.get_filename() for p in france.walk()
            if p.get_content_type() == "text/calendar"] == ["deadline-cancelled.ics",
                                                           "deadline.ics"]
    assert 'src="cid:' not in _html(france)
    assert ("The pictures are left out of your reports (SET PICTURES NONE); MAP alpha sends "
            "them." in text_of(france))
    assert len(france.as_bytes()) * 5 < len(reports[WATCHER].as_bytes())


async def test_the_gm_sets_the_default_for_who_has_not_chosen(database: Database,
                                                        tmp_path: Path) -> None:
    _start(database, tmp_path)
    _send(database, tmp_path, PLAYERS["Italy"], "SIGNON Italy alpha pwitaly\nSET PICTURES INLINE")
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET PICTURES DEFAULT NONE")
    assert ("The reports of alpha carry no pictures (MAP <game> sends them when you ask) for "
            "everyone who has not chosen" in reply)
    summary = _send(database, tmp_path, PLAYERS["Italy"], "SUMMARY alpha")
    assert "Pictures in the reports: NONE (yours: INLINE)" in summary
    assert "Pictures in the reports: NONE\n" in _send(database, tmp_path, WATCHER,
                                                       "SUMMARY alpha")
    reports = await _play_spring(database, tmp_path)
    assert _files(reports[PLAYERS["Italy"]]) == PNGS  # chose: kept
    assert _files(reports[PLAYERS["Germany"]]) == []  # the game's default
    assert _files(reports[GM]) == []


def test_map_sends_the_pictures_whatever_was_chosen(database: Database, tmp_path: Path) -> None:
    _start(database, tmp_path)
    observe(database, tmp_path, WATCHER, "alpha", "SET PICTURES NONE")
    reply, _ = send_all(database, tmp_path, WATCHER, "MAP alpha")
    assert "alpha-spring-1901-movement.png; alpha-spring-1901-movement.svg to zoom" in reply


@pytest.mark.parametrize("sender, body, words", [
    (PLAYERS["France"], "SIGNON France alpha pwfrance\nSET PICTURES SOME",
     'Cannot read "SET PICTURES SOME": SET PICTURES needs INLINE, ALL or NONE'),
    (PLAYERS["France"], "SIGNON France alpha pwfrance\nSET PICTURES DEFAULT ALL",
     "SET PICTURES DEFAULT ALL: refused, only the game's GM may do this"),
    (WATCHER, "SET PICTURES NONE",
     "SET PICTURES NONE: refused, it is for a game's players and GM after SIGNON, and its "
     "observers after OBSERVE <game>"),
    (WATCHER, "SUMMARY alpha\nSET PICTURES NONE",  # a game named, but not observed
     "SET PICTURES NONE: refused, it is for a game's players and GM after SIGNON"),
])
def test_bad_input_is_answered(database: Database, tmp_path: Path, sender: str, body: str,
                               words: str) -> None:
    _start(database, tmp_path)
    assert words in _send(database, tmp_path, sender, body)


def test_help_names_it(database: Database, tmp_path: Path) -> None:
    reply = _send(database, tmp_path, WATCHER, "HELP")
    assert "SET PICTURES NONE" in reply or "HELP GAMES" in reply
    games = _send(database, tmp_path, WATCHER, "HELP GAMES")
    assert "SET PICTURES INLINE" in games and "SET PICTURES NONE" in games
    assert "SET PICTURES DEFAULT INLINE|ALL|NONE" in _send(database, tmp_path, WATCHER,
                                                           "HELP DEADLINES")
