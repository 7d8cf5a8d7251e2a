"""OBSERVE (self-service observers, which the GM may forbid) and MAP (the picture of a phase,
attached to the reply), through the real service: ingest() and a pass over Maildirs."""

from __future__ import annotations

from pathlib import Path

from gm.play.observers import observers
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
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
    unwrapped,
)

WATCHER = "watcher@example.org"


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    return send_all(db, tmp_path, sender, body)[0]


def _setup(db: Database, tmp_path: Path, *, start: bool = True) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    reply = _send(db, tmp_path, GM, "\n".join(lines))
    assert "Game alpha (Standard) created" in reply
    if start:
        assert "alpha has started" in _send(db, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")


def _reply(db: Database, tmp_path: Path, sender: str, body: str) -> OutboundRecord:
    result = ingest(db, message(sender, body), config=maildir_config(tmp_path),
                    clock=FixedClock(START))
    with db.read() as s:
        (reply,) = [o for o in outbound_repo.list_outbound(s)
                    if o.message_id == result.reply_message_id]
    return reply


# --------------------------------------------------------------------------------------------
# OBSERVE


def test_anyone_observes_gets_the_start_mail_and_stops(database: Database,
                                                       tmp_path: Path) -> None:
    _setup(database, tmp_path, start=False)
    reply, mail = observe(database, tmp_path, WATCHER, "alpha")
    assert "You observe alpha: you will get the report of every phase." in reply
    assert [m.recipients for m in mail] == [(GM,)]
    assert f"{WATCHER} observes alpha now (OBSERVE)" in mail[0].parts[0].text
    reply = _send(database, tmp_path, WATCHER, "observe ALPHA")
    assert "OBSERVE: you already observe alpha (OBSERVE alpha OFF stops it)." in reply
    # the start mail goes to the observer too, as an observer
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")
    started = {m.recipients[0]: m.parts[0].text for m in mail}
    assert set(started) == {*PLAYERS.values(), GM, WATCHER}
    assert "You observe it: the report of every phase comes to you" in started[WATCHER]
    assert "You play" not in started[WATCHER] and "You are its GM" not in started[WATCHER]
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and observers(game) == [WATCHER]
    assert "You no longer observe alpha." in _send(database, tmp_path, WATCHER,
                                                     "OBSERVE alpha OFF")
    assert "does not observe alpha; nothing to stop" in _send(database, tmp_path, WATCHER,
                                                              "OBSERVE alpha OFF")
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and observers(game) == []


def test_observers_by_observe_get_the_phase_report(database: Database, tmp_path: Path) -> None:
    _setup(database, tmp_path)
    observe(database, tmp_path, WATCHER, "alpha")
    for power, orders in SPRING_1901.items():
        _send(database, tmp_path, PLAYERS[power],
              "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    tick(database, config=maildir_config(tmp_path), clock=FixedClock(START))
    with database.read() as s:
        sent = [o for o in outbound_repo.list_outbound(s) if WATCHER in o.recipients]
    assert any("You receive this as an observer of alpha." in o.parts[0].text for o in sent)


def test_the_gm_forbids_observe(database: Database, tmp_path: Path) -> None:
    _setup(database, tmp_path)
    assert "OBSERVE alpha is refused from now on" in _send(
        database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET OBSERVE OFF")
    reply, mail = send_all(database, tmp_path, WATCHER, "OBSERVE alpha")
    assert "OBSERVE: refused, the GM of alpha does not allow observers to sign up" in reply
    assert mail == []
    # only the GM may change it; the GM's own ADD OBSERVER still works
    assert "refused, only the game's GM may do this" in _send(
        database, tmp_path, PLAYERS["France"], "SIGNON France alpha pwfrance\nSET OBSERVE ON")
    assert "Anyone may OBSERVE alpha now." in _send(database, tmp_path, GM,
                                                    "SIGNON GM alpha gmpass\nSET OBSERVE ON")
    assert "You observe alpha" in observe(database, tmp_path, WATCHER, "alpha")[0]


def test_observe_bad_input_is_answered(database: Database, tmp_path: Path) -> None:
    _setup(database, tmp_path)
    assert "OBSERVE: there is no game called 'alpah'; did you mean alpha?" in _send(
        database, tmp_path, WATCHER, "OBSERVE alpah")
    reply = _send(database, tmp_path, WATCHER, "OBSERVE")
    assert ('Cannot read "OBSERVE": OBSERVE needs a game, and OFF to stop: OBSERVE mygame or'
            in reply)
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET OBSERVE maybe")
    assert 'Cannot read "SET OBSERVE maybe": SET OBSERVE needs ON or OFF' in reply


# --------------------------------------------------------------------------------------------
# MAP


def test_map_attaches_the_picture_of_now_and_of_a_past_phase(database: Database,
                                                             tmp_path: Path) -> None:
    _setup(database, tmp_path)
    reply = _reply(database, tmp_path, WATCHER, "MAP alpha")
    assert ("The map of alpha now (Spring 1901, Movement) is attached "
            "(alpha-spring-1901-movement.png; alpha-spring-1901-movement.svg to zoom)."
            in unwrapped(reply.parts[0].text))
    png, picture = reply.attachments
    assert (png.content_type, png.filename) == ("image/png", "alpha-spring-1901-movement.png")
    assert png.svg == picture.data and not png.drawn  # queued: the sender draws it (below)
    assert picture.content_type == "image/svg+xml"
    assert picture.filename == "alpha-spring-1901-movement.svg"
    assert b"<svg" in picture.data
    for power, orders in SPRING_1901.items():
        _send(database, tmp_path, PLAYERS[power],
              "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    tick(database, config=maildir_config(tmp_path), clock=FixedClock(START))
    now = _reply(database, tmp_path, WATCHER, "MAP alpha")
    assert "The map of alpha now (Fall 1901, Movement)" in now.parts[0].text
    past = _reply(database, tmp_path, WATCHER, "MAP alpha Spring 1901, Movement")
    assert ("The map of alpha at the start of Spring 1901, Movement is attached"
            in past.parts[0].text)
    assert past.attachments[1].data == picture.data  # the same board as before
    assert now.attachments[1].data != picture.data  # the units have moved
    coded = _reply(database, tmp_path, WATCHER, "MAP alpha S1901M")
    assert coded.attachments[1].data == picture.data


def test_map_refusals_quote_the_request(database: Database, tmp_path: Path) -> None:
    _setup(database, tmp_path, start=False)
    reply = _reply(database, tmp_path, WATCHER, "MAP alpha")
    assert "MAP: alpha has not started; it has no board yet." in reply.parts[0].text
    assert reply.attachments == ()
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")
    reply = _reply(database, tmp_path, WATCHER, "MAP alpha F1905M")
    assert ("MAP: alpha has no phase 'F1905M' (its latest phases: Spring 1901, Movement)."
            in reply.parts[0].text)
    reply = _reply(database, tmp_path, WATCHER, "MAP")
    assert 'Cannot read "MAP": MAP needs a game and may name a phase' in reply.parts[0].text


async def test_map_by_maildir_arrives_as_png_and_svg_attachments(database: Database,
                                                           tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    _setup(database, tmp_path)
    deliver(config.maildir.inbox, message(PLAYERS["France"], "MAP alpha"))
    assert len(await service_pass(database, config, clock)) == 1
    (mail,) = [m for m in mail_by_recipient(config.maildir.outbox)[PLAYERS["France"]]
               if "The map of alpha now (Spring 1901, Movement) is attached" in text_of(m)]
    png, svg = [p for p in mail.iter_attachments()]  # type: ignore[attr-defined]
    assert png.get_content_type() == "image/png"
    assert png.get_filename() == "alpha-spring-1901-movement.png"
    assert png.get_content().startswith(b"\x89PNG")
    assert svg.get_content_type() == "image/svg+xml"
    assert svg.get_filename() == "alpha-spring-1901-movement.svg"
    assert b"<svg" in svg.get_content()
