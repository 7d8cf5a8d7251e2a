"""The order grammar's parse table is cached in the user's cache directory between runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gm.notation.table_cache import cache_dir, cached_json


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "gm"


def test_a_value_is_built_once_then_read_back(cache: Path) -> None:
    calls: list[int] = []

    def build() -> dict[str, int]:
        calls.append(1)
        return {"states": 42}

    assert cached_json("table", "grammar text", 1, build) == {"states": 42}
    assert cached_json("table", "grammar text", 1, build) == {"states": 42}
    assert len(calls) == 1
    assert cache_dir() == cache and len(list(cache.glob("table-*.json"))) == 1


def test_another_source_or_version_is_rebuilt(cache: Path) -> None:
    assert cached_json("table", "grammar v1", 1, lambda: "one") == "one"
    assert cached_json("table", "grammar v2", 1, lambda: "two") == "two"
    assert cached_json("table", "grammar v2", 2, lambda: "three") == "three"
    assert cached_json("table", "grammar v1", 1, lambda: "unused") == "one"


def test_a_broken_or_tampered_cache_file_is_rebuilt(cache: Path) -> None:
    cached_json("table", "src", 1, lambda: [1, 2])
    (path,) = cache.glob("table-*.json")
    path.write_text("{not json")
    assert cached_json("table", "src", 1, lambda: [3]) == [3]
    path.write_text(json.dumps({"version": 1, "source": "other", "value": [9]}))
    assert cached_json("table", "src", 1, lambda: [4]) == [4]


def test_an_unwritable_cache_location_is_not_an_error(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert cached_json("table", "src", 1, lambda: "built") == "built"
    assert cached_json("table", "src", 1, lambda: "again") == "again"


def test_orders_parse_the_same_with_a_fresh_and_a_warm_cache(tmp_path: Path) -> None:
    script = (
        "from gm.notation import parse_order\n"
        "from gm.variants.maps import standard_map\n"
        "m = standard_map()\n"
        "for t in ('A Par-Bur', 'F ENG C A Lon-Bre', 'F StP north coast - BAR', 'A Par S Mar',"
        " 'Build F StP/nc', 'Waive . A', 'A Par supprts Mar'):\n"
        "    print(parse_order(t, m))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    run = [sys.executable, "-c", script]
    cold = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert list((tmp_path / "gm").glob("*.json")), "the table was cached"
    warm = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert cold == warm
    assert "A Par - Bur" in cold and "F ENG C A Lon - Bre" in cold
