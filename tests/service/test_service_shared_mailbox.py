"""Two `gm serve` processes on one Dovecot mailbox and one PostgreSQL database: each message
is claimed in the database before its body is fetched, so every message is answered exactly
once, none is logged a duplicate, and both processes take a share. A claim left by a process
that died is taken over by the one still running."""

from __future__ import annotations

import imaplib
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from gm.mail.source_keys import imap_key
from gm.store.db import Database
from gm.store.holders import this_process
from gm.store.mailbox_claims import claim_mail
from gm.store.models import InboundMessage
from gm.store.statuses import InboundStatus
from tests.service.test_service_faults import SETUP_MAIL
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.fixtures.served import Served, wait_until
from tests.support.service_support import GM, PLAYERS, SPRING_1901, message

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])

SETUP = "\n".join(
    ["CREATE shared standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "START"])
POWERS = sorted(PLAYERS)
COUNT = 300  # more than one process takes ahead (gm.service.serve.READ_AHEAD and a batch)
_LOGGED = re.compile(r"message (\S+) \(inbound \d+\): (\w+)")


def orders(n: int) -> bytes:
    power = POWERS[n % len(POWERS)]
    body = "\n".join([f"SIGNON {power} shared pw{power.lower()}", *SPRING_1901[power]])
    return message(PLAYERS[power], body, subject=f"orders {n}",
                   message_id=f"<shared-{n}@example.org>")


def append(account: ImapAccount, raws: list[bytes]) -> None:
    imap = imaplib.IMAP4("127.0.0.1", account.server.imap_port)
    imap.login(account.user, account.password)
    for raw in raws:
        imap.append("INBOX", None, None, raw)
    imap.logout()


def replies(smtp: SmtpServer) -> Counter[str]:
    """How many replies each message was given (by its Message-ID)."""
    return Counter(str(item.headers["In-Reply-To"]) for item in list(smtp.received))


def logged(served: Served) -> list[tuple[str, str]]:
    """The (mail id, outcome) of every message the process logged handling."""
    return _LOGGED.findall(served.log.read_text(errors="replace"))


def pair(tmp_path: Path, url: str, account: ImapAccount, smtp: SmtpServer) -> list[Served]:
    services = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        services.append(Served(tmp_path / name, url, account, smtp))
    return services


def stop_all(services: list[Served]) -> None:
    for service in services:
        if service.proc is not None and service.proc.poll() is None:
            service.stop()


def test_two_processes_answer_every_message_once(
        migrated_url: str, database: Database, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer, tmp_path: Path) -> None:
    one, two = services = pair(tmp_path, migrated_url, imap_account, smtp_server)
    try:
        dovecot.save(imap_account.user, message(GM, SETUP, message_id="<setup@example.org>"))
        one.start("--tick-every", "0")
        one.wait(lambda: len(smtp_server.received) >= SETUP_MAIL, "the set-up's replies")
        one.stop()
        append(imap_account, [orders(n) for n in range(COUNT)])  # both find them waiting
        one.start("--tick-every", "0")
        two.start("--tick-every", "0")
        wanted = {f"<shared-{n}@example.org>" for n in range(COUNT)}
        wait_until(lambda: wanted <= set(replies(smtp_server)), "a reply to every message")
        stop_all(services)
    finally:
        stop_all(services)
    counted = replies(smtp_server)
    assert {origin: counted[origin] for origin in wanted} == dict.fromkeys(wanted, 1)
    first, second = logged(one), logged(two)
    outcomes = Counter(outcome for _, outcome in first + second)
    assert outcomes == {"answered": COUNT + 1}  # and none a duplicate
    assert len({mail for mail, _ in first + second}) == COUNT + 1
    assert [mail for mail, _ in first if mail in dict(second)] == []
    assert len(second) > 0 and len(first) > 1  # the work was shared ...
    assert "sent <" in one.log.read_text() and "sent <" in two.log.read_text()  # and sent
    with database.read() as s:
        assert s.scalar(select(func.sum(InboundMessage.duplicates))) == 0
        assert s.scalar(select(func.count()).select_from(InboundMessage).where(
            InboundMessage.status != InboundStatus.PROCESSED)) == 0


def uidvalidity(account: ImapAccount) -> int:
    imap = imaplib.IMAP4("127.0.0.1", account.server.imap_port)
    imap.login(account.user, account.password)
    imap.select("INBOX")
    _, data = imap.response("UIDVALIDITY")
    imap.logout()
    return int(data[0])


def test_a_claim_a_dead_process_left_is_taken_over(
        migrated_url: str, database: Database, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer, tmp_path: Path) -> None:
    (one, _) = services = pair(tmp_path, migrated_url, imap_account, smtp_server)
    dovecot.save(imap_account.user, message(GM, SETUP, message_id="<setup@example.org>"))
    here = this_process()
    dead = f"{here.host} {here.namespace or '-'} 999999999 -"  # this host, no such process
    with database.transaction() as s:  # the set-up message (UID 1), claimed by a dead process
        claim_mail(s, imap_key(imap_account.config()), "INBOX", [(uidvalidity(imap_account), 1)],
                   holder=dead, now=datetime.now(UTC), lease=timedelta(hours=1))
    try:
        one.start("--tick-every", "0")
        one.wait(lambda: len(smtp_server.received) >= SETUP_MAIL, "the set-up's replies")
    finally:
        stop_all(services)
    assert [outcome for _, outcome in logged(one)] == ["answered"]
