"""Loading a folder of variant files (gm.variants.registry.load_directory): the good files load
and are found by name and alias after the built-in variants; each file that fails (bad TOML,
a hook set that does not exist, a name or alias taken, a huge file) is logged and skipped while
the others load; a changed file is read again, a removed one dropped."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm.variants import registry
from gm.variants.varfile import MAX_BYTES

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def _no_loaded_variants() -> Iterator[None]:
    yield
    registry.forget_loaded()


def _folder(tmp_path: Path) -> Path:
    for name in ("isthmia.toml", "isthmia.map"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def test_good_files_load_and_broken_ones_are_logged_and_skipped(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = _folder(tmp_path)
    isthmia = (DATA / "isthmia.toml").read_text()
    (folder / "a-bad-toml.toml").write_text("name = \n")
    (folder / "b-hostile.toml").write_text(isthmia.replace(
        'name = "isthmia"', 'name = "hostile"\nhooks = "subprocess"').replace(
        'aliases = ["Isthmus Diplomacy", "isthmus"]', "aliases = []"))
    (folder / "c-standard.toml").write_text(isthmia.replace('name = "isthmia"',
                                                            'name = "standard"'))
    (folder / "d-alias.toml").write_text(isthmia.replace('name = "isthmia"', 'name = "other"')
                                         .replace('"isthmus"]', '"classic"]'))
    (folder / "e-huge.toml").write_text("#" * (MAX_BYTES + 1))
    with caplog.at_level(logging.ERROR, logger="gm.variants.registry"):
        loaded = registry.load_directory(folder)
    assert loaded.names == ("isthmia",)
    refused = dict(loaded.refused)
    assert sorted(p.name for p in refused) == [
        "a-bad-toml.toml", "b-hostile.toml", "c-standard.toml", "d-alias.toml", "e-huge.toml"]
    assert "not valid TOML" in refused[folder / "a-bad-toml.toml"]
    assert "no hook set is called 'subprocess'" in refused[folder / "b-hostile.toml"]
    assert "the name or alias 'standard' is taken by another variant" in \
        refused[folder / "c-standard.toml"]
    assert "the name or alias 'classic' is taken by another variant" in \
        refused[folder / "d-alias.toml"]
    assert "a variant file may have at most" in refused[folder / "e-huge.toml"]
    for name in refused:
        assert f"variant file {name} is not loaded" in caplog.text
    # found after the built-in ones, by name and alias in any case
    assert registry.names()[-1] == "isthmia" and registry.names()[0] == "standard"
    assert registry.canonical_name("ISTHMUS  diplomacy") == "isthmia"
    assert registry.get_variant("Isthmus").title == "Isthmia"
    assert registry.get_variant("classic").name == "standard"
    path, digest = registry.file_of("isthmia") or (None, "")
    assert path == folder / "isthmia.toml" and len(digest) == 64
    assert registry.file_of("standard") is None


def test_a_changed_file_is_read_again_and_a_removed_one_dropped(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    registry.load_directory(folder)
    first = registry.get_variant("isthmia")
    registry.load_directory(folder)
    assert registry.get_variant("isthmia") is first  # unchanged: kept as read
    path = folder / "isthmia.toml"
    path.write_text(path.read_text().replace('title = "Isthmia"', 'title = "Isthmia II"'))
    registry.load_directory(folder)
    assert registry.get_variant("isthmia").title == "Isthmia II"
    path.unlink()
    assert registry.load_directory(folder).names == ()
    assert registry.canonical_name("isthmia") is None
