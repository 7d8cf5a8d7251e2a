"""Hostile and careless commands through the real service: dates at the ends of the calendar,
local times that do not exist or come twice, forged OBSERVE, one address taking many powers.
Each is answered with its reason, and nothing a player sends makes a GM command fail."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

from gm.play.absences import absences, past_absences
from gm.play.observers import observers
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import upgraded_hash
from gm.store.settings import GameSettings
from tests.support.mail_table import MailTable
from tests.support.old_hashes import unnormalised_hash
from tests.support.service_support import GM, PLAYERS, START, maildir_config, text_of

STRANGER = "stranger@example.net"


def table(database: Database, tmp_path: Path) -> MailTable:
    return MailTable(database, maildir_config(tmp_path), "g1", PLAYERS, reporter="England")


async def test_far_dates_are_refused_with_the_range_and_the_gm_starts(
        database: Database, tmp_path: Path) -> None:
    t = table(database, tmp_path)
    await t.send(GM, "CREATE g1 standard gmpass")
    reply = text_of(await t.send(STRANGER, "\n".join([
        "JOIN g1 pw1", "SIGNON Austria g1 pw1",
        "SET ABSENCE 9999-12-31 TO 9999-12-31", "SET ABSENCE 3000-01-01 TO 3000-01-02"])))
    flat = " ".join(reply.split())
    assert ('"9999-12-31" (Fri 9999-12-31 00:00) is too far ahead: give a date from now '
            "(2026-03-01) to 2027-03-02") in flat
    assert '"3000-01-01" (Wed 3000-01-01 00:00) is too far ahead' in flat
    for power, address in list(PLAYERS.items())[1:]:
        await t.send(address, f"JOIN g1 pw{power}")
    reply = text_of(await t.send(GM, "\n".join([
        "SIGNON GM g1 gmpass", "SET TIMEZONE America/New_York", "START",
        "SET DEADLINE 9999-12-31 23:59", "SET DEADLINE Dec 31 9999 23:59"])))
    assert "Time zone of g1: America/New_York." in reply
    assert "g1 has started: Spring 1901, Movement" in reply
    flat = " ".join(reply.split())
    assert flat.count("is too far ahead: give a date from now (2026-03-0") == 2
    assert '"Dec 31 9999 23:59" (Fri 9999-12-31 23:59) is too far ahead' in flat


def test_a_stored_absence_past_the_range_is_skipped() -> None:
    """An absence stored before the range was read (9999-12-31) no longer stops a deadline."""
    settings = GameSettings(timezone="America/New_York", extra={"absences": [
        {"power": "Austria", "from": "9999-12-31", "to": "9999-12-31"},
        {"power": "England", "from": "2026-03-02", "to": "2026-03-03"}]})
    assert [a.start for a in absences(settings)] == [date(2026, 3, 2)]
    deadline = datetime(2026, 3, 3, 12, tzinfo=UTC)
    assert past_absences(settings, deadline) == datetime(2026, 3, 4, 12, tzinfo=UTC)


async def test_local_times_that_do_not_exist_or_come_twice(
        database: Database, tmp_path: Path) -> None:
    t = table(database, tmp_path)
    await t.start("standard", "SET TIMEZONE America/New_York")
    reply = text_of(await t.send(GM, "\n".join([
        "SIGNON GM g1 gmpass", "SET DEADLINE 2026-03-08 02:30", "SET DEADLINE 2026-11-01 01:30"])))
    assert ("SET DEADLINE 2026-03-08 02:30: refused, 02:30 does not exist on 2026-03-08 in "
            "America/New_York (the clocks go forward over it); give another time.") in reply
    assert "moved to Sun 2026-11-01 01:30 EDT (05:30 UTC)" in reply
    assert ("01:30 comes twice on 2026-11-01 in America/New_York (the clocks go back over it):"
            " the deadline is the first.") in reply


def _observers(database: Database) -> list[str]:
    with database.read() as s:
        game = games_repo.find_game(s, "g1")
        assert game is not None
        return observers(game)


async def test_observe_takes_effect_only_once_confirmed_from_the_address(
        database: Database, tmp_path: Path) -> None:
    t = table(database, tmp_path)
    await t.start("standard")
    victim = "victim@example.net"
    reply = text_of(await t.send(victim, "OBSERVE g1"))  # From forged: the reply goes to victim
    assert "nothing is sent until then" in reply and "If you did not ask, ignore" in reply
    code = re.search(r"OBSERVE g1 CONFIRM (\S+)", reply)
    assert code is not None
    assert _observers(database) == []
    # the forger cannot confirm: a guessed code, or the right one from another address
    reply = text_of(await t.send(victim, "OBSERVE g1 CONFIRM wrongcode1"))
    assert "no OBSERVE g1 from victim@example.net is waiting for that code" in reply
    assert "wrongcode1" not in reply  # a code is masked like a password
    reply = text_of(await t.send(STRANGER, f"OBSERVE g1 CONFIRM {code.group(1)}"))
    assert "no OBSERVE g1 from stranger@example.net is waiting" in reply
    assert _observers(database) == []
    reply = text_of(await t.send(victim, f"OBSERVE g1 CONFIRM {code.group(1)}"))
    assert "You observe g1: you will get the report of every phase" in reply
    assert _observers(database) == [victim]
    # the code is spent
    reply = text_of(await t.send(victim, f"OBSERVE g1 CONFIRM {code.group(1)}"))
    assert "you already observe g1" in reply


async def test_one_address_joins_one_power_unless_the_gm_allows_more(
        database: Database, tmp_path: Path) -> None:
    t = table(database, tmp_path)
    await t.send(GM, "CREATE g1 standard gmpass")
    reply = text_of(await t.send(STRANGER, "JOIN g1 pw1\nJOIN England g1 pw2\nJOIN g1 pw3"))
    assert "You joined g1 as Austria." in reply
    rule = ("one address plays one power of a game unless its GM allows more (SET MULTIPLE "
            "ON).")
    assert reply.count(f"refused, you have Austria in g1 already: {rule}") == 2
    assert "line 2: JOIN England g1 ******: refused" in reply  # quoted, the password masked
    reply = text_of(await t.send(STRANGER, "JOIN g1 pw4 PREFER France"))
    assert f"you play Austria in g1 already: {rule}" in reply
    with database.read() as s:
        game = games_repo.find_game(s, "g1")
        assert game is not None
        taken = [p.name for p in powers_repo.list_powers(s, game.id) if p.addresses]
    assert taken == ["Austria"]
    reply = text_of(await t.send(GM, "SIGNON GM g1 gmpass\nSET MULTIPLE ON"))
    assert "One address may JOIN more than one power of g1 now" in reply
    t.new_mail()
    reply = text_of(await t.send(STRANGER, "JOIN England g1 pw2"))
    assert "You joined g1 as England." in reply
    [told] = t.new_mail()[GM]
    assert ("The same address has Austria in g1 too (SET MULTIPLE ON allows it)."
            in told)


async def test_a_password_signs_on_in_either_unicode_form(
        database: Database, tmp_path: Path) -> None:
    nfc, nfd = "caf\u00e9-m\u00fc", "cafe\u0301-mu\u0308"
    t = table(database, tmp_path)
    await t.send(GM, f"CREATE g1 standard {nfd}")
    assert "You joined g1 as Austria" in text_of(await t.send(STRANGER, f"JOIN g1 {nfc}"))
    assert "Signed on as Austria in g1." in text_of(
        await t.send(STRANGER, f"SIGNON Austria g1 {nfd}"))
    assert "Signed on as the GM of g1." in text_of(await t.send(GM, f"SIGNON GM g1 {nfc}"))
    # a hash stored before passwords were normalised (of the NFD form) is replaced by the NFC
    # form's at the next sign-on that matches
    old = unnormalised_hash(nfd)
    with database.transaction() as s:
        game = games_repo.find_game(s, "g1")
        assert game is not None
        powers_repo.set_power_password(s, game.id, "Austria", old, now=START)
    reply = text_of(await t.send(STRANGER, f"SIGNON Austria g1 {nfc}"))
    assert "Signed on as Austria in g1." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "g1")
        assert game is not None
        stored = powers_repo.get_power(s, game.id, "Austria")
        assert stored is not None and stored.password_hash not in (None, old)
        assert upgraded_hash(nfc, stored.password_hash or "") is None


async def test_the_absences_of_a_replaced_player_go_with_them(
        database: Database, tmp_path: Path) -> None:
    t = table(database, tmp_path)
    await t.start("standard")
    reply = await t.answer("France", "SET ABSENCE 2026-03-03 TO 2026-03-05")
    assert "France is away from 2026-03-03 to 2026-03-05" in reply
    # (the open phase's deadline never moves for an absence: njudge `data/absence`)
    await t.answer("England", "SET ABSENCE 2026-03-10 TO 2026-03-11")
    reply = text_of(await t.send(GM, "SIGNON GM g1 gmpass\nREPLACE France new@example.net"))
    assert ("The absences the old player of France claimed are withdrawn: 2026-03-03 to "
            "2026-03-05.") in reply
    with database.read() as s:
        game = games_repo.find_game(s, "g1")
        assert game is not None
        assert [(a.power, str(a)) for a in absences(game.settings)] == [
            ("England", "2026-03-10 to 2026-03-11")]
