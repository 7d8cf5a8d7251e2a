"""An Abstraction2 game by email, through the real Maildir source and sink and the real service:
the GM creates it, players sign on and order (an exchange of centres, rule 6, and a boarding,
rule 3), the GM processes July and August 1914, and every player gets the reports."""

from __future__ import annotations

from pathlib import Path

from gm.config import Config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.service_support import (
    GM,
    PLAYERS,
    START,
    deliver,
    mail_by_recipient,
    maildir_config,
    message,
    service_pass,
    text_of,
)

GAME = "tundra"
SETUP = "\n".join(
    [f"CREATE {GAME} abstraction2 gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["START"]
)

# July 1914 (rule 1's starting units): Germany and Russia exchange Dresden for Warsaw (rule 6),
# both armies leaving; England's fleet goes to the Irish Sea for August's boarding (rule 3).
JULY_1914 = {
    "Austria": ["A Tyr - Swa", "A Pec - Ser", "A Vie H", "F Zar - ADS"],
    "England": ["F Edi - NTH", "F Lon - ENG", "A Lvp H", "F Ply - IRI"],
    "France": ["F Bre - BoB", "F Mar - GoL", "A Lyo - Bur", "A Par - Pic"],
    "Germany": ["A Ber H", "A Dre - Boh", "F Kie - Den", "A Mun - Ruh",
                "Exchange Dre for War with Russia"],
    "Italy": ["F Nap - ION", "A Rom - Apu", "F Sic - MAS", "A Ven - Pie"],
    "Russia": ["A Arc - Lap", "A Mos H", "F Ode - EBS", "F StP - Fin", "A War - Ukr",
               "Exchange War for Dre with Germany"],
    "Turkey": ["A Con - Bul", "F Dam - CYS", "F Sin - WBS", "A Smy - Cic"],
}
AUGUST_1914 = {"England": ["A Lvp boards F IRI", "F NTH - Nwy"]}


def _orders(power: str, lines: list[str]) -> bytes:
    body = "\n".join([f"SIGNON {power} {GAME} pw{power.lower()}", *lines])
    return message(PLAYERS[power], body, subject=f"{power} orders")


def _reports(config: Config, addr: str, phase: str) -> list[str]:
    mail = mail_by_recipient(config.maildir.outbox)
    subject = f"[{GAME}] {phase}: results"
    return [text_of(m) for m in mail[addr] if str(m["Subject"]) == subject]


async def test_an_abstraction2_game_by_mail(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    deliver(config.maildir.inbox, message(GM, SETUP))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]

    # July 1914: every power orders, the GM processes.
    for power, lines in JULY_1914.items():
        deliver(config.maildir.inbox, _orders(power, lines))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED] * 7
    replies = mail_by_recipient(config.maildir.outbox)
    for power, addr in PLAYERS.items():
        texts = [text_of(m) for m in replies[addr]]
        assert any("Units without orders: none." in t for t in texts), power
    deliver(config.maildir.inbox, message(GM, f"SIGNON GM {GAME} gmpass\nPROCESS"))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]

    for power, addr in PLAYERS.items():
        reports = _reports(config, addr, "July 1914, Movement")
        assert len(reports) == 1, power
        text = reports[0]
        assert "Next phase: August 1914, Movement" in text
        assert "A Arc - Lap" in text and "F Ply - IRI" in text
        assert "Exchange Dre for War with Russia" in text
        assert "Germany and Russia exchange centres" in text

    with database.read() as s:
        game = games_repo.find_game(s, GAME)
        assert game is not None
        state = phases_repo.history(s, game.id)[-1].state
    assert state.phase.season == "August" and state.phase.year == 1914
    assert state.owners["Dre"] == "Russia" and state.owners["War"] == "Germany"
    tyr = state.unit_in("Swa")
    assert tyr is not None and tyr.power == "Austria"

    # August 1914: England's army boards the fleet in the Irish Sea (rule 3); the others hold.
    for power, lines in AUGUST_1914.items():
        deliver(config.maildir.inbox, _orders(power, lines))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]
    deliver(config.maildir.inbox, message(GM, f"SIGNON GM {GAME} gmpass\nPROCESS"))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]

    text = _reports(config, PLAYERS["England"], "August 1914, Movement")[0]
    assert "A Lvp boards F IRI" in text and "A/F IRI" in text
    with database.read() as s:
        game = games_repo.find_game(s, GAME)
        assert game is not None
        state = phases_repo.history(s, game.id)[-1].state
    af = state.unit_in("IRI")
    assert af is not None and str(af) == "A/F IRI" and af.power == "England"
    assert state.unit_in("Lvp") is None
    # August's ownership update, then September's adjustments (RULINGS: Abstraction2).
    assert state.owners["Nwy"] == "England" and state.owners["Ser"] == "Austria"
    assert (state.phase.season, state.phase.type.value) == ("September", "Adjustment")


async def test_help_abstraction2_by_mail(database: Database, tmp_path: Path) -> None:
    # The variant's rules and rulings, for players (Variant.help): `HELP Abstraction II`.
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    deliver(config.maildir.inbox, message(PLAYERS["Russia"], "HELP Abstraction II"))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]
    mail = mail_by_recipient(config.maildir.outbox)[PLAYERS["Russia"]]
    text = "\n".join(text_of(m) for m in mail)
    assert "Frozen regions" in text and "Exchange Bel Den for Hol Kie with Germany" in text
    assert "A/F rules" in text
