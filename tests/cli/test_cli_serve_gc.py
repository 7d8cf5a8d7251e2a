"""`gm serve` freezes what its start loaded (modules, grammars, configuration: all of it lives
as long as the service) before it serves, so that the garbage collector's full collections
skip those objects instead of walking them all every few hundred messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.environment import clean_env

_SERVED = """
import gc, json, sys
from gm.cli import main
frozen_before = gc.get_freeze_count()
status = main(["serve", "--once", "--config", sys.argv[1]])
print(json.dumps({"status": status, "before": frozen_before, "after": gc.get_freeze_count()}))
"""


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_serve_freezes_what_its_start_loaded(migrated_url: str, tmp_path: Path) -> None:
    config = tmp_path / "gm.toml"
    config.write_text(
        f'database_url = "{migrated_url}"\naddress = "judge@example.org"\n'
        f'[maildir]\ninbox = "{tmp_path / "inbox"}"\noutbox = "{tmp_path / "outbox"}"\n')
    done = subprocess.run([sys.executable, "-c", _SERVED, str(config)], capture_output=True,
                          check=True, text=True, env=clean_env())
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["status"] == 0, done.stderr
    assert found["before"] == 0
    assert found["after"] > 10_000  # the modules of the service, at least
