"""Scripted games through `gm scenario`: a game played phase by phase with gm.export's
Recorder becomes a scenario file (one case per phase), which the real command must pass."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from gm.engine.errors import OrderError
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.notation import parse_order

ROOT = Path(__file__).resolve().parent.parent.parent


def passes_gm_scenario(recorder: Recorder, tmp_path: Path) -> str:
    """Write the recorded game, run `gm scenario` on it, check every case passes; the text."""
    text = recorder.text()
    path = tmp_path / f"{recorder.title}.txt"
    path.write_text(text, encoding="utf-8")
    cases = sum(1 for line in text.splitlines() if line.startswith("CASE "))
    done = subprocess.run([sys.executable, "-m", "gm", "scenario", str(path)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0 and last == f"{cases} passed, 0 failed", done.stdout[-4000:]
    return text


Script = Mapping[str, Mapping[str, Sequence[str]]]


def scripted_orders(variant: Variant, state: GameState, script: Script) -> list[Submitted]:
    """The orders `script` gives for the current phase (keyed by its short name, `F1902M`),
    read by the real parser; every line must read."""
    gmap = variant.map_for(state)
    out = []
    for power, texts in script.get(variant.calendar.short(state.phase), {}).items():
        for text in texts:
            order = parse_order(text, gmap, state.phase.type, variant.order_kinds)
            assert not isinstance(order, OrderError), order
            out.append(Submitted(power, text, order))
    return out
