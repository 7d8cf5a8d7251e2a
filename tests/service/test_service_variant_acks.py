"""Every order gets, in the acknowledgement, the legality verdict adjudication will give it: the
variants' own orders (Deluge II transforms, rule 2; Abstraction2 boardings and landings, rule 3,
and exchanges, rule 6) through the real Maildir service; a line of orders whose first order is
refused is refused whole."""

from __future__ import annotations

from pathlib import Path

from gm.store.db import Database
from tests.support.mail_table import seven_powers


async def test_deluge2_transforms_are_judged_on_arrival(database: Database,
                                                         tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "flood")
    await table.start("Deluge II")
    await table.answer("France", "Build A Par", "Build F Bre", "Build A Mar")
    await table.answer("Germany", "Build A Mun")
    await table.process()
    assert str(table.state().phase) == "Spring 1901, Movement"
    reply = await table.answer("France", "A Par - Bur", "A Bur transforms", "F Bre transforms",
                               "A Mar transforms")
    assert '"A Bur transforms": refused, France has no unit to order in Bur.' in reply
    assert ('"F Bre transforms": refused, only an army can transform into a fleet; F Bre is '
            "not an army") in reply
    assert "A Mar transforms  ->  A Mar transforms" in reply
    reply = await table.answer("France", "A Par transforms")  # Paris is inland
    assert ('"A Par transforms": refused, Par is not a coastal province: an army there cannot '
            "become a fleet") in reply
    # the verdicts are those of adjudication: what was accepted is carried out
    report = await table.process()
    assert "A Mar transforms" in report
    fleets = sorted(str(u) for u in table.state().units_of("France"))
    assert fleets == ["A Bur", "F Bre", "F Mar"]


async def test_abstraction2_chains_and_exchanges_are_judged_on_arrival(
        database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "abs")
    await table.start("abstraction2")
    reply = await table.answer("France", "A(Par) boards F(Bre), A/F(Bre)-MAO, A disembarks Por")
    assert "A Par boards F Bre: refused, F Bre is not at sea" in reply
    assert ("A/F Bre - MAO: refused with the first order of its line (A Par boards F Bre)"
            in reply)
    assert "disembarks Por: refused with the first order of its line" in reply
    assert "  ->  " not in reply  # nothing of the chain was taken
    assert "Orders of France for July 1914, Movement:\n  (none)" in reply
    # a line of unrelated orders is not a chain: the second stands alone
    reply = await table.answer("France", "A Par - Bur, F Bre - MAO")
    assert "A Par - Bur: refused" in reply and "F Bre - MAO  ->  F Bre - MAO" in reply
    reply = await table.answer("France", "A Lyo - Bre, F Bre - MAO")  # the unit moved onto
    assert "A Lyo - Bre: refused" in reply and "F Bre - MAO  ->  F Bre - MAO" in reply
    # exchanges: what can be judged now is; vacating the centre is judged after the moves
    reply = await table.answer("France", "Exchange Par for Ber with Gerany",
                               "Exchange Mun for Ber with Germany",
                               "Exchange Par for Ber with Germany")
    assert '"Exchange Par for Ber with Gerany": refused, there is no power called Gerany.' \
        in reply
    assert '"Exchange Mun for Ber with Germany": refused, France does not own Mun.' in reply
    assert "Exchange Par for Ber with Germany  ->  Exchange Par for Ber with Germany" in reply
    reply = await table.answer("France", "Exchange Par for Mun with Germany")
    # the later exchange with Germany replaces the earlier, as adjudication would
    listed = reply.split("Orders of France")[1]
    assert listed.count("Exchange") == 1 and "  Exchange Par for Mun with Germany\n" in listed
