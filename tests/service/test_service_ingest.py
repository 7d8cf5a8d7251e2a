"""ingest(): one inbound message, one transaction, one reply; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from gm.config import Config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.passwords import hash_password
from gm.store.statuses import GameStatus, InboundStatus
from tests.support.service_support import GM, PLAYERS, START, maildir_config, message, unwrapped

pytestmark = pytest.mark.postgresql_too  # duplicates refused by the database


def _reply(db: Database, inbound_id: int) -> str:
    with db.read() as s:
        replies = [o for o in outbound_repo.list_outbound(s) if o.inbound_id == inbound_id]
    assert len(replies) >= 1
    return unwrapped(replies[0].parts[0].text)


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    result = ingest(db, message(sender, body), config=maildir_config(tmp_path),
                    clock=FixedClock(START))
    assert result.outcome is Disposition.ANSWERED, result
    return _reply(db, result.inbound_id)


def _forming_game(db: Database, tmp_path: Path) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines.append("START")
    reply = _send(db, tmp_path, GM, "\n".join(lines))
    assert "Game alpha (Standard) created" in reply
    assert "alpha has started: Spring 1901, Movement" in reply


def test_create_add_start_and_orders(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Par - Bur\nA Mar-Xyz\nA Ber - Kie\n")
    assert "Signed on as France in alpha." in reply
    assert "A Par - Bur  ->  A Par - Bur" in reply
    assert 'Unknown province "Xyz" in "A Mar-Xyz"' in reply
    assert '"A Ber - Kie": refused, France has no unit to order in Ber' in reply
    assert "Units without orders: A Mar, F Bre." in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nF Bre - Lon\n")
    assert '"F Bre - Lon": refused, F Bre cannot move to Lon' in reply
    # later orders replace earlier ones for the same unit and keep the others
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON Falpha pwfrance\nA Par H\nF Bre - MAO\n")
    assert "Orders of France for Spring 1901, Movement:\n  A Par H\n  F Bre - MAO\n" in reply
    assert "Units without orders: A Mar." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and game.status is GameStatus.ACTIVE
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        latest = orders_repo.latest_valid_orders(s, phase.id)["France"]
        assert [ln.canonical for ln in latest.lines] == ["A Par H", "F Bre - MAO"]
    reply = _send(database, tmp_path, PLAYERS["France"], "SIGNON France alpha pwfrance\nCLEAR")
    assert "Your orders for this phase are cleared." in reply
    assert "Units without orders: A Mar, A Par, F Bre." in reply


def test_wrong_password_is_refused_and_not_echoed(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha hunter2\nA Par - Bur\n")
    assert "Wrong password for France in alpha." in reply
    assert "hunter2" not in reply
    assert "A Par - Bur  ->" not in reply
    reply = _send(database, tmp_path, PLAYERS["France"], "SIGNON GM alpha pwfrance\nPROCESS")
    assert "Wrong GM password for alpha." in reply
    assert "processed" not in reply
    reply = _send(database, tmp_path, PLAYERS["France"], "A Par - Bur")
    assert "A Par - Bur  ->" not in reply and "SIGNON" in reply


def test_player_commands_need_a_signon(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET WAIT\nSET PASSWORD x")
    assert "SET WAIT: refused, you are signed on as the GM; BECOME <power> first" in reply
    reply = _send(database, tmp_path, PLAYERS["Italy"],
                  "SIGNON Italy alpha pwitaly\nSET DRAW\nSET NOWAIT\nSET PASSWORD newpw\nSTART")
    assert "Italy votes for a draw." in reply
    assert "Italy does not wait for the deadline." in reply
    assert "Password of Italy in alpha changed." in reply
    assert "START: refused, only the game's GM may do this" in reply
    assert "newpw" not in reply
    reply = _send(database, tmp_path, PLAYERS["Italy"], "SIGNON Italy alpha newpw\n")
    assert "Signed on as Italy in alpha." in reply


def test_orders_after_the_deadline_are_refused(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    late = FixedClock(START)
    late.advance(timedelta(hours=72, minutes=1))  # the default movement deadline is 72 hours
    result = ingest(database, message(PLAYERS["England"], "SIGNON England alpha pwengland\n"
                                      "F Lon - NTH"),
                    config=maildir_config(tmp_path), clock=late)
    reply = _reply(database, result.inbound_id)
    assert "refused, the deadline (Wed 2026-03-04 12:00:00 UTC) has passed." in reply


def test_a_late_order_is_told_the_deadline_to_the_second(database: Database,
                                                        tmp_path: Path) -> None:
    """A deadline off the whole minute (the game started at 12:00:37), an order 21 seconds
    after it: the refusal shows the deadline's seconds, so it does not read as still open."""
    lines = ["CREATE gamma standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines.append("START")
    started = FixedClock(START + timedelta(seconds=37))
    result = ingest(database, message(GM, "\n".join(lines)), config=maildir_config(tmp_path),
                    clock=started)
    assert "gamma has started" in _reply(database, result.inbound_id)
    late = FixedClock(START + timedelta(hours=72, seconds=58))
    result = ingest(database, message(PLAYERS["England"], "SIGNON England gamma pwengland\n"
                                      "F Lon - NTH"),
                    config=maildir_config(tmp_path), clock=late)
    reply = _reply(database, result.inbound_id)
    assert "refused, the deadline (Wed 2026-03-04 12:00:37 UTC) has passed." in reply, reply


def test_a_message_delivered_twice_is_processed_once(database: Database, tmp_path: Path) -> None:
    raw = message(GM, "CREATE beta standard gmpass", message_id="<twice@example.org>")
    config = maildir_config(tmp_path)
    first = ingest(database, raw, config=config, clock=FixedClock(START))
    second = ingest(database, raw, config=config, clock=FixedClock(START))
    third = ingest(database, raw, config=config, clock=FixedClock(START))
    assert first.outcome is Disposition.ANSWERED
    assert second.outcome is Disposition.DUPLICATE and second.inbound_id == first.inbound_id
    assert third.outcome is Disposition.DUPLICATE and third.reply_message_id is None
    with database.read() as s:
        # the reply, and once (never silently, never again) "already read"
        replies = outbound_repo.list_outbound(s)
        assert len(replies) == 2 and replies[1].message_id == second.reply_message_id
        assert "was already read" in replies[1].parts[0].text
        assert "<twice@example.org>" in replies[1].parts[0].text
        assert len(inbound_repo.list_inbound(s)) == 1


def test_the_same_message_id_from_another_sender_is_another_message(
        database: Database, tmp_path: Path) -> None:
    """A client or gateway reusing a Message-ID: England's orders after France's message with
    the same Message-ID are read and answered, not dropped as a copy of France's."""
    config = maildir_config(tmp_path)
    france = ingest(database, message(GM, "HELP", message_id="<reused@example.org>"),
                    config=config, clock=FixedClock(START))
    england = ingest(database, message("england@example.org", "LIST",
                                       message_id="<reused@example.org>"),
                     config=config, clock=FixedClock(START))
    other_text = ingest(database, message(GM, "LIST", message_id="<reused@example.org>"),
                        config=config, clock=FixedClock(START))
    assert [r.outcome for r in (france, england, other_text)] == [Disposition.ANSWERED] * 3
    assert len({france.inbound_id, england.inbound_id, other_text.inbound_id}) == 3


def test_a_failing_message_is_shunted_and_answered(database: Database, tmp_path: Path) -> None:
    # a game whose stored variant this gm does not know: running its orders fails
    with database.transaction() as s:
        games_repo.create_game(s, name="broken", variant="no-such-variant", gm_address=GM,
                               gm_password_hash=hash_password("gmpass"), now=START)
    result = ingest(database, message(GM, "SIGNON GM broken gmpass\nSTART"),
                    config=maildir_config(tmp_path), clock=FixedClock(START))
    assert result.outcome is Disposition.SHUNTED
    assert result.error is not None and "no-such-variant" in result.error
    with database.read() as s:
        stored = inbound_repo.get_inbound(s, result.inbound_id)
        assert stored.status is InboundStatus.SHUNTED and stored.error == result.error
        game = games_repo.find_game(s, "broken")
        assert game is not None and game.status is GameStatus.FORMING  # rolled back
    with database.read() as s:
        queued = [o for o in outbound_repo.list_outbound(s) if o.inbound_id == result.inbound_id]
    assert [o.recipients for o in queued] == [(GM,), (GM,)]  # the apology, the GM's notice
    assert "Your message was kept; the GM has been told." in queued[0].parts[0].text
    notice = queued[1].parts[0].text
    assert "could not be processed and was kept" in notice and "no-such-variant" in notice
    assert "gmpass" not in notice
    # the service carries on with the next message
    reply = _send(database, tmp_path, GM, "LIST")
    assert "broken: no-such-variant, forming" in reply


def test_automatic_mail_is_not_answered(database: Database, tmp_path: Path) -> None:
    raw = message("mailer-daemon@example.org", "Delivery failed",
                  headers={"Auto-Submitted": "auto-replied"})
    result = ingest(database, raw, config=maildir_config(tmp_path), clock=FixedClock(START))
    assert result.outcome is Disposition.AUTOMATIC
    with database.read() as s:
        assert outbound_repo.list_outbound(s) == []
        assert inbound_repo.get_inbound(s, result.inbound_id).status is InboundStatus.PROCESSED


def test_garbage_gets_a_clear_reply(database: Database, tmp_path: Path) -> None:
    reply = _send(database, tmp_path, "someone@example.org",
                  "Hello, how do I play?\nCREATE x\x00y\nSIGNON France nogame pw\nA Par - Bur")
    assert 'Hello, how do I play?' in reply
    assert "There is no game called 'nogame'" in reply
    assert "A Par - Bur  ->" not in reply
    raw = b"\xff\xfe garbage without headers \x00\x01"
    result = ingest(database, raw, config=maildir_config(tmp_path), clock=FixedClock(START))
    assert result.outcome in (Disposition.AUTOMATIC, Disposition.ANSWERED)
    assert result.outcome is not Disposition.SHUNTED


def test_list_summary_and_help(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    reply = _send(database, tmp_path, "visitor@example.org",
                  "LIST\nLIST alpha\nSUMMARY alpha\nHELP\nHISTORY alpha")
    assert "  alpha: Standard, active" in reply
    assert "  France: taken, playing" in reply
    assert "  France: 3 centres; units: A Mar, A Par, F Bre" in reply
    assert "SIGNON" in reply  # the help text
    assert "History of alpha (Standard):" in reply


def test_mail_from_ourselves_is_not_answered(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    result = ingest(database, message(config.address, "HELP"), config=config,
                    clock=FixedClock(START))
    assert result.outcome is Disposition.AUTOMATIC
    with database.read() as s:
        assert outbound_repo.list_outbound(s) == []


def test_a_message_too_large_is_refused_in_words(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    small = Config(data_dir=config.data_dir, address=config.address,
                   display_name=config.display_name, maildir=config.maildir,
                   max_message_bytes=2048)
    raw = message(GM, "CREATE huge standard pw\n" + "x" * 5000)
    result = ingest(database, raw, config=small, clock=FixedClock(START))
    assert result.outcome is Disposition.ANSWERED
    reply = _reply(database, result.inbound_id)
    assert f"larger than 2048 bytes ({len(raw)} bytes) and was not read" in " ".join(
        reply.split())
    with database.read() as s:
        assert games_repo.find_game(s, "huge") is None


def test_join_takes_a_free_power(database: Database, tmp_path: Path) -> None:
    reply = _send(database, tmp_path, GM, "CREATE omega standard gmpass")
    assert "created" in reply
    reply = _send(database, tmp_path, PLAYERS["Russia"], "JOIN Russia omega mypw")
    assert "You joined omega as Russia." in reply and "mypw" not in reply
    with database.read() as s:
        told = [o for o in outbound_repo.list_outbound(s) if o.recipients == (GM,)]
    assert any(f"{PLAYERS['Russia']} has joined omega as Russia." in o.parts[0].text
               for o in told)
    reply = _send(database, tmp_path, PLAYERS["Turkey"], "JOIN Russia omega otherpw")
    assert "JOIN: Russia in omega is taken (free: Austria, England, France" in reply
    reply = _send(database, tmp_path, GM, "SIGNON GM omega gmpass\nSTART")
    assert "START: these powers have no player yet: Austria, England, France, Germany, " \
           "Italy, Turkey (FORCE BEGIN starts without them, in civil disorder)." in reply
    reply = _send(database, tmp_path, PLAYERS["Russia"], "SIGNON Russia omega mypw\nA Mos - Ukr")
    assert '"A Mos - Ukr": refused, omega is forming, not taking orders.' in reply


def test_pause_resume_terminate_and_resign(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPAUSE")
    assert "alpha is now paused: no deadline runs" in reply
    reply = _send(database, tmp_path, PLAYERS["Austria"],
                  "SIGNON Austria alpha pwaustria\nA Vie - Gal")
    assert '"A Vie - Gal": refused, alpha is paused, not taking orders.' in reply
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nRESUME\nRESUME")
    assert "alpha is active again; deadline" in reply
    assert "RESUME: refused, alpha is active." in reply
    reply = _send(database, tmp_path, PLAYERS["Austria"], "SIGNON Austria alpha pwaustria\nRESIGN")
    assert "You resigned Austria in alpha" in reply
    reply = _send(database, tmp_path, PLAYERS["Austria"], "SIGNON Austria alpha pwaustria\n")
    assert "Austria in alpha has resigned." in reply
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nTERMINATE")
    assert "alpha is terminated: the game is over. Every player was told." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and game.status is GameStatus.FINISHED


def test_a_year_with_builds(database: Database, tmp_path: Path) -> None:
    _forming_game(database, tmp_path)
    france = "SIGNON France alpha pwfrance\n"
    _send(database, tmp_path, PLAYERS["France"], france + "A Par-Bur\nA Mar-Spa\nF Bre-MAO")
    assert "Now: Fall 1901, Movement." in _send(database, tmp_path, GM,
                                                "SIGNON GM alpha gmpass\nPROCESS")
    _send(database, tmp_path, PLAYERS["France"], france + "A Bur-Bel\nA Spa H\nF MAO-Por")
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS")
    assert "Now: Winter 1901, Adjustment." in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  france + "Build A Par\nBuild A Ber\nBuild F Bre\nbuild f mar\nwaive")
    assert '"Build A Ber": refused, France cannot build in Ber now' in reply
    assert "Only 3 builds allowed: dropped the earlier Build A Par." in reply
    assert "Orders of France for Winter 1901, Adjustment:\n  Build F Bre\n  Build F Mar\n" \
           "  Waive\nBuilds ordered: 3 of 3." in reply
    assert "Now: Spring 1902, Movement." in _send(database, tmp_path, GM,
                                                 "SIGNON GM alpha gmpass\nPROCESS")
    reply = _send(database, tmp_path, "visitor@example.org", "SUMMARY alpha")
    assert "  France: 6 centres; units: A Bel, A Spa, F Bre, F Mar, F Por" in reply
