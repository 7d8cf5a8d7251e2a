"""IMPORT by mail: the saved game attached to the message (a game the `diplomacy` package played
and saved) starts a game at its last position with the sender as GM, or (IMPORT REPLAY) is
replayed through gm's adjudicator with the phases where the two disagree named; a message
without a readable saved game is told what was wrong and what is accepted."""

from __future__ import annotations

import json
from dataclasses import replace
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.export.test_import import _package_game
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import (
    GM,
    SERVICE,
    SPRING_1901,
    START,
    deliver,
    maildir_config,
    text_of,
)


def _with_file(body: str, data: bytes | None, filename: str,
               content_type: str = "application/json") -> bytes:
    """A message from the GM with `body` and `data` attached as `filename`."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = GM, SERVICE, "import"
    msg["Date"] = format_datetime(START)
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(body)
    if data is not None:
        kind, sub = content_type.split("/")
        msg.add_attachment(data, maintype=kind, subtype=sub, filename=filename)
    return bytes(msg)


async def _send(table: MailTable, raw: bytes) -> str:
    """`raw` delivered and read by the running service: its reply's text."""
    asked = message_from_bytes(raw, policy=default)["Message-ID"]
    deliver(table.config.maildir.inbox, raw)
    await table.run()
    [reply] = [m for m in table.outbox() if m["In-Reply-To"] == asked]
    return text_of(reply)


def _json(saved: dict[str, Any]) -> bytes:
    return json.dumps(saved).encode()


async def test_import_by_mail_starts_a_game_at_the_files_last_position(
        database: Database, tmp_path: Path) -> None:
    saved = _package_game("S1903M", seed=5)
    table = MailTable(database, maildir_config(tmp_path), "imported",
                      {"France": "france@example.org"}, reporter="France")
    reply = await _send(table, _with_file(
        "IMPORT imported gmpass\nREPLACE France france@example.org pwfrance\nRESUME",
        _json(saved), "game.json"))
    assert ("Game imported (Standard) made from game.json (application/json) at its last "
            "phase, S1903M; you are its GM.") in reply
    assert "gmpass" not in reply
    assert "imported is active again" in reply
    state = table.state()
    assert str(state.phase) == "Spring 1903, Movement"
    for power, units in saved["phases"][-1]["state"]["units"].items():
        assert sorted(str(u).upper() for u in state.units_of(power.title())) == sorted(units)
    answer = await table.answer("France", *(f"{u} H" for u in state.units_of("France")))
    assert "refused" not in answer
    assert "Spring 1903, Movement" in await table.process()
    again = await _send(table, _with_file("IMPORT Imported other", _json(saved), "game.json"))
    assert ("IMPORT imported: refused, a game called 'imported' exists already; choose "
            "another name.") in again


async def test_import_replay_by_mail_names_the_phases_where_gm_disagrees(
        database: Database, tmp_path: Path) -> None:
    saved = _package_game("S1904M", seed=11)
    count = len(saved["phases"]) - 1
    table = MailTable(database, maildir_config(tmp_path), "none", {}, reporter="France")
    lines = json.dumps(saved) + "\n" + json.dumps(saved) + "\n"  # a .jsonl of two games
    reply = await _send(table, _with_file("IMPORT REPLAY", lines.encode(), "games.jsonl",
                                          "application/octet-stream"))
    assert ("IMPORT REPLAY: games.jsonl (application/octet-stream), Standard, replayed "
            "through gm's adjudicator: gm agrees with every phase.") in reply
    assert f"{count} phases replayed, {count} agree, 0 disagree" in reply
    names = [p["name"] for p in saved["phases"]]
    units = saved["phases"][names.index("F1901M")]["state"]["units"]["FRANCE"]
    moved = next(u for u in units if u.startswith("A "))
    units[units.index(moved)] = "A GAS" if moved != "A GAS" else "A PIC"
    reply = await _send(table, _with_file("import replay", _json(saved), "game.json"))
    assert "gm disagrees with it" in reply
    assert "S1901M: units: gm has France " in reply and "the file France A" in reply
    assert f"{count} phases replayed, {count - 2} agree, 2 disagree" in reply


