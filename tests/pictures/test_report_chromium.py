"""The HTML report as a reader's mail client shows it: a phase report is made by the tick and
composed for sending as the sender does; its multipart/related part (the HTML and the PNG
pictures it shows by Content-ID) is opened in headless Chromium (Debian's `chromium`, which
tests/run installs). The screenshot shows the map (its sea colour fills much of the top of the
page: the inline image loaded), the DOM has the orders table with its outcomes coloured."""

from __future__ import annotations

import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from gm.pictures.colours import TERRAIN_COLOURS, distance
from gm.service.clock import FixedClock
from gm.service.sender import compose, draw_pictures
from gm.service.tick import tick
from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import open_database
from tests.support.png_pixels import Image
from tests.support.service_support import maildir_config
from tests.support.tick_support import GM, YEAR, new_game, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    binary = shutil.which("chromium")
    assert binary is not None, "chromium is not installed (tests/run installs it)"
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    return subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, timeout=120, check=True)


def sea_seen(shot: Path, *, top: int, rows: int) -> int:
    """How many pixels of a screenshot show the map's sea colour: every fifth of the first 780
    columns, in the rows from `top` to `rows`."""
    image = Image(shot.read_bytes(), rows=rows)
    sea = TERRAIN_COLOURS["sea"]
    return sum(1 for y in range(top, rows, 5) for x in range(0, 780, 5)
               if distance(image.pixel(x, y), sea) < 4)


def _related_part(tmp_path: Path) -> bytes:
    url = f"sqlite:///{tmp_path / 'gm.sqlite3'}"
    migrate.upgrade(url)
    db = open_database(url)
    game = new_game(db, "seen", opened=T0, deadline=T0 + timedelta(hours=1))
    submit(db, game, {**YEAR[0], "Austria": ["A Vie - Gal"]}, T0)  # a bounce in Galicia
    config = maildir_config(tmp_path)
    tick(db, config=config, clock=FixedClock(T0 + timedelta(days=3)))
    with db.read() as s:
        [record] = [r for r in outbound_repo.list_outbound(s, limit=100)
                    if r.recipients == (GM,)]
    message = compose(draw_pictures(record)[0], config)  # as the sender draws and writes it
    assert isinstance(message, EmailMessage)
    related = message.get_body(preferencelist=("related",))
    assert isinstance(related, EmailMessage), "the HTML part shows no inline picture"
    return related.as_bytes()


def test_the_report_opens_in_chromium_with_its_map_and_table(tmp_path: Path) -> None:
    page = tmp_path / "report.mhtml"  # a multipart/related document, as MHTML is
    page.write_bytes(_related_part(tmp_path))
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri()).stdout.decode()
    assert dom.count("<img ") == 2 and 'src="cid:seen-spring-1901-movement-orders.png' in dom
    # a phone's mail client lays the page out at the screen's width, not a desktop's
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in dom
    assert "<table" in dom and dom.count("<tr") >= 23  # a header and the 22 orders
    assert ">A Par - Bur</td>" in dom and ">A Vie - Gal</td>" in dom
    assert "color:#1b5e20;background:#e8f5e9\">succeeds</td>" in dom  # outcomes coloured
    assert "color:#b71c1c;background:#ffebee\">fails</td>" in dom

    shot = tmp_path / "shot.png"
    _chromium(tmp_path, "--window-size=800,900", f"--screenshot={shot}", page.as_uri())
    seen = sea_seen(shot, top=100, rows=700)
    # the map's seas cover about a third of the picture; a broken image shows none
    assert seen > 0.15 * (120 * 156), seen
