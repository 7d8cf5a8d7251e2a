"""STANDBY and REPLACE <power> STANDBY through ingest(), and the standby list offered to the GM
when a power goes into civil disorder (EJECT, and the tick under SET LATE DISORDER)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store import powers as powers_repo
from gm.store import standby as standby_repo
from gm.store.db import Database
from tests.support.service_support import GM, PLAYERS, SPRING_1901, START, maildir_config, send_all

ANY = "anygame@example.org"
KEEN = "keen@example.org"


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    return send_all(db, tmp_path, sender, body)[0]


def _game(db: Database, tmp_path: Path, *settings: str) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines += [*settings, "START"]
    assert "alpha has started" in _send(db, tmp_path, GM, "\n".join(lines))


def test_standby_offers_and_the_gm_replaces_from_them(database: Database,
                                                      tmp_path: Path) -> None:
    _game(database, tmp_path)
    assert "You stand by for any game" in _send(database, tmp_path, ANY, "STANDBY")
    assert "you stand by for any game already" in _send(database, tmp_path, ANY, "standby")
    reply, mail = send_all(database, tmp_path, KEEN, "STANDBY alpha")
    assert "You stand by for alpha: its GM may give you a power that loses its player." in reply
    assert [m.recipients for m in mail] == [(GM,)]
    assert f"{KEEN} stands by for alpha" in mail[0].parts[0].text
    assert "STANDBY: you play France in alpha already." in _send(
        database, tmp_path, PLAYERS["France"], "STANDBY alpha")
    # EJECT offers the list to the GM, the game's own offers first
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT Italy")
    assert "Italy in alpha has no player now and is in civil disorder" in reply
    assert (f"Standing by to take it over: {KEEN}, {ANY}. REPLACE Italy STANDBY gives it to "
            f"{KEEN}.") in reply
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nREPLACE Italy STANDBY")
    assert f"{KEEN} now plays Italy in alpha; a new password was made and sent" in reply
    assert f"({KEEN} was the first standing by; their offers are withdrawn.)" in reply
    (given,) = [m for m in mail if m.recipients == (KEEN,)]
    signon = re.search(r"SIGNON Italy alpha (\S+)", given.parts[0].text)
    assert signon is not None
    assert "Signed on as Italy in alpha." in _send(database, tmp_path, KEEN, signon.group(0))
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert [o.address for o in standby_repo.offers_for(s, game.id)] == [ANY]
    # the next one comes from the offers for any game
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT Turkey")
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nREPLACE Turkey STANDBY")
    assert f"{ANY} now plays Turkey in alpha" in reply
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT Austria")
    assert "No one stands by to take it over (players offer with STANDBY)." in reply
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nREPLACE Austria STANDBY")
    assert ("line 2: REPLACE Austria STANDBY: no one stands by for alpha or for any game"
            in reply)
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        austria = powers_repo.get_power(s, game.id, "Austria")
        assert austria is not None and austria.addresses == ()


def test_standby_withdrawn_and_refused(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _send(database, tmp_path, KEEN, "STANDBY alpha\nSTANDBY")
    assert "You no longer stand by for alpha." in _send(database, tmp_path, KEEN,
                                                        "STANDBY alpha OFF")
    assert "you were not standing by for alpha" in _send(database, tmp_path, KEEN,
                                                         "STANDBY alpha OFF")
    assert "STANDBY OFF: your 1 offer withdrawn." in _send(database, tmp_path, KEEN,
                                                           "STANDBY OFF")
    assert "STANDBY: there is no game called 'alpah'; did you mean alpha?" in _send(
        database, tmp_path, KEEN, "STANDBY alpah")
    assert 'Cannot read "STANDBY alpha now please": STANDBY may name a game' in _send(
        database, tmp_path, KEEN, "STANDBY alpha now please")
    assert "REPLACE: refused, only the game's GM may do this" in _send(
        database, tmp_path, PLAYERS["France"], "SIGNON France alpha pwfrance\n"
        "REPLACE Italy STANDBY")


def test_civil_disorder_offers_the_standby_list_to_the_gm(database: Database,
                                                          tmp_path: Path) -> None:
    _game(database, tmp_path, "SET LATE DISORDER")
    _send(database, tmp_path, KEEN, "STANDBY alpha")
    for power, orders in SPRING_1901.items():
        if power != "Russia":
            _send(database, tmp_path, PLAYERS[power],
                  "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    tick(database, config=maildir_config(tmp_path),
         clock=FixedClock(START + timedelta(hours=73)))
    with database.read() as s:
        offers = [o for o in outbound_repo.list_outbound(s)
                  if o.recipients == (GM,) and "civil disorder" in dict(o.headers)["Subject"]]
    assert len(offers) == 1
    text = offers[0].parts[0].text
    assert "Russia went into civil disorder in alpha (Spring 1901, Movement)" in text
    assert f"Standing by to take over: {KEEN}." in text
    assert f"REPLACE <power> STANDBY gives a power to {KEEN}, the first of them." in text
