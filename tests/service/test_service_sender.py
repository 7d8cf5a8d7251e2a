"""The outbox drain: sent only once the sink accepted, retried with backoff when it did not."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from gm.config import Config
from gm.mail.connect import make_sink
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.sender import drain_outbox, retry_delay
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
