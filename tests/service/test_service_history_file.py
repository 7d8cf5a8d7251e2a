"""HISTORY <game> FILE by mail: the game's record as a MILA saved game attached to the reply,
each copy holding only the press its reader may see (njudge `data/press`: partial press is
the sender's and its recipients' alone; grey press unsigned but to the GM) and, in a QUIET
game, no player's address."""

from __future__ import annotations

import io
import json
import re
from email.message import Message
from pathlib import Path
from typing import Any

from PIL import Image

from gm.store.db import Database
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import GM, PLAYERS, SPRING_1901, text_of

PRIVATE_FE = "Private from France to England: the Channel stays empty."
PRIVATE_GR = "Private from Germany to Russia: Sweden is yours."
GREY_ALL = "Grey to all: someone is lying."
WHITE_ALL = "White to all from Italy: peace."
GREY_FE = "Grey to England alone: trust nobody."


def _record(reply: Message) -> dict[str, Any]:
    [part] = [p for p in reply.walk() if p.get_filename()]
    assert part.get_filename() == "quietgame-record.json"
    assert part.get_content_type() == "application/json"
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    found: dict[str, Any] = json.loads(data)
    return found


async def _ask(table: MailTable, sender: str) -> tuple[str, dict[str, Any]]:
    reply = await table.send(sender, f"HISTORY {table.game} FILE")
    return text_of(reply), _record(reply)


async def _played(table: MailTable) -> None:
    await table.start("standard", "SET QUIET", "SET PRESS ALL")
    await table.signed("France", "PRESS TO England", PRIVATE_FE, "ENDPRESS")
    await table.signed("Germany", "PRESS TO Russia", PRIVATE_GR, "ENDPRESS")
    await table.signed("Turkey", "GREY BROADCAST", GREY_ALL, "ENDPRESS")
    await table.signed("Italy", "BROADCAST", WHITE_ALL, "ENDPRESS")
    await table.signed("Austria", "GREY PRESS TO England", GREY_FE, "ENDPRESS")
    await table.signed("France", "SET ABSENCE 2026-04-01 TO 2026-04-03")
    await table.orders(SPRING_1901)
    await table.process()


