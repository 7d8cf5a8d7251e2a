"""Scripted games through `gm scenario`: a game played phase by phase with gm.export's
Recorder becomes a scenario file (one case per phase), which the real command must pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gm.export.scenario import Recorder

ROOT = Path(__file__).resolve().parent.parent


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
