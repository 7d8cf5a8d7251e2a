"""The running service's batches, against a real Dovecot and a real SMTP server: many messages
per IMAP fetch, marked processed together once committed; replies sent over one kept SMTP
connection, retried once the server is back. Nothing is lost and nothing happens twice."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from gm.config import Config
from gm.mail.imap import PROCESSED_KEYWORD, ImapSource
from gm.mail.smtp import SmtpSink
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.passwords import hash_password
from gm.store.statuses import InboundStatus, OutboundStatus
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    deliver,
    maildir_config,
    message,
    running,
    until,
)

SETUP = "\n".join(
    ["CREATE lambda standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "START"]
)
SETUP_MAIL = 1 + 7 + 8  # the GM's reply; the seven seated players' notices; the start notices


def _config(root: Path, smtp: SmtpServer, imap: ImapAccount | None = None) -> Config:
    base = maildir_config(root)
    return Config(data_dir=root, address=base.address, display_name=base.display_name,
                  maildir=base.maildir, imap=None if imap is None else imap.config(),
                  smtp=smtp.config(timeout=2.0), poll_interval=0.1)


def _orders(power: str, n: int) -> bytes:
    body = "\n".join([f"SIGNON {power} lambda pw{power.lower()}", *SPRING_1901[power]])
    return message(PLAYERS[power], body, subject=f"orders {n}", message_id=f"<o{n}@example.org>")


def _replies(smtp: SmtpServer) -> Counter[str]:
    """How many replies each inbound Message-ID got."""
    found: Counter[str] = Counter()
    for item in list(smtp.received):
        if item.headers["In-Reply-To"]:
            found[str(item.headers["In-Reply-To"])] += 1
    return found


async def test_a_failing_message_in_the_middle_of_a_fetch_batch(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    config = _config(tmp_path, smtp_server, imap_account)
    clock = FixedClock(START)
    assert ingest(database, message(GM, SETUP, message_id="<setup@example.org>"),
                  config=config, clock=clock).outcome is Disposition.ANSWERED
    with database.transaction() as s:  # a game whose stored variant this gm does not know
        games_repo.create_game(s, name="broken", variant="no-such-variant", gm_address=GM,
                               gm_password_hash=hash_password("gmpass"), now=START)
    powers = sorted(PLAYERS)[:4]
    raws = [_orders(powers[0], 0), _orders(powers[1], 1),
            message(GM, "SIGNON GM broken gmpass\nSTART", message_id="<bad@example.org>"),
            _orders(powers[2], 3), _orders(powers[3], 4)]
    for raw in raws:
        dovecot.save(imap_account.user, raw)
    service = Service(database, config, clock=clock, tick_every=None)
    async with running(service):
        # four replies, the apology and the GM's notice of the shunted message
        await until(lambda: len(smtp_server.received) >= SETUP_MAIL + 6, "every reply")
        await until(lambda: len(dovecot.flags(imap_account.user)) == 5 and all(
            PROCESSED_KEYWORD in f for f in dovecot.flags(imap_account.user).values()),
            "every message marked processed")
    source = service.source
    assert isinstance(source, ImapSource) and source.fetches == 1  # all five in one fetch
    assert _replies(smtp_server) == {
        "<setup@example.org>": 1, "<o0@example.org>": 1, "<o1@example.org>": 1,
        "<bad@example.org>": 1, "<o3@example.org>": 1, "<o4@example.org>": 1}
    with database.read() as s:
        inbound = {r.message_id: r for r in inbound_repo.list_inbound(s)}
        outbound = outbound_repo.list_outbound(s, limit=100)
    assert inbound["<bad@example.org>"].status is InboundStatus.SHUNTED
    assert "no-such-variant" in (inbound["<bad@example.org>"].error or "")
    assert Counter(r.status for r in inbound.values()) == {
        InboundStatus.PROCESSED: 5, InboundStatus.SHUNTED: 1}  # with the set-up
    assert {o.status for o in outbound} == {OutboundStatus.SENT}
    assert len(outbound) == len(smtp_server.received) == SETUP_MAIL + 6
    # the orders around the failing message were stored and acknowledged
    acknowledged = [m for m in (message_from_bytes(r.data, policy=default)
                                for r in smtp_server.received)
                    if "Units without orders: none." in m.get_body(
                        preferencelist=("plain",)).get_content()]
    assert len(acknowledged) == 4


async def test_the_sender_sends_again_once_the_smtp_server_is_back(
        database: Database, tmp_path: Path, smtp_server: SmtpServer) -> None:
    config = _config(tmp_path, smtp_server)  # the Maildir inbox, the SMTP server outbound
    clock = FixedClock(START)
    service = Service(database, config, clock=clock, tick_every=None)
    sink = service.sink
    assert isinstance(sink, SmtpSink) and sink.keep_open

    def queued() -> list[outbound_repo.OutboundRecord]:
        with database.read() as s:
            return outbound_repo.list_outbound(s, status=OutboundStatus.QUEUED)

    async with running(service):
        for n in range(3):
            deliver(config.maildir.inbox, message(GM, "HELP", message_id=f"<h{n}@example.org>"))
        await until(lambda: len(smtp_server.received) == 3, "three replies")
        assert sink.connections == 1  # one connection carried them all
        smtp_server.stop()
        for n in range(3, 5):
            deliver(config.maildir.inbox, message(GM, "HELP", message_id=f"<h{n}@example.org>"))
        await until(lambda: len(queued()) == 2 and all(o.attempts == 1 and o.last_error
                                                        for o in queued()),
                     "two failed attempts")
        smtp_server.start()
        await asyncio.sleep(0.5)
        assert len(smtp_server.received) == 3  # not due again yet (30 s later)
        clock.advance(timedelta(seconds=31))
        await until(lambda: len(smtp_server.received) == 5, "the two replies sent again")
        await until(lambda: not queued(), "an empty outbound queue")
    assert _replies(smtp_server) == {f"<h{n}@example.org>": 1 for n in range(5)}
    with database.read() as s:
        outbound = outbound_repo.list_outbound(s)
    assert {o.status for o in outbound} == {OutboundStatus.SENT}
    assert sorted(o.attempts for o in outbound) == [1, 1, 1, 2, 2]
