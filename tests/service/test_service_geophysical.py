"""A Geophysical Diplomacy game by email: created, played with terrain events, reported.

Through the real Maildir source and sink, the real service, store and adjudicator; the report
lists the terrain events of the phase and their results (Geophysical rules 1-4, 9).
"""

from __future__ import annotations

from collections import defaultdict
from email.message import Message
from pathlib import Path

from gm.config import Config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.service_support import (
    GM,
    PLAYERS,
    START,
    deliver,
    maildir_config,
    message,
    read_mail,
    text_of,
)

SETUP = "\n".join(
    ["CREATE geogame Geophysical gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["START"]
)

# Spring 1901: the seed's example (Geophysical rule 3) on Moscow, an unopposed erosion of
# Holland (it sinks; its centre goes), an earthquake between Munich and Berlin (the German army
# cannot cross), ice over the Norwegian Sea (England's fleet cannot enter), a new centre; the
# German fleet sails into the new sea.
SPRING = {
    "Austria": ["Support TURKISH Erode Mos", "A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "England": ["Erode Hol", "F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
    "France": ["Create centre Bur", "A Par - Bur", "A Mar - Spa", "F Bre - MAO"],
    "Germany": ["Stabilize Kie", "A Mun - Ber", "A Ber - Pru", "F Kie - Hol"],
    "Italy": ["Earthquake Mun-Ber", "A Ven - Pie", "A Rom - Apu", "F Nap - ION"],
    "Russia": ["2 Stabilize Mos", "Ice advance NWG", "A Mos - Ukr", "A War - Gal",
               "F Sev - BLA", "F StP/sc - BOT"],
    "Turkey": ["Erode Mos", "A Con - Bul", "A Smy - Arm", "F Ank - Con"],
}


def _mail_by_recipient(outbox: Path) -> dict[str, list[Message]]:
    found: dict[str, list[Message]] = defaultdict(list)
    for path in sorted((outbox / "new").iterdir()):
        msg = read_mail(path)
        found[str(msg["To"]).strip().strip("<>").split("<")[-1].rstrip(">")].append(msg)
    return found


async def _pass(db: Database, config: Config, clock: FixedClock) -> list[Disposition]:
    return [r.outcome for r in await Service(db, config, clock=clock).once()]


async def test_a_geophysical_turn_by_email(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    deliver(config.maildir.inbox, message(GM, SETUP))
    assert await _pass(database, config, clock) == [Disposition.ANSWERED]
    for power, lines in SPRING.items():
        body = "\n".join([f"SIGNON {power} geogame pw{power.lower()}", *lines])
        deliver(config.maildir.inbox, message(PLAYERS[power], body, subject="orders"))
    assert await _pass(database, config, clock) == [Disposition.ANSWERED] * 7
    replies = _mail_by_recipient(config.maildir.outbox)
    russia = next(t for t in map(text_of, replies[PLAYERS["Russia"]]) if "Stabilize" in t)
    assert "2 Stabilize Mos" in russia and "refused" not in russia, russia
    france = next(t for t in map(text_of, replies[PLAYERS["France"]]) if "Bur" in t)
    assert "Create centre Bur" in france and "refused" not in france, france

    # HELP Geophysical: the rules, the rulings and the project's decisions, by mail
    deliver(config.maildir.inbox, message("someone@example.net", "HELP Geophysical"))
    assert await _pass(database, config, clock) == [Disposition.ANSWERED]
    answer = _mail_by_recipient(config.maildir.outbox)["someone@example.net"][0]
    help_text = " ".join(text_of(answer).split())
    for words in ("Support TURKISH Erode Mos", "Rulings", "neutral until a unit takes it"):
        assert words in help_text, help_text

    deliver(config.maildir.inbox, message(GM, "SIGNON GM geogame gmpass\nPROCESS"))
    assert await _pass(database, config, clock) == [Disposition.ANSWERED]

    mail = _mail_by_recipient(config.maildir.outbox)
    report = next(text_of(m) for m in mail[PLAYERS["Russia"]]
                  if str(m["Subject"]).endswith(": results"))
    # the events' results, and what the map did, in the report every player gets
    assert "Erode Mos  (fails: strength 2 against 2 stabilisations" in report, report
    assert "Support TURKISH Erode Mos" in report
    # rule 9: seas in capitals: Holland is sea now, in the orders as in the events
    assert "Erode HOL  (succeeds" in report and "F Kie - HOL  (succeeds" in report
    assert "Holland (HOL) becomes sea." in report
    assert "An earthquake splits the border between Berlin and Munich." in report
    assert "Ice covers Norwegian Sea." in report
    assert "Burgundy becomes a (neutral) supply centre." in report, report
    assert "Holland is no longer a supply centre: it is under water." in report
    assert "fleets cannot move into ice" in report

    with database.read() as s:
        game = games_repo.find_game(s, "geogame")
        assert game is not None
        state = phases_repo.history(s, game.id)[-1].state
    assert state.phase.season == "Fall"
    assert state.terrain["Hol"].value == "sea" and "Mos" not in state.terrain
    assert ("Ber", "Mun") in state.cut_borders and "NWG" in state.iced
    assert state.centres is not None and "Bur" in state.centres and "Hol" not in state.centres
    assert state.unit_in("Mun") is not None and state.unit_in("Edi") is not None
