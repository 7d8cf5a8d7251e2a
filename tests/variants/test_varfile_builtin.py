"""The built-in standard game, Deluge II and Abstraction2 are declared as variant files
(gm/variants/data/standard.toml, deluge2.toml, abstraction2.toml) and built through the same
loader as any other file: the rulebook's 1901 position, its powers, homes and 18-centre solo,
on the one standard map the other variants share; Deluge II's and Abstraction2's rules are the
hook sets their files name (the scenario files and golden mails, run by their own tests, are
unchanged by it). A variant file's terrain events are played as Deluge II and Sahara play
them."""

from __future__ import annotations

from pathlib import Path
from types import MethodType

import pytest

from gm.engine.army_fleet import resolve_movement_af
from gm.engine.geo import Terrain
from gm.engine.variant import Hooks, OrderKind
from gm.paths import VARIANT_DATA
from gm.variants import abstraction2, deluge2, get_variant
from gm.variants.frozen import FrozenRegions
from gm.variants.maps import ring_map, standard_map
from gm.variants.standard import FILE
from gm.variants.varfile import VariantFileErrors, read_variant

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


def test_deluge_ii_is_its_file_and_its_rules_the_hook_set_it_names() -> None:
    v = get_variant("Deluge II")
    rules = deluge2.rules()
    assert read_variant(VARIANT_DATA / "deluge2.toml").variant.help == v.help == rules.help
    assert v.map is standard_map() and v.start_units == ()
    assert (str(v.start_phase), v.solo_centres) == ("Winter 1900, Adjustment", None)
    assert v.scheduled == rules.scheduled == deluge2.tables().events
    assert v.order_kinds == {OrderKind.TRANSFORM, OrderKind.ARMY_FLEET}
    for name in ("before_phase", "resolve_retreats", "resolve_adjustments",
                 "end_of_phase", "apply_scheduled", "build_sites", "victory"):
        assert getattr(v.hooks, name) is getattr(rules.hooks, name), name
    # rule 2 is the file's `transforms = true`: the set's A/F movement, with transforms
    assert rules.hooks.resolve_movement is resolve_movement_af
    assert v.hooks.resolve_movement is not resolve_movement_af
    assert OrderKind.TRANSFORM not in rules.order_kinds
    assert v.powers == get_variant("standard").powers
    assert v.homes == get_variant("standard").homes


def test_events_and_a_hook_set_with_its_own_schedule_are_refused(tmp_path: Path) -> None:
    (tmp_path / "isthmia.map").write_text((DATA / "isthmia.map").read_text())
    path = tmp_path / "isthmia.toml"
    path.write_text((DATA / "isthmia.toml").read_text().replace(
        "victory = 6", 'victory = 6\nhooks = "deluge2"\n\n[[events]]\nwhen = "W1901"\n'
        'kind = "submerge"\nprovinces = ["Dun"]\n'))
    with pytest.raises(VariantFileErrors) as caught:
        read_variant(path)
    line = path.read_text().splitlines().index("[[events]]") + 1
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:{line}: the hook set plays its own dated changes: give events only with hooks "
        'that have none (e.g. hooks = "standard")']


def test_abstraction2_is_its_file_and_its_rules_the_hook_set_it_names() -> None:
    v = get_variant("Abstraction II")
    rules = abstraction2.rules()
    assert v.map is ring_map("abstraction2") and ("CMS", "TYS") in read_variant(
        VARIANT_DATA / "abstraction2.toml").passages
    assert v.calendar == abstraction2.calendar()
    assert (str(v.start_phase), v.solo_centres) == ("July 1914, Movement", 23)
    assert v.order_kinds == {OrderKind.ARMY_FLEET, OrderKind.EXCHANGE}
    assert v.help == rules.help and v.help.count("A/F") == rules.help.count("A/F")
    for name in ("before_phase", "resolve_retreats", "resolve_adjustments",
                 "after_movement", "victory"):
        assert getattr(v.hooks, name) is getattr(rules.hooks, name), name
    # rule 5 is the file's [frozen]: the A/F moves with the regions of the module's rule
    assert rules.hooks.resolve_movement is None
    moves = v.hooks.resolve_movement
    assert isinstance(moves, MethodType) and moves.__self__ == abstraction2.REGIONS
    assert FrozenRegions(
        frozenset({"January", "February", "April"}), frozenset({"ARO", "BAR", "Arc", "Lap", "Ice"}),
        frozenset({"Lap", "Arc"})) == abstraction2.REGIONS
    russia = sorted(str(u.location) for u in v.start_units if u.power == "Russia")
    assert russia == ["Arc", "Mos", "Ode", "StP", "War"]
    assert [u.power for u in v.start_units if str(u.location) == "Tyr"] == ["Austria"]
