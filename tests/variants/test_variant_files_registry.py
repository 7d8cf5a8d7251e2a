"""Every built-in variant is built from its file: the files in gm/variants/data are the one
list of them, each names its rules (a hook set), and no variant module builds a variant."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from gm.paths import VARIANT_DATA
from gm.variants import canonical_name, get_variant, names
from gm.variants.hook_sets import hook_set, hook_set_names

FILES = sorted(VARIANT_DATA.glob("*.toml"))


def test_the_built_in_variants_are_the_files() -> None:
    stems = {path.stem for path in FILES}
    assert stems == {"standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical"}
    assert names()[0] == "standard" and set(names()[: len(stems)]) == stems


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_file_gives_its_variant_names_and_rules(path: Path) -> None:
    declared = tomllib.loads(path.read_text(encoding="utf-8"))
    variant = get_variant(declared["name"])
    assert variant.name == declared["name"] and variant.title == declared["title"]
    for alias in declared["aliases"]:
        assert canonical_name(alias) == variant.name
    assert declared["hooks"] in hook_set_names()
    assert hook_set(declared["hooks"]) is not None


@pytest.mark.parametrize("module", ["standard", "deluge2", "sahara", "abstraction2", "chaos2",
                                    "geophysical"])
def test_no_variant_module_builds_or_names_a_variant(module: str) -> None:
    found = importlib.import_module(f"gm.variants.{module}")
    assert not hasattr(found, "build") and not hasattr(found, "ALIASES")


@pytest.mark.parametrize("name", ["x" * 5000, "../standard", "standard/../standard", "a\x00b",
                                  "convoy disband c france aa\udcff-b"])
def test_a_name_no_file_can_have_is_only_unknown(name: str) -> None:
    assert canonical_name(name) is None  # never an error of the file system

