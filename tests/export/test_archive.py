"""The static web archive: a game played by mail (press of every kind, and orders already in
for the open phase) written by the service's archive writer (`[web] archive_dir`) and by
`gm archive`; every written file searched for each address and each secret; every link of
every page resolves; each phase page, opened in headless Chromium, shows its board."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from gm.service.archive_writer import write_archive
from gm.store.db import Database
from tests.pictures.test_report_chromium import _chromium
from tests.support.environment import clean_env
from tests.support.mail_table import MailTable, seven_powers
from tests.support.service_support import GM, PLAYERS, SPRING_1901

pytestmark = pytest.mark.slow  # a game by mail, Chromium, a subprocess: tens of seconds

PRIVATE = "Private to Russia: take Sweden, I will not stop you."
GREY = "Grey to everyone: Germany lies."
PARTIAL_GREY = "Grey to Italy: watch Austria."
WHITE = "Italy to everyone: peace in the Mediterranean."
FALL_ORDERS = {"France": ["F MAO - NAf", "A Bur - Mun", "A Spa - Por"]}
MEASURE = """<script>addEventListener("load", () => {
  const img = document.querySelector("img.board");
  document.body.setAttribute("data-board", img && img.complete ?
    `${img.naturalWidth}x${img.naturalHeight}` : "none");
});</script>"""


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("href", "src") and value is not None and tag != "use":
                self.found.append(value)


async def _played(table: MailTable) -> None:
    await table.start("standard")
    await table.signed("Germany", "PRESS TO Russia", PRIVATE, "ENDPRESS")
    await table.signed("Turkey", "GREY BROADCAST", GREY, "ENDPRESS")
    await table.signed("Austria", "GREY PRESS TO Italy", PARTIAL_GREY, "ENDPRESS")
    await table.signed("Italy", "BROADCAST", WHITE, "ENDPRESS")
    await table.orders(SPRING_1901)
    await table.process()
    await table.orders(FALL_ORDERS)  # in before the deadline: not public yet


def _check_archive(root: Path, tmp_path: Path) -> None:
    files = [p for p in root.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"index.html", "s1901m.html", "s1901m.svg",
                                        "f1901m.html", "f1901m.svg", "pub-record.json",
                                        "pub-history.html"}
    secrets = [*PLAYERS.values(), GM, PRIVATE, GREY, PARTIAL_GREY, "MAO - NAf", "MAO - NAF",
               "Bur - Mun", "BUR - MUN", "pwfrance", "gmpass"]
    for path in files:
        text = path.read_bytes().decode("utf-8")
        leaks = [s for s in secrets if s in text]
        assert leaks == [], (path, leaks)
    assert WHITE in (root / "pub" / "s1901m.html").read_text()
    assert WHITE in (root / "pub" / "pub-history.html").read_text()
    record = json.loads((root / "pub" / "pub-record.json").read_text())
    assert [p["body"] for p in record["gm"]["press"]] == [WHITE]
    assert record["gm"]["players"]["ITALY"] == ["player 5 from the start"]
    assert "A Par - Bur" in (root / "pub" / "s1901m.html").read_text()
    assert "shown once it has been processed" in (root / "pub" / "f1901m.html").read_text()
    # every link and picture of every page is a file of the archive
    pages = [p for p in files if p.suffix == ".html"]
    for page in pages:
        links = _Links()
        links.feed(page.read_text())
        for link in links.found:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, (page, link)  # nothing outside
            if parts.path:
                target = (page.parent / unquote(parts.path)).resolve()
                assert target.is_file() and root.resolve() in target.parents, (page, link)
    # each phase page shows its board in Chromium
    for name in ("s1901m", "f1901m"):
        shown = tmp_path / f"shown-{name}.html"
        source = (root / "pub" / f"{name}.html").read_text()
        (root / "pub" / f"shown-{name}.html").write_text(source.replace("</body>",
                                                                         MEASURE + "</body>"))
        dom = _chromium(tmp_path, "--virtual-time-budget=10000", "--dump-dom",
                        (root / "pub" / f"shown-{name}.html").as_uri()).stdout.decode()
        (root / "pub" / f"shown-{name}.html").unlink()
        found = re.search(r'data-board="(\d+)x(\d+)"', dom)
        assert found is not None and int(found.group(1)) >= 1000, (name, dom[:300], shown)
    index = _chromium(tmp_path, "--dump-dom", (root / "index.html").as_uri()).stdout.decode()
    assert 'href="pub/index.html"' in index and "Standard" in index


async def test_the_archive_holds_nothing_secret(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "pub")
    await _played(table)
    root = tmp_path / "site"
    config = dataclasses.replace(table.config, archive_dir=root)
    assert write_archive(database, config) == ["pub"]
    _check_archive(root, tmp_path)
    assert write_archive(database, config) == []  # nothing changed: nothing written
    await table.process()  # Fall 1901 processed: its orders are public now
    assert write_archive(database, config) == ["pub"]
    assert "MAO - NAf" in (root / "pub" / "f1901m.html").read_text()
    assert (root / "pub" / "w1901a.html").is_file() or (root / "pub" / "s1902m.html").is_file()


async def test_gm_archive_writes_a_game(database: Database, tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "pub")
    await _played(table)
    env = clean_env()
    env["GM_DATABASE_URL"] = database.url
    root = tmp_path / "written"
    out = subprocess.run([sys.executable, "-m", "gm", "archive", "pub", str(root)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"pub: written to {root}\n"
    _check_archive(root, tmp_path)
    missing = subprocess.run([sys.executable, "-m", "gm", "archive", "nosuch", str(root)],
                             env=env, capture_output=True, text=True, timeout=300)
    assert missing.returncode == 1 and "no game called 'nosuch'" in missing.stderr
