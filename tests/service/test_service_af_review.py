"""A/F units by email (Abstraction2 rule 3; Deluge II rule 8), through the real Maildir source
and sink and the real service: the reply to a player's orders lists the power's units, A/Fs
included, and those still without orders; a wrong A/F order is refused, quoted, with the
reason; `Build A/F` is refused; the adjustment reply counts an A/F as two units."""

from __future__ import annotations

import re
from pathlib import Path

from gm.store.db import Database
from tests.support.mail_table import seven_powers


async def test_abstraction2_af_orders_by_mail(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "floes")
    await table.start("Abstraction2")
    # July 1914: the fleet of Plymouth to the Irish Sea, Edinburgh's to the North Sea.
    await table.answer("England", "F(Ply) - IRI", "F(Edi) - NTH")
    await table.process()

    # August 1914 (Abstraction2 rule 3): the army boards, as the seed writes it; the reply lists
    # the units still without orders.
    reply = await table.answer("England", "A Lvp boards F ENG", "A Lvp boards F NTH")
    assert '"A Lvp boards F ENG": refused, no fleet in ENG' in reply  # checked on receipt
    assert '"A Lvp boards F NTH": refused, A Lvp cannot board F NTH: not adjacent' in reply
    reply = await table.answer("England", "A(Lvp) boards F(IRI)", "F(NTH) - Nwy")
    assert "A(Lvp) boards F(IRI)  ->  A Lvp boards F IRI" in reply
    assert "Units without orders: F IRI, F Lon." in reply
    report = await table.process()
    assert re.search(r"England: +5 centres, +4 units", report)  # the A/F counts two (rule 3)
    state = table.state()
    assert str(state.phase) == "September 1914, Adjustment"
    assert sorted(str(u) for u in state.units_of("England")) == ["A/F IRI", "F Lon", "F Nwy"]

    # September 1914: five centres, the A/F counts two (rule 3): one build. An A/F is never
    # built; the refusal quotes the order and says what to do.
    reply = await table.answer("England", "Build A/F Lvp", "Build A(Lvp)")
    assert ('"Build A/F Lvp": refused, an A/F cannot be built: build an army or a fleet'
            in reply)
    assert "Build A(Lvp)  ->  Build A Lvp" in reply
    assert "Builds ordered: 1 of 1." in reply
    await table.process()
    assert str(table.state().phase) == "October 1914, Movement"

    # October 1914: wrong A/F orders are refused with the order quoted and the reason; the
    # landing is accepted; the reply lists the A/F among the units and who still has no order.
    reply = await table.answer("England", "A/F(IRI) - Wal", "A/F IRI FF A Lvp - Wal",
                               "A/F ENG - MAO", "A/F(IRI) disembarks A(Wal)")
    assert ('"A/F(IRI) - Wal": refused, A/F IRI cannot move to Wal: an A/F never enters a '
            'coastal province' in reply)
    assert '"A/F IRI FF A Lvp - Wal": refused, A/F IRI cannot convoy: an A/F may not Fast ' \
        'Ferry' in reply
    assert '"A/F ENG - MAO": refused, England has no unit to order in ENG.' in reply
    assert "A/F(IRI) disembarks A(Wal)  ->  A/F IRI disembarks Wal" in reply
    assert "Units without orders: A Lvp, F Lon, F Nwy." in reply
    reply = await table.answer("England", "army liverpool holds", "F(Lon) - ENG",
                               "f nwy - nth", "A/F Irish Sea - Mid-Atlantic Ocean",
                               "A disembarks Por")
    assert "A/F Irish Sea - Mid-Atlantic Ocean  ->  A/F IRI - MAO" in reply
    # The seed's `A disembarks Por` alone on a line names no A/F: the reply says how to.
    assert '"A disembarks Por": say which A/F the army leaves, e.g. `A/F MAO disembarks Por`' \
        in reply
    assert "Units without orders: none." in reply
    await table.process()
    # The landing from IRI is simultaneous with the fleet's move (rule 3, Disembarkation).
    state = table.state()
    assert sorted(str(u) for u in state.units_of("England")) == [
        "A Lvp", "A Wal", "F ENG", "F MAO", "F NTH"]


async def test_deluge2_af_removal_by_mail(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "ark")
    await table.start("Deluge II")
    await table.answer("Germany", "Build F(Kie)", "Build A(Ber)", "Build A(Mun)")
    # Deluge II rule 1 as the rule text writes it: `F(StP)nc`.
    reply = await table.answer("Russia", "Build A War", "Build F(StP)nc")
    assert "Build F(StP)nc  ->  Build F StP/nc" in reply
    await table.answer("Austria", "Build A Vie")
    await table.process()
    assert str(table.state().phase) == "Spring 1901, Movement"
    await table.answer("Germany", "F Kie - HEL", "A Ber - Kie", "A Mun - Ruh")
    await table.answer("Russia", "A War - Sil")
    await table.answer("Austria", "A Vie - Boh")
    await table.process()
    # Fall 1901 (Deluge II rule 8): the army boards; Russia and Austria take Berlin and Munich.
    reply = await table.answer("Germany", "A(Kie) boards F(HEL)")
    assert "Units without orders: A Ruh, F HEL." in reply
    await table.answer("Russia", "A Sil - Ber")
    await table.answer("Austria", "A Boh - Mun")
    await table.process()
    state = table.state()
    assert str(state.phase) == "Winter 1901, Adjustment"
    assert sorted(str(u) for u in state.units_of("Germany")) == ["A Ruh", "A/F HEL"]
    # One centre (Kiel) for three units, the A/F counting two: removing it covers both.
    reply = await table.answer("Germany", "Build A/F Kie", "Remove A/F(HEL)")
    assert '"Build A/F Kie": refused, Germany has no builds this phase.' in reply
    assert "Remove A/F(HEL)  ->  Remove A/F HEL" in reply
    assert "Removals ordered: 2 of 2." in reply
    await table.process()
    state = table.state()
    assert str(state.phase) == "Spring 1902, Movement"
    assert [str(u) for u in state.units_of("Germany")] == ["A Ruh"]
