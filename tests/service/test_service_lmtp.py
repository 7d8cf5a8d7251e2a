"""`gm serve` taking its mail over LMTP, and woken by other processes that queue mail.

The service runs as in production (its run loop, the Maildir outbox); a mail server's delivery
is the standard library's LMTP client, and the processes beside it are real `gm` commands.
"""

from __future__ import annotations

import asyncio
import smtplib
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import gm.service.serve as serve_module
from gm.config import Config, LmtpConfig
from gm.service.clock import FixedClock, SystemClock
from gm.service.serve import Service
from gm.store import inbound as inbound_repo
from gm.store.db import Database
from tests.support.environment import clean_env
from tests.support.service_support import (
    GM,
    START,
    mail_by_recipient,
    maildir_config,
    message,
    running,
    text_of,
    until,
)


def _deliver(path: Path, raw: bytes) -> dict[str, tuple[int, bytes]]:
    with smtplib.LMTP(str(path)) as client:
        return client.sendmail(GM, ["judge@example.org"], raw.replace(b"\n", b"\r\n"))


def _replies(outbox: Path) -> int:
    if not (outbox / "new").exists():
        return 0
    return len(mail_by_recipient(outbox).get(GM, []))


async def test_a_message_delivered_over_lmtp_is_stored_before_it_is_answered_then_replied_to(
        database: Database, tmp_path: Path) -> None:
    config = replace(maildir_config(tmp_path), lmtp=LmtpConfig(path=tmp_path / "lmtp.sock"),
                     poll_interval=3600)
    service = Service(database, config, clock=FixedClock(START), tick_every=None)
    async with running(service):
        await until(lambda: (tmp_path / "lmtp.sock").exists(), "LMTP socket")
        refused = await asyncio.to_thread(
            _deliver, tmp_path / "lmtp.sock", message(GM, "HELP", message_id="<l1@example.org>"))
        assert refused == {}
        with database.read() as s:  # answered 250: it was stored
            stored = [r.message_id for r in inbound_repo.list_inbound(s)]
        assert stored == ["<l1@example.org>"]
        await until(lambda: _replies(config.maildir.outbox) == 1, "the reply")
        # the mail server delivers the same message again (it missed the answer): read once,
        # the copy answered "already read" once, never again
        for _ in range(2):
            await asyncio.to_thread(
                _deliver, tmp_path / "lmtp.sock",
                message(GM, "HELP", message_id="<l1@example.org>"))
        await until(lambda: _replies(config.maildir.outbox) == 2, "the already-read reply")
        await asyncio.sleep(0.5)
        assert _replies(config.maildir.outbox) == 2
        texts = [text_of(m) for m in mail_by_recipient(config.maildir.outbox)[GM]]
        assert sum("was already read" in t for t in texts) == 1
        with database.read() as s:
            assert len(inbound_repo.list_inbound(s)) == 1
    assert not (tmp_path / "lmtp.sock").exists()


def _config_file(tmp_path: Path, database: Database) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(
        f'database_url = "{database.url}"\n'
        f'data_dir = "{tmp_path}"\naddress = "judge@example.org"\n'
        f'[maildir]\ninbox = "{tmp_path / "inbox"}"\noutbox = "{tmp_path / "outbox"}"\n',
        encoding="utf-8")
    return path


async def test_mail_queued_by_gm_ingest_beside_the_service_is_sent_at_once(
        database: Database, tmp_path: Path) -> None:
    """`gm ingest` (a mail server's delivery program) queues a reply in another process; the
    running service sends it when woken, not at its next poll (an hour here)."""
    config: Config = replace(maildir_config(tmp_path), poll_interval=3600)
    # the same clock as the `gm ingest` beside it: what it queues is due now
    service = Service(database, config, clock=SystemClock(), tick_every=None)
    config_file = _config_file(tmp_path, database)
    async with running(service):
        await until(lambda: (tmp_path / "sender.wake").exists(), "the wake socket")
        done = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "gm", "ingest", "--config", str(config_file)],
            input=message(GM, "HELP", message_id="<w1@example.org>"), capture_output=True,
            env=clean_env(), timeout=120)
        assert done.returncode == 0, done.stderr.decode()
        await until(lambda: _replies(config.maildir.outbox) == 1, "the reply sent at once")
    assert not (tmp_path / "sender.wake").exists()


class _StopAfterIngest(ThreadPoolExecutor):
    """The service's database thread, which asks the service to stop (as SIGTERM does) the
    moment a message's ingest has committed, before the run loop hears of it: the stop
    comes between the message's storing and its marking."""

    def __init__(self) -> None:
        super().__init__(1, thread_name_prefix="gm-db")
        self.stop: Callable[[], None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if getattr(fn, "func", None) is not serve_module._ingest_safely:
            return super().submit(fn, *args, **kwargs)

        def ingest_then_stop() -> Any:
            result = fn(*args, **kwargs)
            assert self.loop is not None and self.stop is not None
            self.loop.call_soon_threadsafe(self.stop)
            return result

        return super().submit(ingest_then_stop)


async def test_a_stop_as_a_message_is_stored_answers_it_stored_not_come_again(
        database: Database, tmp_path: Path) -> None:
    """A stop (SIGTERM) that comes while a delivered message is being stored waits for it:
    the mail server is told 250 (stored), not 451 (deliver again later), which would have it
    delivered again and answered "already read" on the next start."""
    config = replace(maildir_config(tmp_path), lmtp=LmtpConfig(path=tmp_path / "lmtp.sock"),
                     poll_interval=3600)
    db_thread = _StopAfterIngest()
    service = Service(database, config, clock=FixedClock(START), tick_every=None,
                      db_thread=db_thread)
    db_thread.stop, db_thread.loop = service.stop, asyncio.get_running_loop()
    run = asyncio.create_task(service.run())
    await until(lambda: (tmp_path / "lmtp.sock").exists(), "LMTP socket")
    refused = await asyncio.to_thread(
        _deliver, tmp_path / "lmtp.sock", message(GM, "HELP", message_id="<l9@example.org>"))
    assert refused == {}  # 250: smtplib raises SMTPDataError on a 451
    await asyncio.wait_for(run, 60)
    with database.read() as s:
        assert [r.message_id for r in inbound_repo.list_inbound(s)] == ["<l9@example.org>"]
