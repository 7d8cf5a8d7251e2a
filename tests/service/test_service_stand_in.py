"""Stand-ins by mail through the real service (MailTable: Maildir in and out, `Service.once`,
the GM's PROCESS): SET STANDIN HOLD | DEFEND | REPEAT | BOT for the game, for one power and by
a player for their own power; ADD <power> BOT; what the reports say of a stand-in's orders."""

from __future__ import annotations

from pathlib import Path

from gm.engine.phase import PhaseType
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import GM, PLAYERS, SPRING_1901, text_of


def _without(power: str, orders: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: lines for p, lines in orders.items() if p != power}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _units(table: MailTable, power: str) -> set[str]:
    return {str(u) for u in table.state().units_of(power)}


async def test_hold_is_the_default_and_says_its_units_held(database: Database,
                                                           tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "sihold")
    await table.start("standard")
    reply = _flat(await table.answer("France", "SET STANDIN"))
    assert "SET STANDIN needs HOLD, DEFEND, REPEAT, BOT or DEFAULT" in reply
    await table.orders(_without("France", SPRING_1901))
    report = _flat(await table.process())
    assert "France sent no orders: its units held." in report
    assert "stand-in" not in report
    assert _units(table, "France") == {"A Par", "A Mar", "F Bre"}


async def test_defend_keeps_the_centres(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "sidefend")
    await table.start("standard")
    reply = _flat(text_of(await table.send(GM, "SIGNON GM sidefend gmpass\nSET STANDIN DEFEND")))
    assert ("Stand-in in sidefend for a power without orders at the deadline: DEFEND (its "
            "units keep its centres: holds and supports).") in reply
    await table.orders({**_without("France", SPRING_1901),
                        "Germany": ["A Ber - Kie", "A Mun - Bur", "F Kie - Den"],
                        "Italy": ["A Ven - Pie", "A Rom - Apu", "F Nap - ION"]})
    report = _flat(await table.process())
    assert ("France sent no orders: its stand-in (DEFEND) gave its orders (shown above)."
            in report)
    # Fall 1901: Germany in Bur and Italy in Pie threaten Par and Mar; France holds them,
    # each supporting the other where it can
    await table.orders(_without("France", {
        "Germany": ["A Bur - Par", "A Kie - Hol", "F Den H"],
        "Italy": ["A Pie - Mar", "A Apu H", "F ION H"]}))
    report = _flat(await table.process())
    assert "France sent no orders: its stand-in (DEFEND)" in report
    assert _units(table, "France") == {"A Par", "A Mar", "F Bre"}
    assert set(table.state().centres_of("France")) == {"Bre", "Mar", "Par"}


async def test_repeat_gives_the_last_movement_orders_again(database: Database,
                                                           tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "sirepeat")
    await table.start("standard", "SET STANDIN France REPEAT")
    await table.orders({**SPRING_1901, "Germany": ["A Ber - Kie", "A Mun - Bur", "F Kie - Den"]})
    await table.process()  # A Par - Bur bounced with A Mun - Bur; A Mar - Spa, F Bre - MAO
    assert _units(table, "France") == {"A Par", "A Spa", "F MAO"}
    await table.orders(_without("France", {
        "Germany": ["A Kie - Hol", "A Mun H", "F Den H"]}))
    report = _flat(await table.process())
    assert "France sent no orders: its stand-in (REPEAT) gave its orders (shown above)." \
        in report
    assert "A Par - Bur" in report.split("France sent no orders")[0]
    # the bounce is repeated and now succeeds; the units that moved have no order to repeat
    assert _units(table, "France") == {"A Bur", "A Spa", "F MAO"}


async def test_bot_for_one_power_moves_and_builds(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "sibot")
    await table.start("standard")
    reply = _flat(text_of(await table.send(GM, "SIGNON GM sibot gmpass\nSET STANDIN France BOT")))
    assert "Stand-in for France in sibot: BOT (the bot plays it)." in reply
    await table.orders(_without("France", SPRING_1901))
    report = _flat(await table.process())
    assert "France sent no orders: its stand-in (BOT) gave its orders (shown above)." in report
    assert _units(table, "France") != {"A Par", "A Mar", "F Bre"}
    await table.orders(_without("France", {}))
    await table.process()
    state = table.state()
    if state.phase.type is PhaseType.RETREAT:
        await table.process()
        state = table.state()
    owned = len(state.centres_of("France"))
    assert owned > 3  # a neutral centre taken in 1901
    await table.process()  # Winter 1901: the bot builds on its vacant home centres
    assert len(table.state().units_of("France")) == owned


