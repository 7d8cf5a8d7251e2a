"""Variant files for the tests: a copy of a test variant's files, changed as a test asks, and
what reading one reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.variants.varfile import VariantFileErrors, read_variant

DATA = Path(__file__).resolve().parent / "data"


def isthmia_copy(tmp_path: Path, toml: str | None = None, map_text: str | None = None,
                 edit_toml: tuple[str, str] | None = None,
                 edit_map: tuple[str, str] | None = None) -> Path:
    """Isthmia's files in tmp_path (its file and map, or those given), each edit (what is
    there, what to write instead) made once; the path of the variant file."""
    text = toml if toml is not None else (DATA / "isthmia.toml").read_text()
    data = map_text if map_text is not None else (DATA / "isthmia.map").read_text()
    if edit_toml is not None:
        assert edit_toml[0] in text, edit_toml
        text = text.replace(*edit_toml, 1)
    if edit_map is not None:
        assert edit_map[0] in data, edit_map
        data = data.replace(*edit_map, 1)
    (tmp_path / "isthmia.map").write_text(data)
    path = tmp_path / "isthmia.toml"
    path.write_text(text)
    return path


def errors(path: Path) -> list[str]:
    """What reading the variant file at `path` refuses, each problem as the check says it."""
    with pytest.raises(VariantFileErrors) as caught:
        read_variant(path)
    return [str(p) for p in caught.value.problems]


def line_of(path: Path, needle: str) -> int:
    """The number of the first line of `path` that holds `needle`."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)
