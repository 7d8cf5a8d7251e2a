"""`gm demo` (the README's first command runs it) plays 1901 through the real engine."""

from __future__ import annotations

import subprocess
import sys


def test_demo_plays_a_year() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gm", "demo"], capture_output=True, text=True, check=True
    ).stdout
    assert "== Spring 1901, Movement" in out
    assert "A Vie-Gal                fails: bounced with A War" in out
    assert "A Yor-Nwy                succeeds: moves to Nwy by convoy" in out
    assert "Build F StP/nc           succeeds" in out
    # England took Nwy in the Fall: four centres in the Winter
    assert "England 4" in out.split("-- now Winter 1901, Adjustment")[1].splitlines()[0]
    assert out.rstrip().splitlines()[-1].startswith("-- now Spring 1902, Movement")


def test_help_lists_every_subcommand() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gm", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("demo", "scenario", "db"):
        assert command in out
