"""The second test variant that exists only as files, The Marches (tests/variants/marches),
played by email through every year of its game: what the variant-file format adds — a border
only fleets cross, a long link, a one-way border, neutral garrisons, a centre owned at the
start that is not a home, build sites for one kind of unit — and its dated events (a new
centre, a sea that dries up), through the real Maildir source and sink, service, store and
adjudicator, until its last game year ends the game with the powers ranked by centres."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm.engine.geo import Terrain
from gm.engine.units import NEUTRAL
from gm.store import games as games_repo
from gm.store.db import Database
from gm.variants import registry
from tests.support.mail_table import MailTable
from tests.support.service_support import GM, maildir_config

MARCHES = Path(__file__).resolve().parent.parent / "variants" / "marches"
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
    """A table of The Marches (its files in the configuration's variants_dir); Norland
    receives the results."""

    def __init__(self, database: Database, tmp_path: Path) -> None:
        folder = tmp_path / "variants"
        folder.mkdir()
        for name in ("marches.toml", "marches.map"):
            shutil.copy(MARCHES / name, folder / name)
        config = dataclasses.replace(maildir_config(tmp_path), variants_dir=folder)
        super().__init__(database, config, "marches", PLAYERS, reporter="Norland")

    async def replies(self, orders: dict[str, list[str]]) -> dict[str, str]:
        """Send each power's orders; each power's reply."""
        self.new_mail()
        await self.orders(orders)
        mail = self.new_mail()
        return {power: "\n".join(mail[PLAYERS[power]]) for power in orders}


def _status(database: Database) -> str:
    with database.read() as s:
        game = games_repo.find_game(s, "marches")
        assert game is not None
        return game.status.value


def _units(table: Table) -> list[str]:
    return sorted(f"{u.power}: {u}" for u in table.state().units)


async def test_the_marches_are_played_by_email_to_their_last_year(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path)
    await table.start("Marches Diplomacy")
    state = table.state()
    assert str(state.phase) == "Spring 1901, Movement"
    assert state.owners["Fel"] == "Norland"  # owned at the start, not a home
    assert [str(u) for u in state.units if u.power == NEUTRAL] == ["A Hol", "A Rid"]

    # HELP of the variant tells what the board does not draw
    table.new_mail()
    await table.send(GM, "HELP marches")
    [help_text] = table.new_mail()[GM]
    for told in ("Only fleets cross the border Cap-Ist.", "Crossed one way only: from Kar to Fel.",
                 "Neutral garrisons: A Hol, A Rid.", "The game ends at the end of 1904",
                 "Cap (fleets only), Nor (armies only)."):
        assert told in help_text, (told, help_text)

    # PREVIEW names the powers that have not ordered, never the garrisons (nobody orders them)
    table.new_mail()
    await table.gm("SIGNON GM marches gmpass\nPREVIEW")
    [preview] = table.new_mail()[GM]
    assert "No orders yet from: Eastria, Norland, Southia (their units would hold)." in preview
    assert "Neutral:\n  A Hol H" in preview, preview  # its hold shown with the others

    # Spring 1901: along the Pilgrims' Way; through the channel; down the scarp; a neutral
    # garrison holds; an army cannot cross the channel.
    replies = await table.replies({
        "Norland": ["A Nor - Ash", "F Cap - Ist/nc"],
        "Eastria": ["A Kar - Fel", "A Eas - Hol"],
        "Southia": ["F Sun - GUL", "A Bay - Dun"],
    })
    report = await table.process()
    for line in ("A Nor - Ash  (succeeds", "F Cap - Ist/nc  (succeeds",
                 "A Kar - Fel  (succeeds", "A Eas - Hol  (fails", "A Bay - Dun  (succeeds"):
        assert line in report, (line, report)

    # Fall 1901: a neutral garrison dislodged is destroyed, not retreated; Eastria takes
    # Fellhaven from Norland.
    await table.orders({
        "Norland": ["A Ash H", "F Ist/nc H"],
        "Eastria": ["A Fel S A Eas - Hol", "A Eas - Hol"],
        "Southia": ["F GUL - SSO", "A Dun H"],
    })
    report = await table.process()
    assert "The neutral A Hol is destroyed: a neutral unit does not retreat." in report, report
    state = table.state()
    assert str(state.phase) == "Winter 1901, Adjustment"
    assert (state.owners["Fel"], state.owners["Hol"]) == ("Eastria", "Eastria")
    assert "Norland:      3 centres,  2 units; builds 1 (sites: Cap, Nor)" in report, report

    # Winter 1901: Cape Tarn builds only fleets, Nordmark only armies; Ashfield becomes a
    # centre, Norland's (its army stands there).
    replies = await table.replies({
        "Norland": ["Build A Cap"],
        "Eastria": ["Build A Kar", "Build A Eas"],
        "Southia": ["Build F Sun"],
    })
    assert ('"Build A Cap": refused, A Cap cannot be built: only fleets are built in Cap.'
            in replies["Norland"]), replies["Norland"]
    await table.orders({"Norland": ["Build F Cap"]})
    report = await table.process()
    for line in ("Build F Cap  (succeeds", "Build A Kar  (succeeds", "Build F Sun  (succeeds",
                 "Ashfield becomes a supply centre, controlled by Norland"):
        assert line in report, (line, report)
    assert "the Deeps will become land." in report  # the coming event, told
    state = table.state()
    assert str(state.phase) == "Spring 1902, Movement" and state.owners["Ash"] == "Norland"

    # Spring 1902: the scarp is not climbed; nobody else orders: every unit holds.
    replies = await table.replies({"Eastria": ["A Fel - Kar"]})
    assert ('"A Fel - Kar": refused, A Fel cannot move to Kar: that border is crossed from '
            "Kar to Fel only." in replies["Eastria"]), replies["Eastria"]
    await table.process()
    await table.process()  # Fall 1902

    # Winter 1902: Nordmark builds only armies; the Deeps dry up after the adjustments.
    replies = await table.replies({"Norland": ["Build F Nor"]})
    assert "refused, F Nor cannot be built: only armies are built in Nor." \
        in replies["Norland"], replies["Norland"]
    report = await table.process()
    assert "Waive  (succeeds: no order: build waived)" in report, report
    assert "The Deeps dries up and becomes land." in report, report
    state = table.state()
    assert str(state.phase) == "Spring 1903, Movement"
    assert state.terrain["DEE"] is Terrain.LAND
    assert [str(u) for u in state.units if u.power == NEUTRAL] == ["A Rid"]

    # 1903 and 1904 pass without orders; the game ends with 1904, its last year.
    for phase in ("Spring 1903", "Fall 1903", "Winter 1903", "Spring 1904", "Fall 1904"):
        assert str(table.state().phase).startswith(phase)
        report = await table.process()
        assert "The game ends" not in report and _status(database) == "active"
    assert str(table.state().phase) == "Winter 1904, Adjustment"
    report = await table.process()
    assert ("The game ends with 1904, its last year. The powers ranked by supply centres: "
            "1. Norland 4, 1. Eastria 4, 3. Southia 3.") in report, report
    assert "The game is over." in report
    assert _status(database) == "finished"
    assert _units(table) == [
        "Eastria: A Eas", "Eastria: A Fel", "Eastria: A Hol", "Eastria: A Kar",
        "Neutral: A Rid", "Norland: A Ash", "Norland: F Cap", "Norland: F Ist/nc",
        "Southia: A Dun", "Southia: F SSO", "Southia: F Sun"]
