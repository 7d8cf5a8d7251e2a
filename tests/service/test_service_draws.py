"""Draw votes and concessions by mail through the real service (MailTable: Maildir in and out,
`Service.once`, the GM's PROCESS), on SQLite and PostgreSQL, by njudge's rules (its help file
`draws`, transcribed in gm.play.votes): votes hold for one phase only and the phase report
says so; DIAS by default; SET NODIAS with its subset rule and power letters."""

from __future__ import annotations

from pathlib import Path

from gm.store import games as games_repo
from gm.store.db import Database
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import GM, PLAYERS, SPRING_1901, text_of

SIX = ["Austria", "England", "France", "Germany", "Italy", "Russia"]


def _status(db: Database, name: str) -> str:
    with db.read() as s:
        game = games_repo.find_game(s, name)
        assert game is not None
        return game.status.value


async def _report_of(table: MailTable, address: str) -> str:
    """PROCESS the phase; the results report `address` receives."""
    table.new_mail()
    await table.gm(f"SIGNON GM {table.game} gmpass\nPROCESS")
    return next(t for t in table.new_mail()[address] if ": results" in t.splitlines()[0])


async def test_draw_votes_lapse_at_the_end_of_the_phase(database: Database,
                                                        tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "lapse")
    await table.start("standard")
    await table.orders(SPRING_1901)
    await table.process()  # Fall 1901 opens
    for power in SIX:
        reply = await table.answer(power, "SET DRAW")
        assert (f"{power} votes for a draw. The vote holds for Fall 1901, Movement only: votes "
                "lapse when a phase is processed.") in reply
    assert "Italy concedes the game to Turkey." in await table.answer(
        "Italy", "SET CONCEDE Turkey")
    england = " ".join((await table.process()).split())  # Winter 1901 opens
    assert ("Your draw vote (SET DRAW) of Fall 1901, Movement lapsed with the phase: draw "
            "votes and concessions hold for one phase only. Send it again in Winter 1901, "
            "Adjustment to keep it.") in england
    # the seventh vote comes in Winter 1901: the six of Fall 1901 count no more
    reply = await table.answer("Turkey", "SET DRAW")
    assert "Turkey votes for a draw." in reply and "ends in a draw" not in reply
    assert _status(database, "lapse") == "active"
    # the six vote again in Winter 1901: the last vote ends the game in a draw
    for power in SIX[:-1]:
        assert "ends in a draw" not in await table.answer(power, "SET DRAW")
    reply = await table.answer("Russia", "SET DRAW")
    assert ("Every surviving power has voted for a draw: lapse ends in a draw shared by "
            "Austria, England, France, Germany, Italy, Russia, Turkey.") in reply
    assert _status(database, "lapse") == "finished"


async def test_the_report_tells_each_voter_and_the_gm(database: Database,
                                                      tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "told")
    await table.start("standard")
    await table.answer("France", "SET DRAW")
    await table.answer("Italy", "SET CONCEDE Turkey")
    await table.orders(SPRING_1901)
    table.new_mail()
    await table.gm("SIGNON GM told gmpass\nPROCESS")
    mail = table.new_mail()

    def report(address: str) -> str:
        text = next(t for t in mail[address] if ": results" in t.splitlines()[0])
        return " ".join(text.split())

    assert "Your draw vote (SET DRAW) of Spring 1901, Movement lapsed" in report(
        PLAYERS["France"])
    assert ("Your concession (SET CONCEDE Turkey) of Spring 1901, Movement lapsed with the "
            "phase") in report(PLAYERS["Italy"])
    assert "lapsed" not in report(PLAYERS["Germany"])  # it cast no vote
    assert ("GM: Votes that lapsed with the phase: France (SET DRAW), Italy (SET CONCEDE "
            "Turkey).") in report(GM)
    # the concession counts no more either
    for power in ("Austria", "England", "France", "Germany", "Russia"):
        await table.answer(power, "SET CONCEDE Turkey")
    assert _status(database, "told") == "active"
    assert "ends with Turkey the winner" in await table.answer("Italy", "SET CONCEDE Turkey")


