"""A Maildir outbox, where a message sent again writes nothing, has each claimed batch marked
sent at once after it was written: a sender stopped mid-batch has marked none of it, and the
next drain writes each message once all the same."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from gm.mail.maildir import MaildirSink
from gm.mail.transport import OutgoingMessage, SendReport
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.sender import CLAIM_LEASE, drain_outbox
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import OutboundStatus
from tests.support.service_support import START, maildir_config, message

pytestmark = pytest.mark.postgresql_too  # the claims and marks of both databases

SENDERS = [f"player{n}@example.org" for n in range(4)]


class _StopsAfter:
    """The Maildir outbox, with the sender stopped (an error nobody catches) after `count`
    messages were written."""

    resends_nothing = True

    def __init__(self, sink: MaildirSink, count: int) -> None:
        self.sink, self.count = sink, count

    async def send(self, message: OutgoingMessage, *,
                   envelope_from: str | None = None) -> SendReport:
        if self.count == 0:
            raise RuntimeError("the sender stops here")
        self.count -= 1
        return await self.sink.send(message, envelope_from=envelope_from)

    async def close(self) -> None:
        await self.sink.close()


def _statuses(database: Database) -> list[OutboundStatus]:
    with database.read() as s:
        return [r.status for r in outbound_repo.list_outbound(s)]


async def test_a_batch_is_marked_sent_once_written(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    for sender in SENDERS:
        ingest(database, message(sender, "HELP"), config=config, clock=clock)
    assert _statuses(database) == [OutboundStatus.QUEUED] * len(SENDERS)
    assert config.maildir is not None
    outbox = config.maildir.outbox
    with pytest.raises(RuntimeError):
        await drain_outbox(database, _StopsAfter(MaildirSink(outbox), 2), config=config,
                           clock=clock, batch=10)
    assert len(list((outbox / "new").iterdir())) == 2
    assert _statuses(database) == [OutboundStatus.QUEUED] * len(SENDERS)  # none marked
    clock.advance(CLAIM_LEASE + timedelta(seconds=1))
    sent = await drain_outbox(database, MaildirSink(outbox), config=config, clock=clock,
                              batch=10)
    assert sent == len(SENDERS)
    assert _statuses(database) == [OutboundStatus.SENT] * len(SENDERS)
    written = sorted((outbox / "new").iterdir())
    assert len(written) == len(SENDERS)  # the first two not written again
    recipients = sorted(line for f in written for line in f.read_text().splitlines()
                        if line.startswith("To: "))
    assert recipients == [f"To: {s}" for s in SENDERS]
