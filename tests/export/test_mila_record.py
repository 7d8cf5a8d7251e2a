"""The game record in the MILA saved-game format: a standard game gm played loads in the
`diplomacy` package and replays there to gm's positions, phase by phase."""

from __future__ import annotations

import json
from pathlib import Path

from diplomacy.utils.export import from_saved_game_format, load_saved_games_from_disk

from gm.play.mila import Reader, mila_record
from gm.play.played_game import played_game
from gm.store.db import Database
from tests.export.mila_play import play, replay


def test_a_standard_game_replays_in_the_diplomacy_package(database: Database,
                                                           tmp_path: Path) -> None:
    game = play(database, tmp_path, "replayed", last_year=1904, seed=46)
    with database.read() as s:
        record = mila_record(played_game(s, game), Reader("gm"))
    names = [p["name"] for p in record["phases"]]
    assert names[0] == "S1901M" and names[-1] == "S1905M"
    assert any(n.endswith("R") for n in names) and any(n.endswith("A") for n in names)
    assert sum(len(o) for p in record["phases"] for o in p["orders"].values()) > 100
    assert replay(record) == []
    # the file as written loads with the package's own reader, every phase kept
    path = tmp_path / "replayed.jsonl"
    path.write_text(json.dumps(record) + "\n")
    [loaded] = load_saved_games_from_disk(str(path))
    assert loaded.get_current_phase() == "S1905M"
    assert len(loaded.get_phase_history()) == len(names) - 1
    again = from_saved_game_format(record)
    assert {p: sorted(u) for p, u in again.get_units().items()} == {
        p: sorted(u) for p, u in record["phases"][-1]["state"]["units"].items()}


def test_a_broken_replay_is_found(database: Database, tmp_path: Path) -> None:
    """The replay compares: a record whose orders were changed disagrees at that phase."""
    game = play(database, tmp_path, "altered", last_year=1901, seed=7)
    with database.read() as s:
        record = mila_record(played_game(s, game), Reader("gm"))
    first = record["phases"][0]
    first["orders"]["FRANCE"] = ["A PAR - BUR", "A MAR H", "F BRE - MAO"]
    first["orders"]["GERMANY"] = ["A MUN H"]
    assert replay(record) and replay(record)[0].startswith("S1901M")
