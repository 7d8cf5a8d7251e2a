"""Export: a game played through `gm tick` (a scripted 1901 with a dislodgement, a retreat and
builds) exports as JSON and as scenario cases, one per adjudicated phase, that `gm scenario`
runs and passes; the demo game played by mail exports and passes the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.export import game_record, scenario_text
from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import phases as phases_repo
from gm.store import press as press_repo
from gm.store.db import Database
from gm.variants import get_variant
from tests.support.environment import clean_env
from tests.support.service_support import maildir_config
from tests.support.tick_support import YEAR, new_game, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

def _play_year(db: Database, tmp_path: Path) -> int:
    game = new_game(db, "record", opened=T0, deadline=T0 + timedelta(hours=1))
    config = maildir_config(tmp_path)
    now = T0
    for orders in YEAR:
        submit(db, game, orders, now)
        with db.transaction() as s:
            phase = phases_repo.current_phase(s, game)
            assert phase is not None
            if orders is YEAR[0]:
                press_repo.record_press(s, game, from_power="France", from_address="f@x.org",
                                        body="Peace in our time.", now=now, broadcast=True,
                                        phase_id=phase.id)
        now += timedelta(days=3)  # past every deadline (and grace): late powers' units hold
        assert len(tick(db, config=config, clock=FixedClock(now)).adjudicated) == 1
    return game


def _run_scenario(path: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "gm", "scenario", "-v", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_a_played_year_exports_as_passing_scenario_cases(database: Database,
                                                         tmp_path: Path) -> None:
    game = _play_year(database, tmp_path)
    with database.read() as s:
        history = phases_repo.history(s, game)
        assert [p.state.phase.season for p in history] == ["Spring", "Fall", "Fall", "Winter",
                                                           "Spring"]
        text = scenario_text(s, game)
        record = game_record(s, game)
    assert text.count("\nCASE ") == 4
    assert "PRESTATE_DISLODGED\n\tFrance: A Bur" in text
    assert "SUCCESS: Germany: A Ruh - Bur" in text  # where the attacker came from
    path = tmp_path / "record.txt"
    path.write_text(text)
    out = _run_scenario(path)
    assert "4 passed, 0 failed" in out
    # the JSON record: every phase with its state, submissions, results and events; the press
    again = json.loads(json.dumps(record))
    assert again["game"]["name"] == "record" and again["game"]["variant"] == "standard"
    assert [p["phase"] for p in again["phases"]] == [
        "Spring 1901, Movement", "Fall 1901, Movement", "Fall 1901, Retreat",
        "Winter 1901, Adjustment", "Spring 1902, Movement"]
    fall = again["phases"][1]
    assert {(r["canonical"], r["outcome"]) for r in fall["results"]} >= {
        ("A Ruh - Bur", "succeeds"), ("A Bur H", "fails")}
    assert fall["orders"][0]["lines"][0]["text"]
    assert again["phases"][-1]["results"] is None  # the open phase
    assert again["press"] == [{"phase_index": 0, "from": "France", "to": "everyone",
                               "grey": False, "body": "Peace in our time.",
                               "sent_at": T0.isoformat()}]
    assert all("address" not in json.dumps(p) for p in again["powers"])


def test_the_demo_game_exports_and_passes(tmp_path: Path) -> None:
    """`gm demo` plays 1901 by mail; `gm export demo --scenario` reads its database and the
    cases pass; `gm export demo --json` gives the record."""
    data = tmp_path / "demo"
    subprocess.run([sys.executable, "-m", "gm", "demo", "--exit", "--pause", "0",
                    "--data-dir", str(data)], capture_output=True, text=True, check=True,
                   timeout=300)
    env = clean_env()
    env["GM_DATA_DIR"] = str(data)
    cases = tmp_path / "demo.txt"
    subprocess.run([sys.executable, "-m", "gm", "export", "demo", "--scenario", "-o",
                    str(cases)], env=env, check=True, timeout=300)
    assert "3 passed, 0 failed" in _run_scenario(cases)
    out = subprocess.run([sys.executable, "-m", "gm", "export", "demo", "--json"], env=env,
                         capture_output=True, text=True, check=True, timeout=300).stdout
    record = json.loads(out)
    assert len(record["phases"]) == 4 and record["phases"][2]["phase"] == "Winter 1901, Adjustment"
    missing = subprocess.run([sys.executable, "-m", "gm", "export", "nosuch", "--json"],
                             env=env, capture_output=True, text=True, timeout=300)
    assert missing.returncode == 1 and "no game called 'nosuch'" in missing.stderr


def test_a_finished_game_exports_its_last_phase(database: Database, tmp_path: Path) -> None:
    """The last phase of a finished game has no next phase stored: the export computes the
    final position again, and its case expects the winner (France takes Belgium: 18 centres)."""
    variant = get_variant("standard")
    owned = ("Par", "Mar", "Bre", "Spa", "Por", "Lon", "Lvp", "Edi", "Hol", "Mun", "Ber",
             "Kie", "Den", "Nwy", "Swe", "Ven", "Rom")
    state = variant.start_state().evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT),
        units=(Unit("France", UnitType.ARMY, Location("Bur")),
               Unit("England", UnitType.FLEET, Location("NTH"))),
        owners={c: "France" for c in owned})
    game = new_game(database, "final", opened=T0, deadline=T0, state=state)
    submit(database, game, {"France": ["A Bur - Bel"]}, T0)
    assert len(tick(database, config=maildir_config(tmp_path), clock=FixedClock(T0)).adjudicated) \
        == 1
    with database.read() as s:
        text = scenario_text(s, game)
    assert "POSTSTATE_WINNERS\n\tFrance" in text and "POSTSTATE_SETPHASE" not in text
    path = tmp_path / "final.txt"
    path.write_text(text)
    assert "1 passed, 0 failed" in _run_scenario(path)
