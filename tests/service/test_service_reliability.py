"""The reliability record by mail through the real service (MailTable: Maildir in and out, the
tick at the deadlines): phases ordered in time, late and missed, seats abandoned and taken over,
read back from what the store keeps; RECORD for a player's own, the GM's view on JOIN, STANDBY
and SUMMARY, SET JOIN ONTIME refusing a player below it, and a quiet game counted unnamed."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from gm.service.tick import tick
from gm.store.db import Database
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import GM, PLAYERS, SPRING_1901, text_of

NEWCOMER = "newcomer@example.org"
STAND_IN = "standin@example.org"
FALL_HOLDS = {power: [f"{u} H" for u in units] for power, units in {
    "Austria": ["A Gal", "A Ser", "F Alb"], "England": ["F NTH", "F NWG", "A Yor"],
    "France": ["A Bur", "A Spa", "F MAO"], "Germany": ["A Kie", "A Ruh", "F Den"],
    "Russia": ["A Ukr", "A Gal", "F BLA", "F BOT"], "Turkey": ["A Bul", "A Arm", "F Ank"],
}.items()}


async def _deadline(table: MailTable, after: timedelta) -> None:
    """Let `after` pass and the tick act (the inbox read first, as a running service does)."""
    table.clock.advance(after)
    await table.run()
    tick(table.db, config=table.config, clock=table.clock)
    await table.run()


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _played(database: Database, tmp_path: Path) -> MailTable:
    """Game `rec`: Spring 1901 ordered in time by all but Italy (missed at the deadline); in
    Fall 1901 France's orders arrive in the grace period (late) and Italy is REPLACEd by the
    stand-in, who orders in time."""
    table = seven_powers(database, tmp_path, "rec")
    await table.start("standard", "SET GRACE 24h")
    await table.orders({p: o for p, o in SPRING_1901.items() if p != "Italy"})
    await _deadline(table, timedelta(hours=73))  # the deadline, and no orders from Italy
    await _deadline(table, timedelta(hours=24))  # the grace period ends: Spring processed
    await table.gm(f"SIGNON GM rec gmpass\nREPLACE Italy {STAND_IN} pwstandin")
    await table.send(STAND_IN, "SIGNON Italy rec pwstandin\nA Ven H\nA Apu H\nF ION H")
    await table.orders({p: o for p, o in FALL_HOLDS.items() if p not in ("France", "Italy")})
    await _deadline(table, timedelta(hours=73))  # the deadline passes: France is late
    await table.signed("France", *FALL_HOLDS["France"])
    await _deadline(table, timedelta(hours=24))  # the grace period ends: Fall processed
    return table


async def test_record_counts_phases_in_time_late_missed_and_seats_left_and_taken(
        database: Database, tmp_path: Path) -> None:
    table = await _played(database, tmp_path)
    england = _flat(await table.answer("England", "RECORD"))
    assert ("Your record on this server: england@example.org: 1 game (1 under way); 2 phases "
            "to order: 2 in time, 0 late, 0 missed (100% in time).") in england
    assert "rec (England): 2 phases, 2 in time, 0 late, 0 missed; under way" in england
    france = _flat(await table.answer("France", "RECORD"))
    assert "2 phases to order: 1 in time, 1 late, 0 missed (50% in time)." in france
    # Italy's first player missed Spring 1901 and lost the seat to the GM's REPLACE
    italy = _flat(text_of(await table.send(PLAYERS["Italy"], "RECORD")))
    assert ("italy@example.org: 1 game (1 abandoned); 1 phase to order: 0 in time, 0 late, "
            "1 missed (0% in time).") in italy
    assert "rec (Italy): 1 phase, 0 in time, 0 late, 1 missed; abandoned" in italy
    stand_in = _flat(text_of(await table.send(STAND_IN, "RECORD")))
    assert ("standin@example.org: 1 game (1 under way); 1 replacement taken; 1 phase to "
            "order: 1 in time, 0 late, 0 missed (100% in time).") in stand_in
    assert "rec (Italy, 1 taken over)" in stand_in
    nobody = _flat(text_of(await table.send(NEWCOMER, "RECORD")))
    assert "newcomer@example.org: no game on this server yet." in nobody
    # the GM's SUMMARY shows every present player's record
    summary = _flat(text_of(await table.send(GM, "SIGNON GM rec gmpass\nSUMMARY rec")))
    assert "The players' records on this server (RECORD; shown to the GM only):" in summary
    assert "france@example.org: 1 game (1 under way); 2 phases to order: 1 in time" in summary
    assert "standin@example.org: 1 game (1 under way); 1 replacement taken" in summary
    # a player's SUMMARY does not
    assert "records on this server" not in await table.answer("England", "SUMMARY rec")


async def test_the_gm_sees_the_record_on_join_and_standby_and_may_require_a_minimum(
        database: Database, tmp_path: Path) -> None:
    table = await _played(database, tmp_path)
    table.new_mail()
    reply = _flat(await table.answer("England", "STANDBY rec"))
    assert "You stand by for rec" not in reply  # a player of the game already
    await table.send(PLAYERS["Italy"], "STANDBY rec")
    told = _flat(table.new_mail()[GM][-1])
    assert "italy@example.org stands by for rec" in told
    assert ("Record: italy@example.org: 1 game (1 abandoned); 1 phase to order: 0 in time, 0 "
            "late, 1 missed (0% in time).") in told
    # a new game asks for 80% of phases in time
    reply = _flat(text_of(await table.send(GM, "CREATE next standard gmpass2\n"
                                                "SET JOIN ONTIME 80%")))
    assert ("To JOIN next a player must have ordered at least 80% of their phases on this "
            "server in time (RECORD shows a player's); a player with no phase yet may "
            "join.") in reply
    bad = _flat(text_of(await table.send(GM, "SIGNON GM next gmpass2\nSET JOIN ONTIME 120%")))
    assert ("SET JOIN 'ONTIME 120%' is not a minimum to join; give SET JOIN ONTIME 80% (or "
            "any share from 1% to 100%) or SET JOIN ANYONE") in bad
    refused = _flat(text_of(await table.send(PLAYERS["France"], "JOIN next pwnext")))
    assert ("JOIN: refused, the GM of next takes players who ordered at least 80% of their "
            "phases in time (SET JOIN ONTIME); your record: 50% (1 of 2). RECORD shows it "
            "whole.") in refused
    refused = _flat(text_of(await table.send(PLAYERS["Italy"],
                                             "JOIN next pwnext PREFER Italy")))
    assert "JOIN: refused, the GM of next takes players who ordered at least 80%" in refused
    table.new_mail()
    joined = _flat(text_of(await table.send(PLAYERS["England"], "JOIN next pwnext")))
    assert "You joined next as" in joined
    told = _flat(table.new_mail()[GM][-1])
    assert ("Record: england@example.org: 1 game (1 under way); 2 phases to order: 2 in time, "
            "0 late, 0 missed (100% in time).") in told
    assert "You joined next as" in text_of(await table.send(NEWCOMER, "JOIN next pwnext"))
    # SET JOIN ANYONE lifts it
    await table.send(GM, "SIGNON GM next gmpass2\nSET JOIN ANYONE")
    assert "You joined next as" in text_of(
        await table.send(PLAYERS["France"], "JOIN next pwnext"))


async def test_a_quiet_game_counts_without_being_named(database: Database,
                                                      tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "hush")
    await table.start("standard", "SET QUIET")
    await table.orders(SPRING_1901)
    await table.gm("SIGNON GM hush gmpass\nPROCESS")
    england = _flat(await table.answer("England", "RECORD"))
    assert ("england@example.org: 1 game (1 under way); 1 phase to order: 1 in time, 0 late, "
            "0 missed (100% in time).") in england
    assert "1 quiet game, counted above but not named" in england
    assert "hush" not in england.replace("Signed on as England in hush.", "")
