"""Scripted games through `gm scenario`: a game played phase by phase with gm.export's
Recorder becomes a scenario file (one case per phase), which the real command must pass."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from gm.cli import main
from gm.engine.errors import OrderError
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.notation import parse_order


def passes_gm_scenario(recorder: Recorder, tmp_path: Path) -> str:
    """Write the recorded game, run `gm scenario` on it, check every case passes; the text.
    The command runs through the `gm` command's own entry point (gm.cli.main) in this
    process, its output read as printed: a process of its own would add its start (a second
    of CPU) and nothing the command does (tests/scenario and tests/cli run it as a process)."""
    text = recorder.text()
    path = tmp_path / f"{recorder.title}.txt"
    path.write_text(text, encoding="utf-8")
    cases = sum(1 for line in text.splitlines() if line.startswith("CASE "))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["scenario", str(path)])
    printed = out.getvalue()
    last = printed.strip().splitlines()[-1] if printed.strip() else err.getvalue()
    assert status == 0 and last == f"{cases} passed, 0 failed", printed[-4000:]
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
