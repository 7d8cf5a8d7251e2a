"""The outbox drain: sent only once the sink accepted, retried with backoff when it did not."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from gm.config import Config, SignIn
from gm.mail.connect import make_sink
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.sender import LONGEST_RETRY, MAX_ATTEMPTS, drain_outbox, retry_delay
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import OutboundStatus
from tests.support.fixtures.mailservers import SmtpServer
from tests.support.service_support import GM, START, maildir_config, message


def test_retry_delays_grow_and_are_capped() -> None:
    assert retry_delay(1) == timedelta(seconds=30)
    assert retry_delay(2) == timedelta(minutes=1)
    assert retry_delay(3) == timedelta(minutes=2)
    assert retry_delay(40) == timedelta(hours=2)


async def test_a_refused_send_is_retried_later(database: Database, tmp_path: Path,
                                               smtp_server: SmtpServer) -> None:
    base = maildir_config(tmp_path)
    config = Config(data_dir=base.data_dir, address=base.address,
                    display_name=base.display_name, maildir=base.maildir,
                    smtp=smtp_server.config(timeout=2.0))
    clock = FixedClock(START)
    ingest(database, message(GM, "HELP"), config=config, clock=clock)
    smtp_server.stop()
    assert await drain_outbox(database, make_sink(config), config=config, clock=clock) == 0
    with database.read() as s:
        (row,) = outbound_repo.list_outbound(s)
    assert row.status is OutboundStatus.QUEUED and row.attempts == 1
    assert row.last_error and row.next_attempt_at == START + timedelta(seconds=30)
    smtp_server.start()
    # not due yet: nothing is sent
    assert await drain_outbox(database, make_sink(config), config=config, clock=clock) == 0
    assert smtp_server.received == []
    clock.advance(timedelta(seconds=31))
    assert await drain_outbox(database, make_sink(config), config=config, clock=clock) == 1
    received = smtp_server.wait_for(1)
    assert received[0].rcpt_tos == (GM,)
    assert row.message_id.encode() in received[0].data
    with database.read() as s:
        (row,) = outbound_repo.list_outbound(s)
    assert row.status is OutboundStatus.SENT and row.sent_at == clock.now()


async def test_a_message_waits_while_sign_in_fails(database: Database, tmp_path: Path,
                                                   smtp_starttls_server: SmtpServer,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    """A refused login is not the message's fault: it is kept past MAX_ATTEMPTS, the failure
    is logged once, and the message goes out once the password is right again."""
    caplog.set_level(logging.INFO)
    base = maildir_config(tmp_path)
    password = tmp_path / "password"
    password.write_text("wrong-password-31\n")
    smtp = replace(smtp_starttls_server.config(user="gm"),
                   sign_in=SignIn(password_command=("head", "-n1", str(password))))
    config = Config(data_dir=base.data_dir, address=base.address,
                    display_name=base.display_name, maildir=base.maildir, smtp=smtp)
    clock = FixedClock(START)
    ingest(database, message(GM, "HELP"), config=config, clock=clock)
    for _ in range(MAX_ATTEMPTS + 2):
        assert await drain_outbox(database, make_sink(config), config=config, clock=clock) == 0
        clock.advance(LONGEST_RETRY + timedelta(seconds=1))
    with database.read() as s:
        (row,) = outbound_repo.list_outbound(s)
    assert row.status is OutboundStatus.QUEUED and row.attempts == MAX_ATTEMPTS + 2
    assert row.last_error and "refused the login for user 'gm'" in row.last_error
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "outbound mail waits" in warnings[0], warnings
    assert "wrong-password-31" not in caplog.text
    password.write_text("smtp-secret\n")
    assert await drain_outbox(database, make_sink(config), config=config, clock=clock) == 1
    assert [r.login for r in smtp_starttls_server.wait_for(1)] == ["gm"]
    assert "outbound mail flows again" in caplog.text
