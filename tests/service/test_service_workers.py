"""Several `gm` processes on one database: no message is processed twice, no phase is
adjudicated twice (storage issue: "several workers"). Real processes, real databases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store.db import open_database
from gm.store.statuses import InboundStatus
from tests.support.environment import clean_env
from tests.support.service_support import GM, PLAYERS, SPRING_1901, message

pytestmark = pytest.mark.postgresql_too  # several processes on one database

GAME = "race"


def _config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(
        f'database_url = "{url}"\n'
        'address = "judge@example.org"\n'
        "[maildir]\n"
        f'inbox = "{tmp_path / "inbox"}"\n'
        f'outbox = "{tmp_path / "outbox"}"\n'
    )
    return path


def _ingest_together(config: Path, raw: bytes, workers: int = 2) -> None:
    """Start `workers` `gm ingest` processes on the same message at once; wait for all."""
    env = clean_env()
    procs = [
        subprocess.Popen([sys.executable, "-m", "gm", "ingest", "--config", str(config)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env)
        for _ in range(workers)
    ]
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(raw)
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else b""


@pytest.mark.slow  # two gm processes over the same work, a minute or more
def test_two_processes_share_the_work_once(migrated_url: str, tmp_path: Path) -> None:
    config = _config(tmp_path, migrated_url)
    setup = "\n".join(
        [f"CREATE {GAME} standard gmpass"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["START"]
    )
    mails = [message(GM, setup, subject="setup")]
    mails += [
        message(addr, "\n".join([f"SIGNON {power} {GAME} pw{power.lower()}",
                                 *SPRING_1901[power]]), subject=f"{power} orders")
        for power, addr in PLAYERS.items()
    ]
    for raw in mails:
        _ingest_together(config, raw)
    # one PROCESS message delivered to four processes at once (a redelivery race)
    process = message(GM, f"SIGNON GM {GAME} gmpass\nPROCESS", subject="process")
    env = clean_env()
    procs = [
        subprocess.Popen([sys.executable, "-m", "gm", "ingest", "--config", str(config)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
        for _ in range(4)
    ]
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(process)
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=120) == 0

    db = open_database(migrated_url)
    try:
        with db.read() as s:
            inbound = inbound_repo.list_inbound(s, limit=1000)
            outbound = outbound_repo.list_outbound(s, limit=1000)
            game = games_repo.find_game(s, GAME)
            assert game is not None
            history = phases_repo.history(s, game.id)
    finally:
        db.dispose()
    # every message stored once and processed once
    assert len(inbound) == len(mails) + 1
    assert all(m.status is InboundStatus.PROCESSED for m in inbound)
    # one reply per message: no message was answered twice; the copies the other processes
    # got are answered "already read" once between them
    replies: dict[int, int] = {}
    copies: dict[int, int] = {}
    for out in outbound:
        if out.inbound_id is not None and "Re:" in dict(out.headers).get("Subject", ""):
            counts = copies if "was already read" in out.parts[0].text else replies
            counts[out.inbound_id] = counts.get(out.inbound_id, 0) + 1
    assert sorted(replies) == sorted(m.id for m in inbound)
    assert set(replies.values()) == {1}
    assert set(copies.values()) <= {1}
    # Spring 1901 adjudicated exactly once: two phases, the first with results, the next open
    assert [str(p.phase) for p in history] == ["Spring 1901, Movement", "Fall 1901, Movement"]
    assert history[0].results is not None and history[1].results is None
