"""`gm serve` and `gm ingest` as an operator runs them, and the service's clean shutdown."""

from __future__ import annotations

import asyncio
import io
import signal
import subprocess
import sys
import time
from pathlib import Path

from gm.cli.ingest import read_bounded
from gm.service.clock import FixedClock
from gm.service.serve import Service
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus
from tests.support.environment import clean_env
from tests.support.service_support import GM, START, maildir_config, message


def _config_file(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(
        f'database_url = "{url}"\n'
        'address = "judge@example.org"\n'
        "poll_interval = 0.1\n"
        "[maildir]\n"
        f'inbox = "{tmp_path / "inbox"}"\n'
        f'outbox = "{tmp_path / "outbox"}"\n'
    )
    return path


def _gm(*args: str, stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "gm", *args], input=stdin,
                          capture_output=True, env={**clean_env(), **env}, timeout=120)


def _deliver(inbox: Path, raw: bytes) -> None:
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns()}.test.localhost"
    (inbox / "tmp" / name).write_bytes(raw)
    (inbox / "tmp" / name).rename(inbox / "new" / name)


def test_serve_refuses_a_database_without_schema(tmp_path: Path) -> None:
    config = _config_file(tmp_path, f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    done = _gm("serve", "--config", str(config), "--once")
    assert done.returncode == 2
    assert b"gm db upgrade" in done.stderr


def test_serve_with_its_sender_worker_refuses_a_database_without_schema(tmp_path: Path) -> None:
    """The sender worker is started before the database is checked: the service says what is
    wrong once, and the worker (which failed the same check) ends with it, quietly."""
    config = _config_file(tmp_path, f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    done = _gm("serve", "--config", str(config))
    assert done.returncode == 2
    assert done.stderr.count(b"gm db upgrade") == 1, done.stderr
    assert b"exited with" not in done.stderr and b"Traceback" not in done.stderr


def test_a_wrong_password_cost_stops_the_start_with_what_it_may_be(migrated_url: str,
                                                                 tmp_path: Path) -> None:
    config = _config_file(tmp_path, migrated_url)
    _deliver(tmp_path / "inbox", message(GM, "CREATE delta standard secret"))
    done = _gm("serve", "--config", str(config), "--once", GM_SCRYPT_LOG2_N="30")
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "gm serve: GM_SCRYPT_LOG2_N must be a whole number from 10 to 20 (scrypt's n is 2 to "
        "that power; 14 when unset), not '30'\n")
    assert list((tmp_path / "inbox" / "new").iterdir())  # the message waits for a good start


def test_serve_once_answers_the_inbox(migrated_url: str, tmp_path: Path) -> None:
    config = _config_file(tmp_path, migrated_url)
    _deliver(tmp_path / "inbox", message(GM, "CREATE delta standard secret"))
    done = _gm("serve", "--config", str(config), "--once")
    assert done.returncode == 0, done.stderr
    replies = list((tmp_path / "outbox" / "new").iterdir())
    assert len(replies) == 1
    assert b"Game delta (Standard) created" in replies[0].read_bytes()
    assert not list((tmp_path / "inbox" / "new").iterdir())  # marked processed: moved to cur/


def test_ingest_reads_one_message(migrated_url: str, tmp_path: Path) -> None:
    config = _config_file(tmp_path, migrated_url)
    raw = message(GM, "LIST", message_id="<cli-once@example.org>")
    first = _gm("ingest", "--config", str(config), stdin=raw)
    again = _gm("ingest", "--config", str(config), stdin=raw)
    assert first.returncode == 0 and b"answered" in first.stdout, first.stderr
    assert again.returncode == 0 and b"duplicate" in again.stdout


def test_ingest_keeps_what_the_size_limit_allows_of_a_huge_message(
        migrated_url: str, tmp_path: Path, database: Database) -> None:
    """A message far over max_message_bytes on standard input is read through, not kept
    whole: stored as its headers and a prefix, and its sender answered (its size known)."""
    config = _config_file(tmp_path, migrated_url)
    raw = message(GM, "HELP\n" + "x" * 80 + "\n", message_id="<huge@example.org>")
    raw += b"y" * (30 << 20)  # 30 MB
    done = _gm("ingest", "--config", str(config), stdin=raw, GM_MAX_MESSAGE_BYTES="1000000")
    assert done.returncode == 0 and b"answered" in done.stdout, done.stderr
    with database.read() as s:
        (stored,) = inbound_repo.list_inbound(s)
        outbound = outbound_repo.list_outbound(s)
    assert len(stored.raw) < 100_000 and stored.raw.startswith(raw[:200])
    (reply,) = outbound
    assert f"larger than 1000000 bytes ({len(raw)} bytes)" in " ".join(
        reply.parts[0].text.split())  # its whole size, though not kept


def test_read_bounded_keeps_one_byte_past_the_limit_and_counts_the_rest() -> None:
    stream = io.BytesIO(b"a" * 5000)
    assert read_bounded(stream, 1000) == (b"a" * 1001, 5000)
    assert read_bounded(io.BytesIO(b"short"), 1000) == (b"short", 5)


def test_help_lists_serve_and_ingest() -> None:
    out = _gm("--help").stdout
    assert b"serve" in out and b"ingest" in out


def test_sigterm_stops_serve_cleanly(migrated_url: str, tmp_path: Path) -> None:
    config = _config_file(tmp_path, migrated_url)
    env = clean_env()
    proc = subprocess.Popen([sys.executable, "-m", "gm", "serve", "--config", str(config)],
                            env=env, stderr=subprocess.PIPE)
    try:
        _deliver(tmp_path / "inbox", message(GM, "HELP"))
        outbox = tmp_path / "outbox" / "new"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (outbox.exists() and any(outbox.iterdir())):
            time.sleep(0.1)
        assert outbox.exists() and len(list(outbox.iterdir())) == 1
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_stop_finishes_the_message_in_hand(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    service = Service(database, config, clock=FixedClock(START))
    for n in range(3):
        _deliver(config.maildir.inbox, message(GM, f"CREATE g{n} standard pw"))
    task = asyncio.create_task(service.run())
    outbox = config.maildir.outbox / "new"
    for _ in range(600):
        if outbox.exists() and any(outbox.iterdir()):
            break
        await asyncio.sleep(0.05)
    service.stop()
    await asyncio.wait_for(task, 30)
    with database.read() as s:
        stored = inbound_repo.list_inbound(s)
    # every message taken was finished: processed and answered, none left half done
    assert stored and all(r.status is InboundStatus.PROCESSED for r in stored)
    assert len(list(outbox.iterdir())) == len(stored)
