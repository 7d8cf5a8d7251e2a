"""gm import: a game the `diplomacy` package played and saved (its own to_saved_game_format)
replays through gm's adjudicator phase by phase, a changed file is caught at the phase it
was changed, and a game started from the file's last position is played on by mail."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from diplomacy import Game
from diplomacy.utils.export import to_saved_game_format

from gm.service.clock import FixedClock
from gm.store.db import Database
from tests.export.mila_play import draw_orders
from tests.support.environment import clean_env
from tests.support.mail_table import MailTable
from tests.support.service_support import GM, maildir_config, text_of


def _package_game(until: str, seed: int) -> dict[str, Any]:
    """A game the package plays with its own random orders up to the phase `until`."""
    game = Game(game_id=f"package{seed}")
    rng = random.Random(seed)
    while game.get_current_phase() != until:
        for power, orders in draw_orders(game, rng).items():
            game.set_orders(power, orders)
        game.process()
    saved: dict[str, Any] = to_saved_game_format(game)
    return saved


def _gm(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gm", "import", *args], env=env or clean_env(),
                          capture_output=True, text=True, timeout=300)


def test_a_package_game_replays_in_gm(tmp_path: Path) -> None:
    saved = _package_game("S1904M", seed=11)
    names = [p["name"] for p in saved["phases"]]
    assert "F1901M" in names and any(n.endswith("A") for n in names)
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(saved) + "\n")
    out = _gm(str(path), "--replay")
    count = len(names) - 1
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout == f"{count} phases replayed, {count} agree, 0 disagree\n"
    # a unit moved by hand in the file's Fall 1901 is a disagreement at Spring 1901
    fall = saved["phases"][names.index("F1901M")]
    units = fall["state"]["units"]["FRANCE"]
    moved = next(u for u in units if u.startswith("A "))
    units[units.index(moved)] = "A GAS" if moved != "A GAS" else "A PIC"
    path.write_text(json.dumps(saved))
    out = _gm(str(path), "--replay")
    assert out.returncode == 1
    first = out.stdout.splitlines()[0]
    assert first.startswith("S1901M: units: gm has France ") and "the file France A" in first
    # replayed on from the file's position, the orders the file gives for the unit that
    # was not there leave the Fall disagreeing too
    assert out.stdout.splitlines()[1].startswith("F1901M: units:")
    assert out.stdout.endswith(f"{count} phases replayed, {count - 2} agree, 2 disagree\n")


def test_a_file_gm_cannot_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"id": "x", "map": "standard", "phases": [
        {"name": "S1901M", "state": {"units": {"FRANCE": ["A XYZ"]}}, "orders": {}}]}))
    out = _gm(str(path), "--replay")
    assert out.returncode == 2
    assert "phase 1 (S1901M): 'XYZ' is no province of Standard" in out.stderr
    path.write_text("not json\n")
    out = _gm(str(path), "--replay")
    assert out.returncode == 2 and out.stderr.startswith(f"gm import: {path}: not JSON (")
    assert "a MILA saved game is one JSON document, or one a line (.jsonl)" in out.stderr


async def test_a_game_starts_from_the_files_last_position(database: Database,
                                                          tmp_path: Path) -> None:
    saved = _package_game("S1903M", seed=5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    env = clean_env()
    env["GM_DATABASE_URL"] = database.url
    out = _gm(str(path), "--game", "imported", "--gm", GM, "--password", "gmpass", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("imported: made at S1903M (Standard), paused;")
    again = _gm(str(path), "--game", "Imported", "--gm", GM, "--password", "gmpass", env=env)
    assert again.returncode == 1 and "there is a game called 'Imported'" in again.stderr
    table = MailTable(database, maildir_config(tmp_path), "imported",
                      {"France": "france@example.org"}, reporter="France")
    table.clock = FixedClock(datetime.now(UTC) + timedelta(minutes=1))  # after the import
    reply = text_of(await table.send(GM, "SIGNON GM imported gmpass\n"
                                         "REPLACE France france@example.org pwfrance\nRESUME"))
    assert "imported is active again" in reply
    state = table.state()
    last = saved["phases"][-1]["state"]
    assert sorted(str(u).upper() for u in state.units_of("France")) == sorted(
        last["units"]["FRANCE"])
    assert str(state.phase) == "Spring 1903, Movement"
    holds = [f"{u} H" for u in state.units_of("France")]
    answer = await table.answer("France", *holds)
    assert "refused" not in answer
    report = await table.process()
    assert "Spring 1903, Movement" in report
