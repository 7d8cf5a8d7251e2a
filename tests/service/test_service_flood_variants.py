"""Deluge II and Sahara by email: each game is created, played for more than a year through the
real service and store (Maildir in and out), and its reports say what the map did."""

from __future__ import annotations

from pathlib import Path

from gm.config import Config
from gm.engine.geo import Terrain
from gm.engine.state import GameState
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.variants.registry import get_variant
from tests.support.service_support import (
    GM,
    PLAYERS,
    START,
    deliver,
    mail_by_recipient,
    maildir_config,
    message,
    text_of,
)


def _setup(game: str, variant: str) -> str:
    return "\n".join(
        [f"CREATE {game} {variant} gmpass"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["START"]
    )


class Table:
    """One game played by mail: orders from players, PROCESS from the GM."""

    def __init__(self, db: Database, config: Config, game: str) -> None:
        self.db, self.config, self.game = db, config, game
        self.clock = FixedClock(START)

    async def run(self) -> list[Disposition]:
        service = Service(self.db, self.config, clock=self.clock)
        return [r.outcome for r in await service.once()]

    async def send(self, sender: str, body: str) -> None:
        deliver(self.config.maildir.inbox, message(sender, body))
        assert await self.run() == [Disposition.ANSWERED]

    async def orders(self, orders: dict[str, list[str]]) -> None:
        for power, lines in orders.items():
            body = "\n".join([f"SIGNON {power} {self.game} pw{power.lower()}", *lines])
            await self.send(PLAYERS[power], body)

    async def process(self) -> None:
        await self.send(GM, f"SIGNON GM {self.game} gmpass\nPROCESS")

    def state(self) -> GameState:
        with self.db.read() as s:
            game = games_repo.find_game(s, self.game)
            assert game is not None
            return phases_repo.history(s, game.id)[-1].state

    def reports(self, power: str) -> dict[str, str]:
        """Subject -> text of the results reports `power` received."""
        mail = mail_by_recipient(self.config.maildir.outbox)
        return {str(m["Subject"]): text_of(m) for m in mail[PLAYERS[power]]
                if str(m["Subject"]).endswith(": results")}


BUILDS = {
    "England": ["Build F Lon", "Build F Edi", "Build A Lvp"],
    "France": ["Build F Bre", "Build A Par", "Build A Mar"],
    "Germany": ["Build F Kie", "Build A Ber", "Build A Mun"],
    "Italy": ["Build F Nap", "Build A Rom", "Build A Ven"],
    "Austria": ["Build A Vie", "Build A Bud", "Build F Tri"],
    "Russia": ["Build F StP/nc", "Build A Mos", "Build A War", "Build F Sev"],
    "Turkey": ["Build F Ank", "Build A Con", "Build A Smy"],
}


async def test_a_deluge2_game_by_email(database: Database, tmp_path: Path) -> None:
    table = Table(database, maildir_config(tmp_path), "flood")
    await table.send(GM, _setup("flood", "Deluge II"))
    assert str(table.state().phase) == "Winter 1900, Adjustment"  # Deluge II rule 1
    await table.orders(BUILDS)
    await table.process()
    assert len(table.state().units) == 22
    await table.send(GM, "HELP deluge2")
    help_text = "\n".join(text_of(m) for m in mail_by_recipient(table.config.maildir.outbox)[GM])
    assert "W1901 submerge Lon, Hol, Bel, Gas, Ven, Lvn" in help_text

    # Spring 1901: Deluge II rule 2 by mail; Italy walks out of Venice before it sinks.
    await table.orders({"England": ["A Lvp transforms", "F Lon - NTH"],
                        "Italy": ["A Ven - Pie"], "France": ["A Par - Bur"]})
    await table.process()
    report = table.reports("England")["[flood] Spring 1901, Movement: results"]
    assert "A Lvp transforms  (succeeds: becomes F Lvp)" in report
    assert "A Lvp (England) becomes a fleet: F Lvp." in report

    # Fall 1901: France takes Belgium and builds in Winter 1901 (rule 7); then Table 1 and 2.
    await table.orders({"France": ["A Bur - Bel"]})
    await table.process()
    assert str(table.state().phase) == "Winter 1901, Adjustment"
    await table.orders({"France": ["Build A Par"]})
    await table.process()
    state = table.state()
    assert str(state.phase) == "Spring 1902, Movement"
    gmap = get_variant("deluge2").map_for(state)
    assert {p for p in ("Lon", "Hol", "Bel", "Gas", "Ven", "Lvn")
            if gmap.terrain[p] is Terrain.SEA} == {"Lon", "Hol", "Bel", "Gas", "Ven", "Lvn"}
    assert gmap.terrain["Ice"] is Terrain.LAND
    assert {"Wal", "Ruh", "Tyr"} <= gmap.centres and "Lon" not in gmap.centres
    assert state.unit_in("Bel") is None  # the French army drowned
    for power in PLAYERS:
        text = "\n".join(table.reports(power).values())
        assert "London is submerged; its supply centre (owned by England) is destroyed; " \
            "F Lon" not in text  # the fleet left for the North Sea in the spring
        assert "London is submerged; its supply centre (owned by England) is destroyed." in text
        assert "Belgium is submerged; its supply centre (owned by France) is destroyed; " \
            "A Bel (France) drowns." in text
        assert "Iceland becomes passable (coastal land)." in text
        assert "Wales becomes a supply centre, controlled by England" in text

    # Spring 1902: a fleet sails into the new sea.
    await table.orders({"England": ["F NTH - Hol"]})
    await table.process()
    hol = table.state().unit_in("Hol")
    assert hol is not None and str(hol) == "F Hol"


async def test_a_sahara_game_by_email(database: Database, tmp_path: Path) -> None:
    table = Table(database, maildir_config(tmp_path), "dune")
    await table.send(GM, _setup("dune", "Sahara"))
    assert str(table.state().phase) == "Spring 1901, Movement"
    await table.orders({"Italy": ["F Nap - ION"], "Turkey": ["F Ank - BLA"]})
    await table.process()  # Spring 1901
    await table.process()  # Fall 1901 (Winter 1901 has nothing to adjust)
    await table.process()  # Spring 1902
    assert str(table.state().phase) == "Fall 1902, Movement"
    # Sahara rule 2 by mail: the order is accepted with the movement orders.
    await table.orders({"Italy": ["F ION no change"]})
    await table.process()  # Fall 1902: A02 EMS, ION become land
    state = table.state()
    gmap = get_variant("sahara").map_for(state)
    assert gmap.terrain["ION"] is Terrain.LAND and gmap.terrain["EMS"] is Terrain.LAND
    ion = state.unit_in("ION")
    assert ion is not None and str(ion) == "F ION"  # left on a coast: still a fleet
    for power in PLAYERS:
        text = "\n".join(table.reports(power).values())
        assert "The Ionian Sea dries up and becomes land." in text
        assert "The Eastern Mediterranean dries up and becomes land." in text
        assert "F ION (Italy) is left on a coast and stays a fleet." in text
    italy = table.reports("Italy")["[dune] Fall 1902, Movement: results"]
    assert "F ION no change" in italy
