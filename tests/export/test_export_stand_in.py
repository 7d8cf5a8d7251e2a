"""Export of a game where stand-ins played (SET STANDIN ... BOT, DEFEND): their orders are not
stored as order sets, but `gm export --scenario` gives them from the phases' results, so that
`gm scenario` replays the game to the positions stored."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gm.export import scenario_text
from gm.store import games as games_repo
from gm.store.db import Database
from tests.support.mail_table import seven_powers
from tests.support.service_support import SPRING_1901


def _run_scenario(path: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "gm", "scenario", "-v", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


async def test_a_game_played_by_stand_ins_exports_and_replays(database: Database,
                                                             tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "sixport")
    await table.start("standard")
    await table.gm("SIGNON GM sixport gmpass\nSET STANDIN France BOT\n"
                   "SET STANDIN Germany DEFEND")
    await table.orders({p: o for p, o in SPRING_1901.items() if p not in ("France", "Germany")})
    await table.process()
    phases = 1
    while table.state().phase.year == 1901:  # no more orders: the stand-ins play on
        await table.process()
        phases += 1
    with database.read() as s:
        game = games_repo.find_game(s, "sixport")
        assert game is not None
        text = scenario_text(s, game.id)
    france = [line.strip() for line in text.splitlines() if line.startswith("\tFrance: ")]
    # the bot's orders are in the record: France's units moved, and it built in the Winter
    assert any(" - " in line for line in france), france
    assert any(line.startswith("France: Build ") for line in france), france
    path = tmp_path / "sixport.txt"
    path.write_text(text)
    assert text.count("\nCASE ") == phases
    assert f"{phases} passed, 0 failed" in _run_scenario(path)
