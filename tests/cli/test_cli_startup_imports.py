"""`gm tick`, `gm ingest` and `gm scenario` import only what they use: none of them loads the
libraries that draw a PNG (numpy, Pillow, Skia), which only the sender and `gm picture` need."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_LOADED = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "PIL", "skia")
                        or m in ("gm.pictures.png", "gm.pictures.paint"))))
"""


@pytest.mark.parametrize("module", ["gm.service.tick", "gm.service.ingest",
                                    "gm.scenario.runner", "gm.cli.tick", "gm.cli.scenario"])
def test_a_command_s_work_loads_no_drawing_library(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", _LOADED, module], capture_output=True,
                          check=True, text=True)
    assert json.loads(done.stdout) == []
