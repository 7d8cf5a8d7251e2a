"""The one-file history and the animation of ten years of a standard game (played through the
tick with orders the `diplomacy` package draws): their sizes (the history at most 1.5 MB, the
animation at most 1 MB), and the history opened in headless Chromium in a phone-wide frame:
every phase's board is drawn from the shared map (its `<use>` of the board and the names
resolve and take the picture's whole width), nothing reaches past the screen's edge."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from gm.play.animation import animation_webp
from gm.play.history_html import history_html
from gm.play.mila import Reader
from gm.play.played_game import PlayedGame, played_game
from gm.store import migrate
from gm.store.db import open_database
from tests.export.mila_play import play
from tests.pictures.test_report_chromium import _chromium

pytestmark = pytest.mark.slow

PHONE = (390, 844)
MEASURE = """<script>
addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const boards = [...document.querySelectorAll("svg.board")].map((svg) => {
    const box = svg.getBoundingClientRect();
    const uses = [...svg.querySelectorAll(":scope > use")].map((u) => {
      const b = u.getBBox(); return [u.getAttribute("href"), Math.round(b.width)];
    });
    return {id: svg.closest("section").id, width: Math.round(box.width),
            height: Math.round(box.height), uses,
            units: svg.querySelectorAll(".unit").length};
  });
  const scrolls = (el) => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if (x === "auto" || x === "scroll") return true;
    }
    return false;
  };
  const outside = [...document.body.querySelectorAll("main *")].filter((el) => {
    const box = el.getBoundingClientRect();
    return (box.right > width + 0.5) && !scrolls(el) && !el.closest("svg");
  }).map((el) => el.tagName + ": " + (el.textContent || "").trim().slice(0, 40));
  const links = [...document.querySelectorAll("a[href^='#']")].filter(
    (a) => !document.getElementById(a.getAttribute("href").slice(1))).map((a) => a.href);
  parent.postMessage(JSON.stringify({width, page: document.documentElement.scrollWidth,
                                     boards, outside, links}), "*");
});
</script>"""
FRAME = f"""<!DOCTYPE html><html><body style="margin:0">
<iframe src="history.html" style="width:{PHONE[0]}px;height:{PHONE[1]}px;border:0"></iframe>
<script>
addEventListener("message", (e) => document.body.setAttribute("data-measured", e.data));
</script></body></html>"""


@pytest.fixture(scope="module")
def decade(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayedGame]:
    folder = tmp_path_factory.mktemp("decade")
    url = f"sqlite:///{folder / 'gm.sqlite3'}"
    migrate.upgrade(url)
    db = open_database(url)
    game = play(db, folder, "decade", last_year=1910, seed=46)
    with db.read() as s:
        yield played_game(s, game)
    db.dispose()


def test_ten_years_fit_the_sizes(decade: PlayedGame) -> None:
    assert decade.phases[-1].phase.year == 1911 and len(decade.phases) >= 38
    page = history_html(decade, Reader("gm")).encode("utf-8")
    assert len(page) <= 1_500_000, len(page)
    animation = animation_webp(decade)
    assert len(animation) <= 1_000_000, len(animation)
    with Image.open(io.BytesIO(animation)) as image:
        movement = sum(1 for r in decade.phases if r.phase.type.value == "Movement"
                       and r.adjudicated)
        assert getattr(image, "n_frames", 1) == movement + 1 == 21


def test_the_history_opens_on_a_phone_with_every_board(decade: PlayedGame,
                                                        tmp_path: Path) -> None:
    page = history_html(decade, Reader("observer"))
    assert "<script" not in page
    (tmp_path / "history.html").write_text(page.replace("</body>", MEASURE + "</body>"))
    (tmp_path / "frame.html").write_text(FRAME)
    dom = _chromium(tmp_path, "--virtual-time-budget=20000", "--dump-dom",
                    (tmp_path / "frame.html").as_uri()).stdout.decode()
    found = re.search(r'data-measured="([^"]*)"', dom)
    assert found is not None, "the page did not report its measures"
    measured = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert measured["width"] <= PHONE[0] and measured["page"] <= measured["width"]
    assert measured["outside"] == []
    assert measured["links"] == []  # every link in the page finds its phase
    boards = measured["boards"]
    assert len(boards) == len(decade.phases)
    for board in boards:
        # scaled to the screen (less the page's margins), not past it
        assert PHONE[0] - 60 <= board["width"] <= measured["width"], board
        # the shared map and the names are drawn: the board's `use` spans the picture
        assert [u[0] for u in board["uses"]] == ["#gm-board", "#gm-names"], board
        assert board["uses"][0][1] >= 1000, board  # the board's own width (1140)
        assert board["units"] > 0, board