async def _three_survivors_vote(table: MailTable) -> None:
    """A game whose voters are Austria, England and France: the others in civil disorder
    (they survive, have no vote and are in no draw these three do not name)."""
    await table.start("standard", "SET NODIAS")
    for power in ("Germany", "Italy", "Russia", "Turkey"):
        await table.gm(f"SIGNON GM {table.game} gmpass\nEJECT {power}")


async def test_nodias_draws_by_the_njudge_examples(database: Database,
                                                   tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "nodias")
    await _three_survivors_vote(table)
    # France: SET DRAW AEF, England: SET DRAW AE, Austria: SET DRAW AE: no draw (Austria and
    # England will not include France, who will not leave himself out)
    assert "France votes for a draw among Austria, England, France." in await table.answer(
        "France", "SET DRAW AEF")
    assert "England votes for a draw among Austria, England." in await table.answer(
        "England", "SET DRAW AE")
    reply = await table.answer("Austria", "SET DRAW Austria, England")
    assert "Austria votes for a draw among Austria, England." in reply
    assert "ends in a draw" not in reply and _status(database, "nodias") == "active"
    # France: SET DRAW AE, England: SET DRAW AEF, Austria: SET DRAW AE: a two-way draw of
    # Austria and England (France accepted a draw without him)
    await table.answer("England", "SET DRAW AEF")
    reply = await table.answer("France", "SET DRAW AE")
    assert "nodias ends in a draw shared by Austria, England." in reply
    assert _status(database, "nodias") == "finished"


async def test_nodias_one_power_draw_is_a_concession(database: Database,
                                                      tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "solo")
    await _three_survivors_vote(table)
    # France: SET DRAW A, England: SET DRAW A, Austria: SET NO DRAW: a concession to Austria
    await table.answer("France", "SET DRAW A")
    await table.answer("England", "SET DRAW Austrian")
    assert "SET CONCEDE Austria: refused, solo is NoDIAS: concede with a draw of that power " \
           "alone, SET DRAW Austria." in await table.answer("England", "SET CONCEDE Austria")
    reply = await table.answer("Austria", "SET NO DRAW")
    assert ("Austria does not vote for a draw (in this NoDIAS game that approves only a "
            "concession to Austria") in reply
    assert "Every other surviving power has conceded: solo ends with Austria the winner." \
        in reply
    assert _status(database, "solo") == "finished"


async def test_draw_lists_are_read_and_refused_with_the_forms(database: Database,
                                                             tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "lists")
    await table.start("standard")
    # DIAS: a list naming every survivor is SET DRAW; fewer are refused
    assert "France votes for a draw. The vote" in await table.answer("France", "SET DRAW AEFGIRT")
    await table.gm("SIGNON GM lists gmpass\nSET NODIAS")
    reply = await table.answer("France", "SET DRAW AEQ")
    assert ("SET DRAW AEQ: refused, AEQ is not a power of lists; name surviving powers: "
            "Austria, England, France, Germany, Italy, Russia, Turkey.") in reply
    reply = await table.answer("France", "SET DRAW F T")
    assert "France votes for a draw among France, Turkey." in reply
    out = await table.send(GM, "SIGNON GM lists gmpass\nSET DIAS")
    assert "lists is DIAS: a draw includes every surviving power" in text_of(out)
    assert "refused, lists is DIAS" in await table.answer("Turkey", "SET DRAW FT")
    out = await table.send(PLAYERS["France"], "SIGNON France lists pwfrance\nSET NODIAS")
    assert "SET NODIAS: refused, only the game's GM may do this" in text_of(out)
    out = await table.send(GM, "HELP SET")
    assert "approves AEG, AE, AG and A" in " ".join(text_of(out).split())
