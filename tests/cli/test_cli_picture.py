"""`gm picture GAME [PHASE] -o DIR`: the pictures of a game's phase, as a GM runs it on the
service's database: the last processed phase by default, a named one (long or short name),
the position before any phase is processed; a clear message for an unknown game or phase."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import migrate
from gm.store.db import default_url, open_database
from tests.support.environment import clean_env
from tests.support.picture_reader import SVG
from tests.support.service_support import maildir_config
from tests.support.tick_support import YEAR, new_game, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def _gm(data: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = clean_env()
    env["GM_DATA_DIR"] = str(data)
    return subprocess.run([sys.executable, "-m", "gm", "picture", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)


def test_gm_picture_writes_a_phase_s_pictures(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    url = default_url(data)
    migrate.upgrade(url)
    db = open_database(url)
    game = new_game(db, "drawn", opened=T0, deadline=T0 + timedelta(hours=1))
    out = tmp_path / "pictures"
    before = _gm(data, "drawn", "-o", out)
    assert before.returncode == 0, before.stderr
    assert before.stdout.split() == [str(out / "drawn-spring-1901-movement.png"),
                                     str(out / "drawn-spring-1901-movement.svg")]
    submit(db, game, YEAR[0], T0)
    tick(db, config=maildir_config(tmp_path), clock=FixedClock(T0 + timedelta(days=3)))
    last = _gm(data, "DRAWN", "-o", out)
    assert last.returncode == 0, last.stderr
    assert [Path(p).name for p in last.stdout.split()] == [
        "drawn-spring-1901-movement-orders.png", "drawn-spring-1901-movement-orders.svg",
        "drawn-fall-1901-movement.png", "drawn-fall-1901-movement.svg"]
    orders = ET.fromstring((out / "drawn-spring-1901-movement-orders.svg").read_text())
    titles = {g.findtext(f"{SVG}title") for g in orders.iter(f"{SVG}g")
              if g.get("data-mark") == "move-ok"}
    assert {"A Par - Bur", "F Kie - Den", "A War - Gal"} <= titles
    assert (out / "drawn-fall-1901-movement.png").read_bytes().startswith(b"\x89PNG")
    named = _gm(data, "drawn", "S1901M", "-o", tmp_path / "again")
    assert named.returncode == 0 and len(named.stdout.split()) == 4
    assert _gm(data, "drawn", "spring 1901, movement", "-o", tmp_path / "x").returncode == 0
    unknown = _gm(data, "drawn", "Fall 1920, Movement")
    assert unknown.returncode == 1
    assert "drawn has no phase 'Fall 1920, Movement'; its phases: Spring 1901, Movement" \
        in unknown.stderr
    missing = _gm(data, "nosuch")
    assert missing.returncode == 1 and "no game called 'nosuch'" in missing.stderr
