"""The complete example of docs/variant-files.md is a variant file that loads and plays: read
from the page itself, so the page cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path

from gm.engine.geo import Location
from gm.variants.varfile import read_variant

PAGE = Path(__file__).resolve().parent.parent.parent / "docs" / "variant-files.md"


def test_the_documented_example_loads(tmp_path: Path) -> None:
    [example] = re.findall(r"```toml\n(.*?)```", PAGE.read_text(), re.S)
    path = tmp_path / "triangle.toml"
    path.write_text(example)
    v = read_variant(path).variant
    assert (v.name, v.title, v.aliases, v.solo_centres) == (
        "triangle", "Triangle", ("Triangle Diplomacy",), 2)
    assert v.homes == {"Red": ("Wes",), "Blue": ("Eas",)}
    assert sorted(v.map.centres) == ["Eas", "Mid", "Wes"]
    assert v.map.army_can_move("Wes", "Mid") and v.map.army_can_move("Mid", "Eas")
    assert v.map.fleet_can_move(Location("Eas"), Location("LAK"))
    assert v.help.startswith("Triangle: two powers")
