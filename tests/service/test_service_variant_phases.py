"""Geophysical and Sahara games by email across phase transitions, through the real Maildir
source and sink, service, store and adjudicator: replies list the orders as understood (seed
spellings: `Support TURKISH Erode Mos`, `F(BUR) C A(Bel)-Mar`, full names, lower case), a wrong
terrain order is answered with a clear error quoting it, reports say what the map did, and the
Winter after an Autumn's events is played on the changed map (Geophysical rules 1-4, 7, 9;
Sahara rules 2, 3 and 5)."""

from __future__ import annotations

from pathlib import Path

from gm.store.db import Database
from tests.support.mail_table import seven_powers
from tests.support.service_support import (
    PLAYERS,
)


def _reply(mail: dict[str, list[str]], power: str) -> str:
    replies = [t for t in mail[PLAYERS[power]] if ": results" not in t.splitlines()[0]]
    assert len(replies) == 1, (power, mail[PLAYERS[power]])
    return replies[0]


async def test_geophysical_autumn_events_then_winter_by_email(
    database: Database, tmp_path: Path
) -> None:
    table = seven_powers(database, tmp_path, "geophases")
    await table.start("Geophysical")
    table.new_mail()

    # Spring 1901, written as the seed writes orders; three wrong terrain orders.
    await table.orders({
        "Turkey": ["Erode Mos", "A Con - Bul", "A Smy - Arm", "F Ank - BLA"],
        "Austria": ["Support TURKISH Erode Mos", "A Vie - Tyr", "A Bud - Ser", "F Tri - Alb"],
        "Russia": ["2 Stabilise Moscow", "A Mos - StP", "A War - Gal", "F Sev - Rum",
                   "F StP/sc - BOT"],
        "France": ["create supply center Burgundy", "A Par - Bur", "A Mar - Spa",
                   "F Bre - ENG"],
        "England": ["Uplift Mos", "F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
        "Germany": ["Ice advance Mun", "A Mun - Ruh", "A Ber - Kie", "F Kie - Hol"],
        "Italy": ["Erode Xyz", "A Ven - Pie", "A Rom - Apu", "F Nap - ION"],
    })
    mail = table.new_mail()
    # The replies: orders as understood; a wrong terrain order refused, quoted, with the reason
    # (Geophysical rule 2: judged on the map as it stands).
    england = _reply(mail, "England")
    assert '"Uplift Mos": refused, uplift raises a sea or lake; Mos is land.' in england, england
    germany = _reply(mail, "Germany")
    assert ('"Ice advance Mun": refused, ice advances only into a space bordering the polar ice '
            "or an iced space; Mun borders neither.") in germany, germany
    italy = _reply(mail, "Italy")
    assert 'Unknown province "Xyz" in "Erode Xyz"' in italy, italy
    assert "2 Stabilise Moscow  ->  2 Stabilize Mos" in _reply(mail, "Russia")
    assert "create supply center Burgundy  ->  Create centre Bur" in _reply(mail, "France")
    report = await table.process()
    assert "Erode Mos  (fails: strength 2 against 2 stabilisations: no change)" in report, report
    assert "Burgundy becomes a (neutral) supply centre." in report
    assert "Uplift Mos" not in report

    # Fall 1901, with the seed's `ENGLAND : Erode ...` lines: Picardy and Gascony sink (Paris
    # gets two coasts), Bohemia becomes a lake (Munich is on its coast), Naples sinks (Italy's
    # centre is downgraded: Italy must remove).
    await table.orders({
        "England": ["ENGLAND : Erode Picardy", "F NTH - Den", "F NWG - Nwy", "A Yor - Lon"],
        "France": ["FRANCE : Erode Gas", "A Bur H", "A Spa H", "F ENG - Bre"],
        "Germany": ["Erode Boh", "A Kie - Den", "A Ruh - Bel", "F Hol H"],
        "Austria": ["Support GERMAN Erode Boh", "A Tyr H", "A Ser H", "F Alb - Gre"],
        "Turkey": ["TURKEY: Erode Nap", "RUSSIA : Erode Sev", "A Bul H", "A Arm H", "F BLA H"],
    })
    mail = table.new_mail()
    assert "ENGLAND : Erode Picardy  ->  Erode Pic" in _reply(mail, "England")
    turkey = _reply(mail, "Turkey")
    assert '"RUSSIA : Erode Sev": refused, you are signed on as Turkey.' in turkey, turkey
    report = await table.process()
    for line in ("Erode PIC  (succeeds", "Erode GAS  (succeeds", "Erode BOH  (succeeds",
                 "Picardy (PIC) becomes sea.", "Bohemia (BOH) becomes a lake.",
                 "Naples is no longer a supply centre: it is under water.",
                 "Italy:        2 centres,  3 units; removes 1",
                 "France:       5 centres,  3 units; builds 2 (sites: Mar, Par)",
                 "Germany:      5 centres,  3 units; builds 2 (sites: Ber, Mun)"):
        assert line in report, (line, report)
    assert str(table.state().phase) == "Winter 1901, Adjustment"

    # Winter 1901 on the changed map: `Build F Par` is ambiguous now (rule 9: coasts must be
    # named), the named coast is built; a fleet is built in Munich on the Bohemian lake's coast
    # (rule 9); Italy sends nothing and loses a unit in civil disorder.
    await table.orders({
        "France": ["Build F Par", "Build F Paris/sc"],
        "Germany": ["Build F Munich", "build a ber"],
    })
    mail = table.new_mail()
    france = _reply(mail, "France")
    assert '"Build F Par": refused, Build F Par: say which coast, Par/nc or Par/sc' in france, \
        france
    assert "Build F Paris/sc  ->  Build F Par/sc" in france
    assert "Build F Munich  ->  Build F Mun" in _reply(mail, "Germany")
    report = await table.process()
    assert "Build F Par/sc  (succeeds: builds F Par/sc)" in report, report
    assert "Build F Mun  (succeeds: builds F Mun)" in report
    assert "no order: removed by civil disorder" in report
    state = table.state()
    assert str(state.phase) == "Spring 1902, Movement"
    assert str(state.unit_in("Par")) == "F Par/sc" and str(state.unit_in("Mun")) == "F Mun"
    assert sum(u.power == "Italy" for u in state.units) == 2

    # Spring 1902 in the rule 9 style: `F(Par/sc)-GAS`, `A(Bur)-Mar`.
    await table.orders({"France": ["F(Par/sc)-GAS", "A(Bur)-Mar"]})
    france = _reply(table.new_mail(), "France")
    assert "F(Par/sc)-GAS  ->  F Par/sc - GAS" in france, france
    assert "A(Bur)-Mar  ->  A Bur - Mar" in france
    report = await table.process()
    assert "F Par/sc - GAS  (succeeds" in report, report


async def test_sahara_autumn_1902_by_email(database: Database, tmp_path: Path) -> None:
    """Sahara rule 2 by email over two years: the Ionian and the Eastern Mediterranean dry up
    after the Autumn 1902 moves; the Italian fleet left on the dried Ionian stays a fleet; the
    Turkish fleet that moved into Syria, stranded inland, is disbanded as its `no change` order
    (given with its moves, in lower case) asked; the report says what the map did."""
    table = seven_powers(database, tmp_path, "dunes")
    await table.start("Sahara")
    table.new_mail()
    turns = [
        {"Turkey": ["F Ankara - Constantinople", "a con - bul"], "Italy": ["F Nap - ION"]},
        {"Turkey": ["f con - aeg"]},
        {"Turkey": ["F AEG - EMS"]},
    ]
    for orders in turns:
        await table.orders(orders)
        await table.process()
        if table.state().phase.type.value == "Adjustment":
            await table.process()  # Winter 1901: nobody orders, builds are waived
    state = table.state()
    assert str(state.phase) == "Fall 1902, Movement", state.phase
    await table.orders({"Turkey": ["F Eastern Mediterranean - Syria", "f ems no change"]})
    turkey = _reply(table.new_mail(), "Turkey")
    assert "f ems no change  ->  F EMS no change" in turkey, turkey
    report = await table.process()
    for line in ("The Ionian Sea dries up and becomes land.",
                 "The Eastern Mediterranean dries up and becomes land.",
                 "F ION (Italy) is left on a coast and stays a fleet.",
                 "F Syr (Turkey) is stranded inland and is disbanded, as Turkey ordered."):
        assert line in report, (line, report)
    state = table.state()
    assert state.unit_in("Syr") is None and str(state.unit_in("ION")) == "F ION"
    assert state.terrain["ION"].value == "land"