async def test_each_reader_gets_the_press_they_may_see(database: Database,
                                                       tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "quietgame")
    await _played(table)
    secrets = [PRIVATE_FE, PRIVATE_GR, GREY_FE]
    addresses = [*PLAYERS.values(), GM]
    copies: dict[str, dict[str, Any]] = {}
    for power, address in PLAYERS.items():
        text, record = await _ask(table, address)
        assert "HISTORY quietgame: the game's record (MILA saved-game JSON) is attached" in text
        copies[power] = record
    watcher = "watcher@example.net"
    asked = text_of(await table.send(watcher, f"OBSERVE {table.game}"))
    code = re.search(rf"OBSERVE {table.game} CONFIRM (\S+)", asked)
    assert code is not None, asked
    await table.send(watcher, f"OBSERVE {table.game} CONFIRM {code.group(1)}")
    _, observer = await _ask(table, watcher)
    text, gm_copy = await _ask(table, GM)
    stranger_text, stranger = await _ask(table, "someone@example.net")
    for power, record in copies.items():
        whole = json.dumps(record)
        assert record["gm"]["copy_for"] == power
        # no address of anyone in a QUIET game: players are numbered
        assert not [a for a in addresses if a in whole], power
        assert record["gm"]["players"]["FRANCE"] == ["player 3 from the start"]
        # private press: only the sender's and the recipients'
        assert (PRIVATE_FE in whole) == (power in ("France", "England")), power
        assert (PRIVATE_GR in whole) == (power in ("Germany", "Russia")), power
        assert (GREY_FE in whole) == (power in ("Austria", "England")), power
        # what was sent to everyone, everyone has; grey press unsigned but to its sender
        assert WHITE_ALL in whole and GREY_ALL in whole
        [grey] = [p for p in record["gm"]["press"] if p["body"] == GREY_ALL]
        assert grey["from"] == ("TURKEY" if power == "Turkey" else None)
        assert grey["grey"] is True
        assert not [m for m in record["phases"][0]["messages"] if m["message"] == GREY_ALL
                    and power != "Turkey"]
    # days away: the player's own, and all of them to the GM
    away = [{"power": "FRANCE", "from": "2026-04-01", "to": "2026-04-03"}]
    assert copies["France"]["gm"]["absences"] == away
    assert copies["England"]["gm"]["absences"] == [] and stranger["gm"]["absences"] == []
    # England's grey press from Austria: unsigned, and to England alone as it saw it
    [grey_fe] = [p for p in copies["England"]["gm"]["press"] if p["body"] == GREY_FE]
    assert grey_fe["from"] is None and grey_fe["to"] == ["ENGLAND"]
    # the signed private press is a MILA message of the phase it was sent in
    [private] = [m for m in copies["France"]["phases"][0]["messages"]
                 if m["message"] == PRIVATE_FE]
    assert private == {"sender": "FRANCE", "recipient": "ENGLAND", "phase": "S1901M",
                       "time_sent": private["time_sent"], "message": PRIVATE_FE}
    # the GM's copy: all the press, every sender named, and the players' addresses
    whole = json.dumps(gm_copy)
    assert all(s in whole for s in [*secrets, GREY_ALL, WHITE_ALL])
    senders = {p["body"]: p["from"] for p in gm_copy["gm"]["press"]}
    assert senders[GREY_ALL] == "TURKEY" and senders[GREY_FE] == "AUSTRIA"
    assert gm_copy["gm"]["absences"] == away
    assert gm_copy["gm"]["players"]["FRANCE"] == [f"{PLAYERS['France']} from the start"]
    # an observer: what was sent to everyone, grey unsigned; nothing private, no address
    whole = json.dumps(observer)
    assert observer["gm"]["copy_for"] == "observer"
    assert WHITE_ALL in whole and GREY_ALL in whole
    assert not [x for x in [*secrets, *addresses] if x in whole]
    assert [p["from"] for p in observer["gm"]["press"] if p["body"] == GREY_ALL] == [None]
    # anyone else: the board and the orders, no press, no address
    whole = json.dumps(stranger)
    assert "MILA saved-game JSON" in stranger_text
    assert not [s for s in [*secrets, GREY_ALL, WHITE_ALL] if s in whole]
    assert not [a for a in addresses if a in whole]
    assert [p["name"] for p in stranger["phases"]] == ["S1901M", "F1901M"]
    assert stranger["phases"][0]["orders"]["FRANCE"] == ["A PAR - BUR", "A MAR - SPA",
                                                         "F BRE - MAO"]


async def test_a_file_of_no_game_is_refused(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "somegame")
    reply = text_of(await table.send("someone@example.net", "HISTORY nosuch FILE"))
    assert "HISTORY: there is no game called nosuch" in reply or "nosuch" in reply
    assert not [p for p in (await table.send("someone@example.net", "HISTORY nosuch HTML"))
                .walk() if p.get_filename()]


def _file(reply: Message, name: str) -> bytes:
    [part] = [p for p in reply.walk() if p.get_filename() == name]
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return data


async def test_the_html_history_and_the_animation_by_mail(database: Database,
                                                          tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "quietgame")
    await _played(table)
    reply = await table.send(PLAYERS["France"], "HISTORY quietgame HTML")
    assert "the game's history in one HTML file" in text_of(reply)
    page = _file(reply, "quietgame-history.html").decode("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "Spring 1901, Movement" in page and "Fall 1901, Movement" in page
    assert "A Par - Bur" in page  # the orders and their results
    assert PRIVATE_FE in page and WHITE_ALL in page and GREY_ALL in page
    assert PRIVATE_GR not in page and GREY_FE not in page
    assert not [a for a in [*PLAYERS.values(), GM] if a in page]
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and "<script" not in page  # nothing fetched
    reply = await table.send("someone@example.net", "HISTORY quietgame ANIMATION")
    assert "an animation of the game's movement phases" in text_of(reply)
    data = _file(reply, "quietgame-animation.webp")
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP"
        assert getattr(image, "n_frames", 1) == 2  # Spring 1901 with its orders, then now
        assert image.width == 640
