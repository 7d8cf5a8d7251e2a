"""A variant that exists only as a file (tests/variants/data/isthmia.toml, in the folder the
configuration's `variants_dir` names) is created by its alias and played by email for a year
through the real Maildir source and sink, service, store and adjudicator: the split coast
(`F Cap - Ist` must name its coast), the passage (NSO-SSO), a centre taken, Winter builds and
a removal; the reports carry the board drawn from the file's rings; HELP lists the variant and
gives its text. A broken file in the same folder does not stop the service. A changed file that
no longer fits a game pauses it; orders sent while the file is gone are kept and replayed."""

from __future__ import annotations

import dataclasses
import logging
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from gm.mail.connect import make_sink
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.sender import drain_outbox
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from gm.variants import registry
from tests.support.environment import clean_env
from tests.support.mail_table import MailTable
from tests.support.service_support import GM, START, deliver, maildir_config, message

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


class Table(MailTable):
    """An Isthmia table (variants loaded from `folder`); Norland receives the results."""

    def __init__(self, database: Database, tmp_path: Path, game: str, folder: Path) -> None:
        config = dataclasses.replace(maildir_config(tmp_path), variants_dir=folder)
        super().__init__(database, config, game, PLAYERS, reporter="Norland")

    async def send_queued(self, clock: FixedClock) -> None:
        """Send the mail queued outside the service (by `gm tick` at `clock`'s time), as
        `gm tick --send` does."""
        await drain_outbox(self.db, make_sink(self.config), config=self.config, clock=clock)

    async def replies(self, orders: dict[str, list[str]]) -> dict[str, str]:
        """Send each power's orders; each power's reply."""
        self.new_mail()
        await self.orders(orders)
        mail = self.new_mail()
        return {power: "\n".join(mail[PLAYERS[power]]) for power in orders}


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
    replies = await table.replies({
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
    replies = await table.replies({
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


async def test_a_game_is_paused_when_its_variant_file_no_longer_fits(
        database: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The game records its file's hash; a change that fits is recorded and play goes on; a
    change that removes a province under a unit pauses the game at the next tick, the GM and
    the operator are told, PROCESS refuses, and nothing of the game is lost; with the file put
    back, RESUME goes on; a file removed pauses the game too."""
    folder = _folder(tmp_path)
    table = Table(database, tmp_path, "isles", folder)
    table.config = dataclasses.replace(table.config, operator="operator@example.org")
    await table.gm("\n".join(
        ["CREATE isles isthmia gmpass"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["START"]))
    original = (folder / "isthmia.map").read_text()
    found = registry.file_of("isthmia")
    assert found is not None
    assert _game(database).variant_digest == found[1]
    await table.orders({"Eastria": ["A Kar - Fel", "A Eas - Hol"]})
    await table.process()
    await table.orders({"Eastria": ["A Fel H", "A Hol - Ist"]})  # stored for Fall 1901
    before = table.state()
    later = FixedClock(START + timedelta(minutes=1))  # before the Fall deadline

    # a change that fits: recorded, the game goes on
    (folder / "isthmia.toml").write_text(
        (folder / "isthmia.toml").read_text().replace('title = "Isthmia"', 'title = "Isthmia!"'))
    registry.load_directory(folder)
    summary = tick(database, config=table.config, clock=later)
    assert summary.notices == 0
    game = _game(database)
    assert game.status is GameStatus.ACTIVE
    assert game.variant_digest == (registry.file_of("isthmia") or (None, ""))[1] != found[1]

    # Fellhaven renamed Fenhaven: the map has no Fel, where an Eastrian army stands
    (folder / "isthmia.map").write_text(re.sub(r"\bFel\b", "Fen", original))
    registry.load_directory(folder)
    table.new_mail()
    with caplog.at_level(logging.WARNING):
        summary = tick(database, config=table.config, clock=later)
    assert summary.notices == 1 and summary.adjudicated == []
    assert _game(database).status is GameStatus.PAUSED
    await table.send_queued(later)  # what the tick queued
    why = "A Fel (Eastria) stands in Fel, which the map no longer has"
    assert f"game isles paused: its variant isthmia changed: {why}" in caplog.text
    mail = table.new_mail()
    for address in (GM, "operator@example.org"):
        [notice] = mail[address]
        assert "Subject: [isles]: paused: its variant file changed" in notice, notice
        assert "isles is paused: its variant, isthmia, is not the one it started with." in notice
        assert f"- {why}" in notice, notice
        assert "Nothing of the game is lost" in notice
    assert table.state() == before  # the position, as it was
    await table.gm("SIGNON GM isles gmpass\nPROCESS")
    [reply] = table.new_mail()[GM]
    assert ("PROCESS: refused, the variant of isles is not the one it started with: "
            f"{why}. Nothing was processed") in reply, reply
    assert table.state() == before

    # the file put back: RESUME, and the stored Fall orders are adjudicated at the deadline
    (folder / "isthmia.map").write_text(original)
    await table.gm("SIGNON GM isles gmpass\nRESUME")
    assert _game(database).status is GameStatus.ACTIVE
    summary = tick(database, config=table.config, clock=FixedClock(START + timedelta(days=30)),
                   wait_for_mail=False)
    assert [a[1] for a in summary.adjudicated] == ["Fall 1901, Movement"], summary
    assert str(table.state().unit_in("Ist")) == "A Ist"

    # the file removed: paused, and told so
    (folder / "isthmia.toml").unlink()
    registry.load_directory(folder)
    table.new_mail()
    gone = FixedClock(START + timedelta(days=31))
    summary = tick(database, config=table.config, clock=gone)
    assert _game(database).status is GameStatus.PAUSED
    await table.send_queued(gone)
    [notice] = [t for t in table.new_mail()[GM] if "paused: its variant file changed" in t]
    assert "- the variant isthmia is not loaded any more: its file is gone from variants_dir" \
        in notice, notice


def _game(database: Database) -> GameRecord:
    with database.read() as s:
        game = games_repo.find_game(s, "isles")
        assert game is not None
        return game


async def test_orders_for_a_game_whose_variant_file_is_gone_are_kept_and_replayed(
        database: Database, tmp_path: Path) -> None:
    """Orders sent while the variant's file is gone are kept (shunted, the sender and the GM
    told), and `gm shunt replay`, which loads variants_dir, takes them once the file is back."""
    folder = _folder(tmp_path)
    table = Table(database, tmp_path, "isles", folder)
    await table.gm("\n".join(
        ["CREATE isles isthmia gmpass"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["START"]))
    kept = (folder / "isthmia.toml").read_text()
    (folder / "isthmia.toml").unlink()
    table.new_mail()
    deliver(table.config.maildir.inbox, message(
        PLAYERS["Norland"], "SIGNON Norland isles pwnorland\nF Cap - NSO", subject="orders"))
    assert await table.run() == [Disposition.SHUNTED]
    [told] = table.new_mail()[PLAYERS["Norland"]]
    assert "Your message was kept" in told, told

    (folder / "isthmia.toml").write_text(kept)
    config = tmp_path / "gm.toml"
    config.write_text(f'database_url = "{database.url}"\naddress = "judge@example.org"\n'
                      f'variants_dir = "{folder}"\n[maildir]\ninbox = "{tmp_path / "inbox"}"\n'
                      f'outbox = "{tmp_path / "outbox"}"\n')
    env = clean_env()
    done = subprocess.run([sys.executable, "-m", "gm", "shunt", "replay", "--all", "--config",
                           str(config)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.endswith(": answered\n"), done.stdout
    with database.read() as s:
        game = games_repo.find_game(s, "isles")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        stored = orders_repo.latest_valid_orders(s, phase.id)
    assert [line.canonical for line in stored["Norland"].lines] == ["F Cap - NSO"]
