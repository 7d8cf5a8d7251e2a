"""`variants_dir` (GM_VARIANTS_DIR): a folder of variant files, relative to the configuration
file's folder (the environment's to the working directory); none by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.config import ConfigError, load_config


def test_variants_dir_is_read_from_the_file_and_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "gm.toml"
    path.write_text('variants_dir = "variants"\n')
    assert load_config(path, {}).variants_dir == tmp_path / "variants"
    assert load_config(path, {"GM_VARIANTS_DIR": "/srv/v"}).variants_dir == Path("/srv/v")
    assert load_config(None, {}).variants_dir is None


def test_a_variants_dir_that_is_no_path_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "gm.toml"
    path.write_text("variants_dir = 7\n")
    with pytest.raises(ConfigError, match="variants_dir: expected a string, got 7"):
        load_config(path, {})
