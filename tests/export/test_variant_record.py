"""A variant's record has the MILA saved game's shape in gm's own names (docs/game-record.md):
a Chaos II game played through the tick (its builds, then a movement with moves and
supports) is written with its map's, powers' and phases' names, and `gm import`'s reader
reads it back and replays it through gm's adjudicator without a disagreement."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gm.play.import_mila import read_saved_game, replay
from gm.play.mila import Reader, mila_record
from gm.play.played_game import played_game
from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.service_support import maildir_config
from tests.support.tick_support import new_game, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_a_chaos2_record_keeps_gms_names_and_replays(database: Database,
                                                     tmp_path: Path) -> None:
    game = new_game(database, "chaos", opened=T0, deadline=T0 + timedelta(hours=1),
                    variant="chaos2")
    config = maildir_config(tmp_path)
    with database.read() as s:
        first = phases_repo.current_phase(s, game)
        assert first is not None
    builds = {"Paris": ["Build A Par"], "Brest": ["Build F Bre"], "Belgium": ["Build A Bel"],
              "Marseilles": ["Build A Mar"]}
    submit(database, game, builds, T0)
    assert len(tick(database, config=config, clock=FixedClock(T0 + timedelta(days=3)))
               .adjudicated) == 1
    moves = {"Paris": ["A Par - Pic"], "Belgium": ["A Bel S A Mar - Bur"],
             "Marseilles": ["A Mar - Bur"], "Brest": ["F Bre - MAO"]}
    submit(database, game, moves, T0 + timedelta(days=3))
    assert len(tick(database, config=config, clock=FixedClock(T0 + timedelta(days=6)))
               .adjudicated) == 1
    with database.read() as s:
        record = mila_record(played_game(s, game), Reader("gm"))
    again = json.loads(json.dumps(record))
    assert again["map"] == "chaos2" and again["gm"]["variant"] == "chaos2"
    names = [p["name"] for p in again["phases"]]
    assert names[:3] == ["W1900A", "S1901M", "F1901M"], names
    assert again["phases"][0]["orders"]["Paris"] == ["Build A Par"]
    assert again["phases"][1]["orders"]["Belgium"] == ["A Bel S A Mar - Bur"]
    assert again["phases"][2]["state"]["units"]["Marseilles"] == ["A Bur"]
    assert again["phases"][2]["state"]["units"]["Paris"] == ["A Pic"]
    assert again["phases"][1]["state"]["centers"]["Paris"] == ["Par"]
    saved = read_saved_game(again)
    assert saved.variant.name == "chaos2" and len(saved.phases) == 3
    assert replay(saved) == []
