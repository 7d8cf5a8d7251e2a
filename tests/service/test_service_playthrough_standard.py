"""A Standard game by email over two years as its players see it, through the real Maildir
source and sink, service, store, tick and adjudicator, in a game on Paris time: orders in
players' spellings, private press, deadlines passing by the clock, a dislodgement with its
retreat options, a retreat, builds, and late orders told of the deadline once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from gm.service.tick import tick
from gm.store.db import Database
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import PLAYERS

pytestmark = pytest.mark.postgresql_too  # a whole game, as production runs it


async def _deadline(table: MailTable) -> dict[str, list[str]]:
    """Let the phase's deadline pass and the tick adjudicate it; the mail sent."""
    table.clock.advance(timedelta(days=4))
    await table.run()  # the running service reads its inbox, as it does all the time
    tick(table.db, config=table.config, clock=table.clock)
    await table.run()
    return table.new_mail()


def _reply(mail: dict[str, list[str]], power: str) -> str:
    """The reply to the power's orders."""
    replies = [t for t in mail[PLAYERS[power]] if "Re: orders" in t.splitlines()[0]]
    assert len(replies) == 1, (power, mail[PLAYERS[power]])
    return replies[0]


def _results(mail: dict[str, list[str]], power: str) -> str:
    return next(t for t in mail[PLAYERS[power]] if ": results" in t.splitlines()[0])


async def test_standard_two_years_on_paris_time(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "g")
    await table.start("standard")
    await table.gm("SIGNON GM g gmpass\nSET TIMEZONE Europe/Paris")
    table.new_mail()

    await table.orders({
        "France": ["A Paris - Burgundy", "a mar-spa", "F bre - mid atlantic ocean"],
        "Germany": ["A Mun-Ruh, A Ber - Kie", "F Kie - Den"],
        "England": ["PRESS TO France", "Shall we talk about the Channel?", "ENDPRESS",
                    "f lon -  eng"],
    })
    mail = table.new_mail()
    assert "A Paris - Burgundy  ->  A Par - Bur" in _reply(mail, "France")
    assert "F bre - mid atlantic ocean  ->  F Bre - MAO" in _reply(mail, "France")
    assert "  A Mun - Ruh  ->  A Mun - Ruh\n  A Ber - Kie  ->  A Ber - Kie" in \
        _reply(mail, "Germany")
    mail = await _deadline(table)
    report = _results(mail, "France")
    # the game's time and UTC; press only to those it was for
    assert "Next phase: Fall 1901, Movement, deadline Sun 2026-03-08 13:00 CET (12:00 UTC)." \
        in report, report
    assert "Shall we talk about the Channel?" in report
    assert "Shall we talk about the Channel?" not in _results(mail, "Germany")
    assert "A Par - Bur  (succeeds: moves to Bur)" in report

    await table.orders({"Germany": ["A Kie - Mun", "A Ruh H", "F Den - Swe"],
                        "France": ["A Bur H", "A Spa - Por", "F MAO - Spa(sc)"]})
    report = _results(await _deadline(table), "France")
    for line in ("F MAO - Spa/sc  (succeeds: moves to Spa/sc)", "France takes Por.",
                 "France:       5 centres,  3 units; builds 2 (sites: Bre, Mar, Par)",
                 "Orders are due from: France, Germany."):
        assert line in report, (line, report)

    await table.orders({"France": ["Build A Paris"], "Germany": ["build f berlin"]})
    assert "Build A Paris  ->  Build A Par" in _reply(table.new_mail(), "France")
    report = _results(await _deadline(table), "France")
    assert "Build A Par  (succeeds: builds A Par)" in report, report
    assert "Waive  (succeeds: no order: build waived)" in report

    # Spring 1902: A Bur is dislodged; the report gives its retreats
    await table.orders({"Germany": ["A Ruh - Bur", "A Mun S A Ruh - Bur"],
                        "France": ["A Bur H"]})
    report = _results(await _deadline(table), "France")
    for line in ("A Bur H  (fails: dislodged by A Ruh (Germany))",
                 "A Ruh - Bur  (succeeds: moves to Bur, dislodging A Bur)",
                 "France A Bur (attacked from Ruh): may retreat to Bel, Gas, Mar, Pic, or "
                 "disband.",
                 "Next phase: Spring 1902, Retreat, deadline Wed 2026-03-18 13:00 CET (12:00 UTC)",
                 "Orders are due from: France."):
        assert line in report, (line, report)
    # the retreat, written two ways: the later one stands
    await table.orders({"France": ["A Bur - Pic", "a bur retreat to gascony"]})
    france = _reply(table.new_mail(), "France")
    assert "a bur retreat to gascony  ->  A Bur R Gas" in france, france
    report = _results(await _deadline(table), "France")
    assert "A Bur R Gas  (succeeds: retreats to Gas)" in report, report

    # Fall 1902 orders after the deadline: the deadline is said once
    table.clock.advance(timedelta(days=4))
    await table.orders({"France": ["A Gas - Bur", "A Par - Pic"]})
    france = _reply(table.new_mail(), "France")
    passed = "the deadline (Tue 2026-03-24 13:00:00 CET (12:00:00 UTC)) has passed"
    assert france.count(passed) == 1, france
    assert '"A Par - Pic": refused, too late.' in france, france
