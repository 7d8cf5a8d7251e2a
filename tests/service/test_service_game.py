"""A whole game turn by email: through the real Maildir source and sink, and through a real
Dovecot IMAP server and an aiosmtpd SMTP server."""

from __future__ import annotations

from collections import defaultdict
from email import message_from_bytes
from email.message import Message
from email.policy import default
from pathlib import Path

from gm.config import Config
from gm.mail.connect import make_sink, make_source
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus, OutboundStatus
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    deliver,
    mail_by_recipient,
    maildir_config,
    message,
    service_pass,
    text_of,
)

SETUP = "\n".join(
    ["CREATE gamma standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["START"]
)


def _orders(power: str) -> bytes:
    body = "\n".join([f"SIGNON {power} gamma pw{power.lower()}", *SPRING_1901[power]])
    return message(PLAYERS[power], body, subject=f"{power} orders")


def _check_game_after_process(db: Database) -> None:
    with db.read() as s:
        game = games_repo.find_game(s, "gamma")
        assert game is not None
        history = phases_repo.history(s, game.id)
        assert len(history) == 2 and history[0].adjudicated
        assert str(history[1].state.phase.season) == "Fall"
        bur = history[1].state.unit_in("Bur")
        assert bur is not None and bur.power == "France"
        assert not outbound_repo.list_outbound(s, status=OutboundStatus.QUEUED)


async def test_a_turn_by_maildir(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    deliver(config.maildir.inbox, message(GM, SETUP))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]
    for power in PLAYERS:
        deliver(config.maildir.inbox, _orders(power))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED] * 7
    deliver(config.maildir.inbox, message(GM, "SIGNON GM gamma gmpass\nPROCESS"))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]
    _check_game_after_process(database)

    mail = mail_by_recipient(config.maildir.outbox)
    for power, addr in PLAYERS.items():
        reports = [m for m in mail[addr] if str(m["Subject"]).endswith(": results")]
        started = [m for m in mail[addr] if str(m["Subject"]).endswith("the game has started")]
        seated = [m for m in mail[addr] if str(m["Subject"]).endswith(f"you play {power}")]
        replies = [m for m in mail[addr] if m not in reports + started + seated]
        assert len(reports) == 1 and len(replies) == 1 and len(started) == 1
        assert len(seated) == 1 and f"Your password: pw{power.lower()}" in text_of(seated[0])
        reply, report = replies[0], reports[0]
        assert "Units without orders: none." in text_of(reply)
        assert str(reply["In-Reply-To"]).startswith("<")
        text = text_of(report)
        assert str(report["Subject"]) == "[gamma] Spring 1901, Movement: results"
        assert "A Par - Bur" in text and "Next phase: Fall 1901, Movement" in text
        assert f"{power}:" in text
    gm_mail = "\n".join(text_of(m) for m in mail[GM])
    assert len(mail[GM]) == 4  # setup reply, the start notice, PROCESS reply, the report
    assert "processed; the report went to every player" in gm_mail
    # Black Sea: Russia and Turkey bounce
    assert "F Sev - BLA  (fails" in gm_mail

    # the same message delivered again is processed once, the copy answered "already read"
    deliver(config.maildir.inbox, _orders("France"))
    before = len(list((config.maildir.outbox / "new").iterdir()))
    raw = _orders("France")
    deliver(config.maildir.inbox, raw)
    deliver(config.maildir.inbox, raw)
    outcomes = await service_pass(database, config, clock)
    assert sorted(outcomes) == sorted(
        [Disposition.ANSWERED, Disposition.ANSWERED, Disposition.DUPLICATE])
    assert len(list((config.maildir.outbox / "new").iterdir())) == before + 3


async def test_a_turn_by_imap_and_smtp(database: Database, tmp_path: Path,
                                       dovecot: DovecotServer, imap_account: ImapAccount,
                                       smtp_server: SmtpServer) -> None:
    base = maildir_config(tmp_path)
    config = Config(data_dir=base.data_dir, address=base.address,
                    display_name=base.display_name, maildir=base.maildir,
                    imap=imap_account.config(), smtp=smtp_server.config(), poll_interval=0.2)
    clock = FixedClock(START)

    async def run_pass() -> list[Disposition]:
        service = Service(database, config, clock=clock, source=make_source(config),
                          sink=make_sink(config))
        return [r.outcome for r in await service.once()]

    dovecot.save(imap_account.user, message(GM, SETUP))
    assert await run_pass() == [Disposition.ANSWERED]
    for power in PLAYERS:
        if power != "Turkey":
            dovecot.save(imap_account.user, _orders(power))
    # the same message twice in the mailbox (delivered twice): processed once, the second copy
    # answered "already read"
    twice = _orders("Turkey")
    dovecot.save(imap_account.user, twice)
    dovecot.save(imap_account.user, twice)
    outcomes = await run_pass()
    assert sorted(outcomes) == sorted([Disposition.ANSWERED] * 7 + [Disposition.DUPLICATE])
    dovecot.save(imap_account.user, message(GM, "SIGNON GM gamma gmpass\nPROCESS"))
    assert await run_pass() == [Disposition.ANSWERED]
    _check_game_after_process(database)

    assert await run_pass() == []  # every message was marked processed in the mailbox
    received = smtp_server.wait_for(1 + 7 + 8 + 7 + 1 + 1 + 8)  # replies (and the copy's);
    # seats; starts; reports
    by_rcpt: dict[str, list[Message]] = defaultdict(list)
    for item in received:
        for rcpt in item.rcpt_tos:
            by_rcpt[rcpt].append(message_from_bytes(item.data, policy=default))
    for addr in PLAYERS.values():
        reports = [m for m in by_rcpt[addr] if str(m["Subject"]).endswith("results")]
        assert len(reports) == 1, addr
        assert "Next phase: Fall 1901, Movement" in text_of(reports[0])
    assert any(str(m["Subject"]).endswith("results") for m in by_rcpt[GM])
    assert len(received) == 1 + 7 + 8 + 7 + 1 + 1 + 8  # the GM's reply, seats, starts, ...
    assert sum("already read" in text_of(message_from_bytes(item.data, policy=default))
               for item in received) == 1
    assert all(len(item.rcpt_tos) == 1 for item in received)  # no player sees another's address
    with database.read() as s:
        statuses = [r.status for r in inbound_repo.list_inbound(s)]
        assert statuses == [InboundStatus.PROCESSED] * len(statuses)
