"""`gm demo` (the README's first command runs it): the real service plays 1901 by mail."""

from __future__ import annotations

import mailbox
import subprocess
import sys
from pathlib import Path


def test_demo_runs_the_service_and_the_reports_reach_the_outbox(tmp_path: Path) -> None:
    data = tmp_path / "demo"
    out = subprocess.run(
        [sys.executable, "-m", "gm", "demo", "--exit", "--pause", "0", "--data-dir", str(data)],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    assert "Game demo (Standard) created; you are its GM." in out
    assert "A Vie - Gal  (fails: bounced with A War (1 against 1))" in out
    assert "Spring 1901, Movement of demo processed" in out
    assert "Winter 1901, Adjustment of demo processed" in out
    assert "Now: Spring 1902, Movement." in out
    # everything printed came from the service's outbox: replies to 22 messages + 3 x 8 reports
    sent = mailbox.Maildir(data / "outbox", create=False)
    subjects = [str(message["Subject"]) for message in sent]
    assert len(subjects) >= 1 + 3 * 8 + 3 * 8
    assert (data / "gm.sqlite3").exists() or any(data.glob("*.sqlite3"))
    inbox = mailbox.Maildir(data / "inbox", create=False)
    assert len(list((data / "inbox" / "new").iterdir())) == 0  # every message was processed
    assert len(inbox.keys()) == 1 + 3 * 8


def test_engine_demo_plays_a_year() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gm", "demo", "--engine", "--pause", "0"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "== Spring 1901, Movement" in out
    assert "A Vie-Gal                fails: bounced with A War" in out
    assert "A Yor-Nwy                succeeds: moves to Nwy by convoy" in out
    assert "Build F StP/nc           succeeds" in out
    assert "England 4" in out.split("-- now Winter 1901, Adjustment")[1].splitlines()[0]
    assert out.rstrip().splitlines()[-1].startswith("-- now Spring 1902, Movement")


def test_help_lists_every_subcommand() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gm", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("demo", "scenario", "db", "serve", "ingest"):
        assert command in out