async def test_a_player_chooses_the_bot_for_their_own_power(database: Database,
                                                            tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "siplayer")
    await table.start("standard")
    reply = _flat(await table.answer("France", "SET STANDIN BOT"))
    assert ("Stand-in for France in siplayer when you send no orders (while away, or late): "
            "BOT (the bot plays it).") in reply
    reply = _flat(await table.answer("France", "SET STANDIN Germany DEFEND"))
    assert "SET STANDIN Germany: refused, you play France" in reply
    await table.orders(_without("France", SPRING_1901))
    report = _flat(await table.process())
    assert "France sent no orders: its stand-in (BOT)" in report
    # the other players were not told of the choice
    assert not any("STANDIN" in t for t in table.new_mail().get(PLAYERS["England"], []))


async def test_the_gm_seats_the_bot(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "siseat")
    players = {p: a for p, a in PLAYERS.items() if p != "France"}
    gm_reply = _flat(text_of(await table.send(GM, "\n".join(
        ["CREATE siseat standard gmpass", "ADD France BOT"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in players.items()]
        + ["START"]))))
    assert "The bot plays France in siseat" in gm_reply
    assert "siseat has started" in gm_reply and "civil disorder" not in gm_reply
    await table.orders(_without("France", SPRING_1901))
    report = _flat(await table.process())
    assert "France sent no orders" not in report  # its orders were in, as a player's
    assert _units(table, "France") != {"A Par", "A Mar", "F Bre"}


async def test_a_quiet_game_shows_the_bot_as_a_player(database: Database,
                                                      tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "siquiet")
    players = {p: a for p, a in PLAYERS.items() if p != "France"}
    await table.send(GM, "\n".join(
        ["CREATE siquiet standard gmpass", "SET QUIET", "ADD France BOT"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in players.items()]
        + ["START"]))
    listed = _flat(await table.answer("England", "LIST siquiet"))
    assert "France: taken, playing" in listed
    summary = _flat(await table.answer("England", "SUMMARY siquiet"))
    assert "France: player 3 from the start" in summary and "bot" not in summary.lower()
    gm_summary = _flat(text_of(await table.send(GM, "SIGNON GM siquiet gmpass\nSUMMARY")))
    assert "the bot from the start" in gm_summary
    gm_list = _flat(text_of(await table.send(GM, "LIST siquiet")))
    assert "France: taken, playing" in gm_list  # the game is QUIET: LIST is everyone's
    await table.orders(_without("France", SPRING_1901))
    report = _flat(await table.process())
    assert "France sent no orders" not in report and "stand-in" not in report


async def test_an_absence_with_a_stand_in_moves_no_deadline(database: Database,
                                                            tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "siaway")
    await table.start("standard")
    reply = _flat(await table.answer(
        "France", "SET ABSENCE 2026-03-01 TO 2026-03-06 STANDIN MAYBE"))
    assert "STANDIN needs HOLD, DEFEND, REPEAT or BOT, not 'MAYBE'" in reply
    reply = _flat(await table.answer("France", "SET ABSENCE 2026-03-01 TO 2026-03-06 STANDIN BOT"))
    assert ("France is away from 2026-03-01 to 2026-03-06 in siaway (6 days of 14 claimed); "
            "no deadline moves: the stand-in (BOT) gives France's orders at each deadline "
            "within it that you have sent none for.") in reply
    await table.orders(_without("France", SPRING_1901))
    report = _flat(await table.process())
    assert "France sent no orders: its stand-in (BOT) gave its orders (shown above)." in report
    with database.read() as s:
        game = games_repo.find_game(s, "siaway")
        assert game is not None
        opened = phases_repo.current_phase(s, game.id)
        assert opened is not None and opened.deadline_at is not None
        # the Fall deadline falls within the absence and stays there
        assert opened.deadline_at.date().isoformat() <= "2026-03-06"


async def test_help_tells_of_the_stand_ins_and_the_bot(database: Database,
                                                       tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "sihelp")
    deadlines = _flat(text_of(await table.send("someone@example.org", "HELP DEADLINES")))
    assert "SET STANDIN HOLD|DEFEND|REPEAT|BOT who orders for a power without orders" \
        in deadlines
    assert "SET STANDIN <power> HOLD|DEFEND|REPEAT|BOT|DEFAULT" in deadlines
    gm_help = _flat(text_of(await table.send("someone@example.org", "HELP GM")))
    assert "ADD <power> BOT seat the bot" in gm_help
    player = _flat(text_of(await table.send("someone@example.org", "HELP SET")))
    assert "SET ABSENCE <from> TO <to> STANDIN HOLD|DEFEND|REPEAT|BOT" in player