async def test_import_by_mail_says_what_was_wrong_and_what_is_accepted(
        database: Database, tmp_path: Path) -> None:
    table = MailTable(database, maildir_config(tmp_path), "none", {}, reporter="France")
    accepted = ("Attach the saved game as a JSON file (application/json, or a file named "
                ".json or .jsonl)")
    reply = await _send(table, _with_file("IMPORT mine secret", None, ""))
    assert "IMPORT mine: refused, no saved game is attached to the message." in reply
    assert accepted in reply
    reply = await _send(table, _with_file("IMPORT mine secret", b"\x89PNG...", "board.png",
                                          "image/png"))
    assert ("IMPORT mine: refused, no saved game is attached to the message; it carries "
            "only board.png (image/png).") in reply
    reply = await _send(table, _with_file("IMPORT REPLAY", b"not json", "game.json"))
    assert "IMPORT REPLAY: refused, gm cannot read game.json (application/json): not JSON (" \
        in reply
    assert accepted in reply
    bad = {"id": "x", "map": "standard", "phases": [
        {"name": "S1901M", "state": {"units": {"FRANCE": ["A XYZ"]}}, "orders": {}}]}
    reply = await _send(table, _with_file("IMPORT mine secret", _json(bad), "game.json"))
    assert "phase 1 (S1901M): 'XYZ' is no province of Standard" in reply
    odd = {"phases": [17]}
    reply = await _send(table, _with_file("IMPORT mine secret", _json(odd), "game.json"))
    assert "IMPORT mine: refused, game.json (application/json) is JSON but not shaped as a " \
        "MILA saved game" in reply
    reply = await _send(table, _with_file("IMPORT REPLAY", b"\xff\xfe{}", "game.json"))
    assert "is not UTF-8 text" in reply
    retreat = _package_game("S1901M", seed=1)
    retreat["phases"][-1]["name"] = "F1901R"
    reply = await _send(table, _with_file("IMPORT mine secret", _json(retreat), "game.json"))
    assert ("IMPORT mine: refused, game.json (application/json): its last phase, F1901R, is a "
            "retreat phase") in reply
    done = _package_game("F1901M", seed=1)
    done["phases"].append({**done["phases"][-1], "name": "COMPLETED"})
    reply = await _send(table, _with_file("IMPORT mine secret", _json(done), "game.json"))
    assert "the saved game is completed: there is no phase left to play (a replay compares " \
        "its phases: gm import --replay, or IMPORT REPLAY by mail)" in reply
    reply = await _send(table, _with_file("IMPORT mine", _json(bad), "game.json"))
    assert "IMPORT needs a game name and a password" in reply
    assert "Game mine" not in reply


async def test_import_by_mail_counts_against_the_games_an_address_may_have_unstarted(
        database: Database, tmp_path: Path) -> None:
    saved = _json(_package_game("F1901M", seed=3))
    table = MailTable(database, replace(maildir_config(tmp_path), max_forming_games=2), "none",
                      {}, reporter="France")
    await table.send(GM, "CREATE first standard secret")
    reply = await _send(table, _with_file("IMPORT second secret", saved, "game.json"))
    assert "Game second (Standard) made from game.json" in reply
    reply = await _send(table, _with_file("IMPORT third secret", saved, "game.json"))
    assert (f"IMPORT third: refused, {GM} has 2 games not yet under way (first, second), the "
            "most one address may have here.") in reply
    # an imported game with a player seated is under way
    await table.send(GM, "SIGNON GM second secret\nREPLACE France france@example.org pw")
    reply = await _send(table, _with_file("IMPORT third secret", saved, "game.json"))
    assert "Game third (Standard) made from game.json" in reply


async def test_a_record_gm_sent_by_mail_replays_and_imports_by_mail(
        database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "played")
    await table.start("standard")
    await table.orders(SPRING_1901)
    await table.process()
    asked = await table.send(GM, "HISTORY played FILE")
    [record] = list(asked.iter_attachments())  # type: ignore[attr-defined]
    data = record.get_content()
    data = data if isinstance(data, bytes) else data.encode()
    reply = await _send(table, _with_file("IMPORT REPLAY", data, record.get_filename()))
    assert "gm agrees with every phase" in reply
    assert "1 phases replayed, 1 agree, 0 disagree" in reply
    reply = await _send(table, _with_file("IMPORT copy secret", data, record.get_filename()))
    assert "Game copy (Standard) made from" in reply and "at its last phase, F1901M" in reply
    with database.read() as s:
        games = {g: games_repo.find_game(s, g) for g in ("played", "copy")}
        states = {g: phases_repo.history(s, r.id)[-1].state for g, r in games.items() if r}
    assert states["copy"].units == states["played"].units
    assert states["copy"].owners == states["played"].owners
