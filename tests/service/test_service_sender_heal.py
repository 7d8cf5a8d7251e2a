"""A `gm serve` killed (SIGKILL) while sending to a slow SMTP server, then started again: the new
sender takes back at once what the dead one had claimed (gm.store.holders), so every queued reply
is out within seconds of the restart instead of after the claims' lease (gm.service.sender
.CLAIM_LEASE); none is lost and at most one, accepted just before the kill, goes out twice.
Real processes, a real aiosmtpd server, SQLite and PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default
from pathlib import Path

import pytest

from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import OutboundStatus
from tests.support.environment import clean_env
from tests.support.fixtures.mailservers import SmtpServer
from tests.support.service_support import PLAYERS, SERVICE, deliver, message

pytestmark = pytest.mark.postgresql_too  # a dead sender's claims, leased in the database

REPLIES = 20
SLOW = 0.2  # seconds the SMTP server takes to accept each message
HEALED = 10.0  # every reply out within this many seconds of the restart
WAIT = 90.0


class Served:
    """`gm serve` in its own process group (killed whole, as a crash or an OOM kill does)."""

    def __init__(self, root: Path, url: str, smtp: SmtpServer, *, send_here: bool) -> None:
        self.config = root / "gm.toml"
        self.config.write_text(
            f'database_url = "{url}"\naddress = "{SERVICE}"\n'
            "poll_interval = 60\n"  # the default: the restart does not wait for a poll
            "[smtp]\n"
            f'host = "127.0.0.1"\nport = {smtp.port}\nsecurity = "plain"\ntimeout = 20\n'
            f'[maildir]\ninbox = "{root / "inbox"}"\noutbox = "{root / "outbox"}"\n')
        self.log = root / "serve.log"
        self.send_here = send_here
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = clean_env()
        command = [sys.executable, "-m", "gm", "serve", "--config", str(self.config),
                   "--tick-every", "0"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(command + (["--send-here"] if self.send_here else []),
                                         env=env, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def kill(self) -> None:
        """SIGKILL to the service and its sender worker at once."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)
        self.proc = None

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(60) == 0, self.log.read_text(errors="replace")[-3000:]
        self.proc = None

    def wait(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"gm serve exited while waiting for {what}:\n"
                                     + self.log.read_text(errors="replace")[-3000:])
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} after {WAIT} s:\n"
                                     + self.log.read_text(errors="replace")[-3000:])
            time.sleep(0.02)


@pytest.fixture
def slow_smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.handler.data_delay = SLOW
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _message_id(raw: bytes) -> str:
    return str(message_from_bytes(raw, policy=default)["Message-ID"])


def _deliveries(smtp: SmtpServer) -> Counter[str]:
    return Counter(_message_id(r.data) for r in list(smtp.received))


def _outbound(db: Database) -> list[outbound_repo.OutboundRecord]:
    with db.read() as s:
        return outbound_repo.list_outbound(s, limit=10_000)


@pytest.mark.parametrize("send_here", [True, False], ids=["in-service", "worker"])
def test_a_killed_sender_s_claims_go_out_within_seconds_of_the_restart(
        migrated_url: str, database: Database, tmp_path: Path, slow_smtp: SmtpServer,
        send_here: bool) -> None:
    served = Served(tmp_path, migrated_url, slow_smtp, send_here=send_here)
    senders = sorted(PLAYERS.values())
    for n in range(REPLIES):
        deliver(tmp_path / "inbox", message(senders[n % len(senders)], "HELP",
                                            message_id=f"<help-{n}@example.org>"))
    served.start()
    try:
        # every reply queued (nothing left to ingest after the restart), a few sent
        served.wait(lambda: len(_outbound(database)) == REPLIES, "every reply queued")
        served.wait(lambda: len(slow_smtp.received) >= 3, "the first replies")

        def claimed() -> bool:
            # two claims unsent at least: the one in the SMTP server's hands may go out
            # between this look and the kill (a claimed batch is five messages)
            now = datetime.now(UTC)
            return sum(o.status is OutboundStatus.QUEUED and o.next_attempt_at is not None
                       and o.next_attempt_at > now for o in _outbound(database)) >= 2

        served.wait(claimed, "claims held by the sender")  # (a slow machine may be between)
        served.kill()
        killed_at = datetime.now(UTC)
        out_at_kill = len(_deliveries(slow_smtp))
        # the dead sender holds claims that would keep their messages back for the lease
        held = [o for o in _outbound(database) if o.status is OutboundStatus.QUEUED
                and o.next_attempt_at is not None and o.next_attempt_at > killed_at]
        assert held, "the kill came when nothing was claimed: it tests nothing"
        assert out_at_kill < REPLIES

        restarted = time.perf_counter()
        served.start()
        served.wait(lambda: len(_deliveries(slow_smtp)) == REPLIES, "every reply")
        out_at = {_message_id(r.data): r.at - restarted for r in list(slow_smtp.received)}
        last_out = max(out_at.values())
        held_out = max(out_at[o.message_id] for o in held)
        served.wait(lambda: {o.status for o in _outbound(database)} == {OutboundStatus.SENT},
                    "every reply marked sent")
        served.stop()
    finally:
        if served.proc is not None and served.proc.poll() is None:
            os.killpg(served.proc.pid, signal.SIGKILL)
            served.proc.wait()
    print(f"\n[{'in-service' if send_here else 'worker'}] {len(held)} claims held at the kill; "
          f"they were out {held_out:.2f} s, the last reply {last_out:.2f} s after the restart")
    assert last_out < HEALED
    text = served.log.read_text(errors="replace")
    assert "claimed by" in text and "a sender process that is gone" in text
    # none lost, none answered twice but (at most) the one accepted just before the kill
    deliveries = _deliveries(slow_smtp)
    assert set(deliveries) == {o.message_id for o in _outbound(database)}
    assert len(deliveries) == REPLIES
    assert sum(deliveries.values()) - REPLIES <= 1, deliveries
