"""The built-in standard game is declared as a variant file (gm/variants/data/standard.toml)
and built through the same loader as any other file: the rulebook's 1901 position, its powers,
homes and 18-centre solo, on the one standard map the other variants share (the scenario files
and golden mails, run by their own tests, are unchanged by it). A variant file's terrain events
are played as Deluge II and Sahara play them."""

from __future__ import annotations

from pathlib import Path

from gm.engine.geo import Terrain
from gm.engine.variant import Hooks
from gm.variants import get_variant
from gm.variants.maps import standard_map
from gm.variants.standard import FILE
from gm.variants.varfile import read_variant

DATA = Path(__file__).resolve().parent / "data"


def test_the_standard_game_is_its_file() -> None:
    v = get_variant("classic")
    read = read_variant(FILE)
    assert read.path.name == "standard.toml"
    assert v.map is standard_map() is read.variant.map
    assert [(p.name, p.adjective, p.letter) for p in v.powers] == [
        ("Austria", "Austrian", "A"), ("England", "English", "E"), ("France", "French", "F"),
        ("Germany", "German", "G"), ("Italy", "Italian", "I"), ("Russia", "Russian", "R"),
        ("Turkey", "Turkish", "T")]
    assert sorted(f"{u.power[0]} {u.type.value} {u.location}" for u in v.start_units) == sorted([
        "A A Bud", "A A Vie", "A F Tri", "E F Edi", "E F Lon", "E A Lvp", "F F Bre", "F A Mar",
        "F A Par", "G F Kie", "G A Ber", "G A Mun", "I F Nap", "I A Rom", "I A Ven", "R A War",
        "R A Mos", "R F Sev", "R F StP/sc", "T F Ank", "T A Con", "T A Smy"])
    assert v.homes["Russia"] == ("Mos", "Sev", "StP", "War")
    assert sum(map(len, v.homes.values())) == 22 and len(v.map.centres) == 34
    assert (v.solo_centres, v.hooks, v.order_kinds, v.scheduled) == (18, Hooks(), frozenset(), ())
    assert (str(v.start_phase), v.title) == ("Spring 1901, Movement", "Standard")
    for field in ("name", "title", "aliases", "calendar", "powers", "start_phase",
                  "start_units", "homes", "solo_centres"):
        assert getattr(v, field) == getattr(read.variant, field), field


def test_a_file_s_terrain_events_are_played(tmp_path: Path) -> None:
    text = (DATA / "isthmia.toml").read_text().replace("victory = 6", """victory = 6

[[events]]
when = "F1901"
kind = "submerge"
provinces = ["Dunmoor"]

[[events]]
when = "F1901"
kind = "lose centre"
provinces = ["Rid"]
""")
    (tmp_path / "isthmia.map").write_text((DATA / "isthmia.map").read_text())
    path = tmp_path / "isthmia.toml"
    path.write_text(text)
    v = read_variant(path).variant
    hook = v.hooks.apply_scheduled
    assert hook is not None and len(v.scheduled) == 2
    step = hook(v, v.start_state(), v.scheduled)
    after = v.map_for(step.state)
    assert after.terrain["Dun"] is Terrain.SEA
    assert "Dun" not in after.centres and "Rid" not in after.centres
    assert len(step.events) == 2, step.events
