"""A variant that exists only as a file (tests/variants/data/isthmia.toml, in the folder the
configuration's `variants_dir` names) is created by its alias and played by email for a year
through the real Maildir source and sink, service, store and adjudicator: the split coast
(`F Cap - Ist` must name its coast), the passage (NSO-SSO), a centre taken, Winter builds and
a removal; the reports carry the board drawn from the file's rings; HELP lists the variant and
gives its text. A broken file in the same folder does not stop the service."""

from __future__ import annotations

import dataclasses
import shutil
from collections import defaultdict
from collections.abc import Iterator
from email import message_from_bytes
from email.policy import default
from pathlib import Path

import pytest

from gm.config import Config
from gm.engine.state import GameState
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.variants import registry
from tests.support.service_support import GM, START, deliver, maildir_config, message, text_of

DATA = Path(__file__).resolve().parent.parent / "variants" / "data"
PLAYERS = {
    "Norland": "norland@example.org",
    "Eastria": "eastria@example.org",
    "Southia": "southia@example.org",
}


@pytest.fixture(autouse=True)
def _no_loaded_variants() -> Iterator[None]:
    """The variants this module loads are gone after each test (the registry is global)."""
    yield
    registry.forget_loaded()


class Table:
    """An Isthmia table: the GM's and the players' mail in and out."""

    def __init__(self, database: Database, tmp_path: Path, game: str, folder: Path) -> None:
        self.db = database
        self.config: Config = dataclasses.replace(maildir_config(tmp_path), variants_dir=folder)
        self.clock = FixedClock(START)
        self.game = game
        self.seen: set[str] = set()

    async def run(self) -> list[Disposition]:
        return [r.outcome for r in await Service(self.db, self.config, clock=self.clock).once()]

    async def gm(self, body: str) -> None:
        deliver(self.config.maildir.inbox, message(GM, body))
        assert await self.run() == [Disposition.ANSWERED]

    async def orders(self, orders: dict[str, list[str]]) -> dict[str, str]:
        """Send each power's orders; each power's reply."""
        self.new_mail()
        for power, lines in orders.items():
            body = "\n".join([f"SIGNON {power} {self.game} pw{power.lower()}", *lines])
            deliver(self.config.maildir.inbox, message(PLAYERS[power], body, subject="orders"))
        assert await self.run() == [Disposition.ANSWERED] * len(orders)
        mail = self.new_mail()
        return {power: "\n".join(mail[PLAYERS[power]]) for power in orders}

    def new_mail(self) -> dict[str, list[str]]:
        """Texts of the mail sent since the last call, by recipient (with attachment names)."""
        found: dict[str, list[str]] = defaultdict(list)
        for path in sorted((self.config.maildir.outbox / "new").iterdir()):
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            msg = message_from_bytes(path.read_bytes(), policy=default)
            files = [p.get_filename() for p in msg.walk() if p.get_filename()]
            text = f"Subject: {msg['Subject']}\nFiles: {files}\n{text_of(msg)}"
            for addr in str(msg["To"]).split(","):
                found[addr.strip().strip("<>").split("<")[-1].rstrip(">")].append(text)
        return found

    async def process(self) -> str:
        """PROCESS the phase; the results report Norland receives."""
        self.new_mail()
        await self.gm(f"SIGNON GM {self.game} gmpass\nPROCESS")
        mail = self.new_mail()
        return next(t for t in mail[PLAYERS["Norland"]] if ": results" in t.splitlines()[0])

    def state(self) -> GameState:
        with self.db.read() as s:
            game = games_repo.find_game(s, self.game)
            assert game is not None
            return phases_repo.history(s, game.id)[-1].state


def _folder(tmp_path: Path) -> Path:
    """A variants_dir with Isthmia and a broken file beside it."""
    folder = tmp_path / "variants"
    folder.mkdir()
    for name in ("isthmia.toml", "isthmia.map"):
        shutil.copy(DATA / name, folder / name)
    (folder / "broken.toml").write_text('name = "broken"\nmap = """\nX land\n"""\n')
    return folder


async def test_isthmia_is_created_and_played_for_a_year_by_email(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path, "isles", _folder(tmp_path))
    await table.gm("\n".join(
        ["CREATE isles Isthmus Diplomacy gmpass"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["START"]))
    with database.read() as s:
        game = games_repo.find_game(s, "isles")
        assert game is not None and game.variant == "isthmia"
    assert str(table.state().phase) == "Spring 1901, Movement"

    # Spring 1901: a fleet must name the coast of the split Isthmus.
    replies = await table.orders({
        "Norland": ["F Cap - Ist", "F Cap - NSO", "A Nor H"],
        "Eastria": ["A Kar - Fel", "A Eas - Hol"],
        "Southia": ["F Sun - GUL", "A Bay - Dun"],
    })
    assert "F Cap - Ist: say which coast, Ist/nc or Ist/sc" in replies["Norland"], replies
    report = await table.process()
    for line in ("F Cap - NSO  (succeeds", "A Kar - Fel  (succeeds", "A Eas - Hol  (succeeds",
                 "F Sun - GUL  (succeeds", "A Bay - Dun  (succeeds"):
        assert line in report, (line, report)
    assert "isles-spring-1901-movement" in report  # the board, drawn from the rings

    # Fall 1901: across the passage; Southia takes Norland's home Cape Tarn.
    await table.orders({
        "Norland": ["F NSO - SSO", "A Nor H"],
        "Eastria": ["A Fel H", "A Hol - Ist"],
        "Southia": ["F GUL - Cap", "A Dun H"],
    })
    report = await table.process()
    for line in ("F NSO - SSO  (succeeds", "A Hol - Ist  (succeeds", "F GUL - Cap  (succeeds"):
        assert line in report, (line, report)
    state = table.state()
    assert str(state.phase) == "Winter 1901, Adjustment"
    assert state.owners["Cap"] == "Southia" and state.owners["Ist"] == "Eastria"

    # Winter 1901: builds on home centres (not inland fleets), a removal.
    replies = await table.orders({
        "Eastria": ["Build F Kar", "Build A Kar", "Build A Eas"],
        "Southia": ["Build F Sun", "Build A Bay"],
        "Norland": ["Remove F SSO"],
    })
    assert '"Build F Kar": refused' in replies["Eastria"], replies["Eastria"]
    report = await table.process()
    for line in ("Build A Kar  (succeeds", "Build A Eas  (succeeds", "Build F Sun  (succeeds",
                 "Build A Bay  (succeeds", "Remove F SSO  (succeeds"):
        assert line in report, (line, report)
    state = table.state()
    assert str(state.phase) == "Spring 1902, Movement"
    assert sorted(str(u) for u in state.units) == sorted(
        ["A Nor", "A Fel", "A Ist", "A Kar", "A Eas", "F Cap", "A Dun", "F Sun", "A Bay"])


async def test_help_knows_the_loaded_variant(database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path, "isles", _folder(tmp_path))
    deliver(table.config.maildir.inbox, message(GM, "HELP isthmus"))
    assert await table.run() == [Disposition.ANSWERED]
    [reply] = table.new_mail()[GM]
    assert "Isthmia: three powers round two sounds joined by a passage" in reply, reply
