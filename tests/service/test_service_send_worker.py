"""`gm serve` sends its replies from a sender worker process: every reply goes out exactly once,
and the worker ends with the service (stopped, or killed)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gm.service.sender import TOGETHER
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import OutboundStatus
from tests.support.environment import clean_env
from tests.support.service_support import GM, PLAYERS, deliver, message

pytestmark = pytest.mark.postgresql_too  # a worker process claims rows another writes

WAIT = 90.0


def _config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(
        f'database_url = "{url}"\naddress = "judge@example.org"\npoll_interval = 0.1\n'
        f'[maildir]\ninbox = "{tmp_path / "inbox"}"\noutbox = "{tmp_path / "outbox"}"\n')
    return path


def _serve(config: Path, log: Path) -> subprocess.Popen[bytes]:
    env = clean_env()
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "gm", "serve", "--config", str(config)],
                                env=env, stdout=out, stderr=subprocess.STDOUT)


def _wait(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _workers(pid: int) -> list[int]:
    """The sender worker processes started by process `pid`."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(k) for k in path.read_text().split()] if path.exists() else []
    return [k for k in kids if b"--sender-worker" in _cmdline(k)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"  # exited (a zombie until its parent, killed here, is reaped by init)


def _sent(db: Database) -> list[OutboundStatus]:
    with db.read() as s:
        return [o.status for o in outbound_repo.list_outbound(s, limit=10_000)]


def _replies(outbox: Path) -> list[bytes]:
    new = outbox / "new"
    return [p.read_bytes() for p in new.iterdir()] if new.exists() else []


def _messages(count: int) -> list[bytes]:
    senders = sorted(PLAYERS.values())
    return [message(senders[n % len(senders)], "HELP", message_id=f"<help-{n}@example.org>")
            for n in range(count)]


def test_replies_are_sent_once_by_the_worker_and_it_stops_with_the_service(
        migrated_url: str, database: Database, tmp_path: Path) -> None:
    config, log = _config(tmp_path, migrated_url), tmp_path / "serve.log"
    proc = _serve(config, log)
    try:
        _wait(lambda: bool(_workers(proc.pid)), "the sender worker")
        (worker,) = _workers(proc.pid)
        for raw in [message(GM, "LIST"), *_messages(30)]:
            deliver(tmp_path / "inbox", raw)
        _wait(lambda: len(_replies(tmp_path / "outbox")) >= 31, "31 replies")
        _wait(lambda: _sent(database) == [OutboundStatus.SENT] * 31, "31 sent rows")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, log.read_text(errors="replace")[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _gone(worker)
    text = log.read_text(errors="replace")
    assert f"sender worker started (process {worker})" in text
    # sent by the worker: each reply once (one file per Message-ID, one send attempt per row)
    assert len(_replies(tmp_path / "outbox")) == 31
    with database.read() as s:
        rows = outbound_repo.list_outbound(s, limit=10_000)
    assert len(rows) == 31 and all(r.attempts == 1 for r in rows)
    assert "already in the outbox" not in text


def test_a_killed_service_takes_its_worker_down_after_the_replies_in_hand(
        migrated_url: str, database: Database, tmp_path: Path) -> None:
    config, log = _config(tmp_path, migrated_url), tmp_path / "serve.log"
    for raw in _messages(150):
        deliver(tmp_path / "inbox", raw)
    proc = _serve(config, log)
    try:
        _wait(lambda: len(_replies(tmp_path / "outbox")) >= 5, "the first replies")
        (worker,) = _workers(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        # its input closed: the worker sends what was committed, then exits by itself
        _wait(lambda: _gone(worker), "the worker to exit")
        committed = _sent(database)
        assert committed and set(committed) == {OutboundStatus.SENT}
        assert len(_replies(tmp_path / "outbox")) == len(committed)
        # a new service answers the rest, each message once
        proc = _serve(config, log)
        _wait(lambda: bool(_workers(proc.pid)), "the new sender worker")
        _wait(lambda: len(_replies(tmp_path / "outbox")) >= 150, "150 replies")
        _wait(lambda: _sent(database) == [OutboundStatus.SENT] * 150, "150 sent rows")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, log.read_text(errors="replace")[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert len(_replies(tmp_path / "outbox")) == 150
    assert "already in the outbox" not in log.read_text(errors="replace")


def test_a_killed_worker_is_logged_and_replaced_and_the_replies_keep_going_out(
        migrated_url: str, database: Database, tmp_path: Path) -> None:
    config, log = _config(tmp_path, migrated_url), tmp_path / "serve.log"
    proc = _serve(config, log)
    try:
        _wait(lambda: bool(_workers(proc.pid)), "the sender worker")
        (first,) = _workers(proc.pid)
        for raw in _messages(10):
            deliver(tmp_path / "inbox", raw)
        _wait(lambda: len(_replies(tmp_path / "outbox")) >= 10, "10 replies")
        os.kill(first, signal.SIGKILL)
        # logged at once, and a new worker (another process) started after the backoff
        _wait(lambda: f"sender worker {first} killed by SIGKILL" in log.read_text(),
              "the dead worker logged")
        _wait(lambda: [w for w in _workers(proc.pid) if w != first] != [], "a new worker")
        (second,) = _workers(proc.pid)
        assert second != first
        for n, raw in enumerate(_messages(30)[10:]):
            deliver(tmp_path / "inbox", raw)
            if n == 10:  # the new worker dies too: replaced again, a backoff step later
                os.kill(second, signal.SIGKILL)
        _wait(lambda: f"sender worker {second} killed by SIGKILL" in log.read_text(),
              "the second dead worker logged")
        _wait(lambda: [w for w in _workers(proc.pid) if w != second] != [], "a third worker")
        (third,) = _workers(proc.pid)
        for raw in _messages(40)[30:]:
            deliver(tmp_path / "inbox", raw)
        _wait(lambda: len(_replies(tmp_path / "outbox")) >= 40, "40 replies")
        _wait(lambda: _sent(database) == [OutboundStatus.SENT] * 40, "40 sent rows")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, log.read_text(errors="replace")[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _gone(third)
    text = log.read_text(errors="replace")
    assert len({first, second, third}) == 3
    for worker in (first, second, third):
        assert f"sender worker started (process {worker})" in text
    errors = [line for line in text.splitlines() if " ERROR " in line]
    assert len(errors) == 2, errors
    assert "in 1 s" in errors[0] and "in 2 s" in errors[1]  # the backoff doubles
    # the last replies went out from the third worker, which sent them and stopped cleanly
    (stops,) = [line for line in text.splitlines() if f"sender worker {third} stops" in line]
    assert int(stops.split("stops: ")[1].split()[0]) >= 1
    # each reply once: a file per Message-ID in the outbox; a reply a killed worker had
    # written but not yet marked sent is taken back at once and written again (the Maildir
    # recognises it): at most one written batch (sender.TOGETHER) per kill, and only what
    # was taken back from the killed worker
    assert len(_replies(tmp_path / "outbox")) == 40
    again = text.count("already in the outbox")
    taken_back = sum(int(n) for n in re.findall(r"took back (\d+) outbound messages", text))
    assert again <= 2 * TOGETHER and taken_back >= again, text
