"""Deadlines kept by arrival: orders that reached the mailbox before the deadline count,
however late gm reads them (it was down, IDLE told of them late, the tick ran first), and
the tick adjudicates a phase only once the mail that arrived before its deadline is read.

The real service on the real clock, over a Maildir inbox and over LMTP (the mail server
queueing the orders while gm is down); the IMAP cases, with `gm serve` as a process against
Dovecot, are in test_service_arrival_imap.py.
"""

from __future__ import annotations

import asyncio
import dataclasses
import smtplib
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from gm.config import Config, LmtpConfig, MaildirConfig
from gm.service.clock import FixedClock, SystemClock
from gm.service.ingest import Disposition, ingest
from gm.service.serve import Service
from gm.service.tick import tick
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.environment import clean_env
from tests.support.fixtures.mailservers import free_port
from tests.support.service_support import (
    GM,
    PLAYERS,
    SERVICE,
    deliver,
    game_phases,
    maildir_config,
    message,
    running,
    start_game,
    until,
)

pytestmark = pytest.mark.postgresql_too  # times with zones compared in SQL

FRANCE = PLAYERS["France"]
ORDERS = "SIGNON France omega pwfrance\nA Par - Bur\nA Mar - Spa\nF Bre - MAO"


def deadline_in(db: Database, seconds: float) -> datetime:
    """Move Spring 1901's deadline to `seconds` from now (as SET DEADLINE would)."""
    (spring,) = game_phases(db)
    at = datetime.now(UTC) + timedelta(seconds=seconds)
    with db.transaction() as s:
        phases_repo.set_deadline(s, spring.id, at)
    return at


def sleep_past(moment: datetime, extra: float = 0.2) -> None:
    time.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds() + extra))


def france_in_burgundy(db: Database) -> bool:
    """Spring 1901 was adjudicated with France's orders: her army left Paris for Burgundy."""
    spring, *later = game_phases(db)
    assert spring.adjudicated and later, "Spring 1901 not adjudicated"
    units = {(u.power, u.province.lower()) for u in later[0].state.units}
    return ("France", "bur") in units and ("France", "par") not in units


def reply_to(db: Database, origin: str) -> str:
    with db.read() as s:
        for out in outbound_repo.list_outbound(s, limit=1000):
            if dict(out.headers).get("In-Reply-To") == origin:
                return out.parts[0].text
    raise AssertionError(f"no reply to {origin}")


def test_maildir_orders_waiting_across_a_deadline_count(database: Database,
                                                        tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    start_game(database, config)
    asyncio.run(Service(database, config, clock=SystemClock()).once())  # the service reads
    deadline = deadline_in(database, 1.5)
    # gm serve is down; France's orders reach the inbox before the deadline
    raw = message(FRANCE, ORDERS, message_id="<france-spring@example.org>")
    deliver(config.maildir.inbox, raw)
    sleep_past(deadline, 1.2)  # (a pass counts for what arrived a second before it began)
    # cron's `gm tick` at the deadline, the service still down: Spring 1901 waits for the mail
    summary = tick(database, config=config, clock=SystemClock())
    assert summary.adjudicated == []
    assert [game for game, _ in summary.waiting] == ["omega"]
    assert not game_phases(database)[0].adjudicated
    # the service comes back: the orders are taken for Spring 1901, then the tick adjudicates
    asyncio.run(Service(database, config, clock=SystemClock()).once())
    reply = reply_to(database, "<france-spring@example.org>")
    assert "refused" not in reply and "A Par - Bur" in reply
    summary = tick(database, config=config, clock=SystemClock())
    assert [(g, p) for g, p, _ in summary.adjudicated] == [("omega", "Spring 1901, Movement")]
    assert france_in_burgundy(database)


def test_mail_that_arrives_after_the_deadline_stays_late(database: Database,
                                                         tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    start_game(database, config)
    deadline = deadline_in(database, 0.5)
    sleep_past(deadline, 1.2)
    deliver(config.maildir.inbox, message(FRANCE, ORDERS, message_id="<late@example.org>"))
    asyncio.run(Service(database, config, clock=SystemClock()).once())
    reply = " ".join(reply_to(database, "<late@example.org>").split())
    assert "refused, the deadline" in reply and "has passed" in reply
    tick(database, config=config, clock=SystemClock())
    assert not france_in_burgundy(database)


def test_orders_read_after_their_phase_are_kept_for_it_and_reprocess_takes_them(
        database: Database, tmp_path: Path) -> None:
    """A tick told not to wait (`gm tick --no-mail-wait`) adjudicates Spring while France's and
    England's orders, in time for it, sit unread: they are not taken as their Fall orders but
    kept for Spring; each is told, the GM gets one notice for the phase (not one per power)
    naming both, and its one command, REPROCESS, rolls back and processes Spring with them."""
    config = maildir_config(tmp_path)
    start_game(database, config)
    asyncio.run(Service(database, config, clock=SystemClock()).once())
    deadline = deadline_in(database, 1.0)
    deliver(config.maildir.inbox, message(FRANCE, ORDERS, message_id="<early@example.org>"))
    deliver(config.maildir.inbox, message(
        PLAYERS["England"], "SIGNON England omega pwengland\nF Lon - NTH\nF Edi - NWG",
        message_id="<england@example.org>"))
    sleep_past(deadline, 1.2)
    summary = tick(database, config=config, clock=SystemClock(), wait_for_mail=False)
    assert [p for _, p, _ in summary.adjudicated] == ["Spring 1901, Movement"]
    asyncio.run(Service(database, config, clock=SystemClock()).once())
    reply = " ".join(reply_to(database, "<early@example.org>").split())
    assert "refused" not in reply
    assert ("Orders: your message arrived at" in reply and "while Spring 1901, Movement was "
            "open, but it could be read only after Spring 1901, Movement was adjudicated") \
        in reply
    assert "Its orders below are kept for Spring 1901, Movement: the GM is told" in reply
    assert "send your Fall 1901, Movement orders too" in reply
    assert "Orders of France for Spring 1901, Movement:" in reply
    fall = game_phases(database)[-1]
    with database.read() as s:
        from gm.store import submissions as orders_repo

        assert orders_repo.latest_valid_orders_of(s, fall.id, "France") is None
        spring = game_phases(database)[0]
        assert sorted(o.power for o in orders_repo.late_sets(s, spring.id)) == [
            "England", "France"]
        assert "France" not in orders_repo.latest_valid_orders(s, spring.id)

    def gm_notices() -> list[str]:
        with database.read() as s:
            return [" ".join(o.parts[0].text.split())
                    for o in outbound_repo.list_outbound(s, limit=1000)
                    if o.recipients == (GM,) and "orders read after their phase"
                    in dict(o.headers)["Subject"]]

    # told once no more came for a while, one notice for the two powers, however many ticks
    assert gm_notices() == []
    later = FixedClock(datetime.now(UTC) + timedelta(seconds=30))
    for _ in range(3):
        tick(database, config=config, clock=later, wait_for_mail=False)
    (text,) = gm_notices()
    assert "France: arrived" in text and "England: arrived" in text
    assert "REPROCESS Spring 1901, Movement" in text

    deliver(config.maildir.inbox, message(GM, "SIGNON GM omega gmpass\n"
                                          "REPROCESS Spring 1901, Movement",
                                          message_id="<reprocess@example.org>"))
    asyncio.run(Service(database, config, clock=SystemClock()).once())
    answer = " ".join(reply_to(database, "<reprocess@example.org>").split())
    assert "omega is back at the start of Spring 1901, Movement" in answer
    assert "The orders read late for Spring 1901, Movement (France, England) now stand." \
        in answer
    assert "Spring 1901, Movement of omega processed" in answer
    assert france_in_burgundy(database)
    spring, fall = game_phases(database)
    units = {(u.power, u.province.lower()) for u in fall.state.units}
    assert ("England", "nth") in units
    with database.read() as s:
        assert orders_repo.late_sets(s, spring.id) == []
    # a phase with no orders read late: refused, nothing changed
    deliver(config.maildir.inbox, message(GM, "SIGNON GM omega gmpass\nREPROCESS S1901M",
                                          message_id="<again@example.org>"))
    asyncio.run(Service(database, config, clock=SystemClock()).once())
    assert "REPROCESS S1901M: refused, no orders for it were read after it " \
        "was adjudicated" in " ".join(reply_to(database, "<again@example.org>").split())
    assert len(game_phases(database)) == 2


def _received_line(at: datetime) -> str:
    return ("Received: from mx.example.net (mx.example.net [192.0.2.1])\r\n"
            f"\tby judge.example.org (Postfix) with ESMTP id 4Q; {format_datetime(at)}\r\n")


@pytest.mark.parametrize("backend", ["sqlite"])
def test_lmtp_orders_queued_at_the_mail_server_count(database: Database,
                                                     tmp_path: Path) -> None:
    port = free_port()
    config = Config(data_dir=tmp_path, address=SERVICE, display_name="Judge",
                    maildir=MaildirConfig(inbox=tmp_path / "inbox", outbox=tmp_path / "out"),
                    lmtp=LmtpConfig(host="127.0.0.1", port=port, settle=1.5),
                    trusted_received_hosts=("judge.example.org",))
    start_game(database, config)

    def hand_over(raw: bytes) -> None:
        with smtplib.LMTP("127.0.0.1", port) as lmtp:
            lmtp.sendmail(GM, [SERVICE], raw)

    async def serve_until(condition: str) -> None:
        service = Service(database, config, clock=SystemClock(), tick_every=60)
        async with running(service):
            await asyncio.sleep(0.2)
            # the queue flushed at the start (postqueue -f): the LMTP hand-over is late
            for raw in queued:
                await asyncio.to_thread(hand_over, raw)
            queued.clear()
            if condition == "read":
                await asyncio.sleep(config.lmtp.settle + 0.3)  # type: ignore[union-attr]
                await asyncio.to_thread(hand_over, message(GM, "HELP"))  # a pass after settle
                await until(lambda: recorded(), "the source recorded as read")
            else:
                await until(lambda: game_phases(database)[0].adjudicated, "Spring adjudicated",
                            wait=30)

    def recorded() -> bool:
        from gm.mail.source_keys import source_key
        from gm.store.inbox_reads import read_until

        with database.read() as s:
            return read_until(s, source_key(config)) is not None

    queued: list[bytes] = []
    asyncio.run(serve_until("read"))
    deadline = deadline_in(database, 1.0)
    # gm is down; the mail server takes France's orders before the deadline and queues them
    raw = message(FRANCE, ORDERS, message_id="<queued@example.org>")
    queued.append(_received_line(datetime.now(UTC)).encode() + raw)
    sleep_past(deadline)
    assert tick(database, config=config, clock=SystemClock()).waiting
    started = time.monotonic()
    asyncio.run(serve_until("adjudicated"))
    assert time.monotonic() - started < 10  # the settling (1.5 s) and a pass
    assert "refused" not in reply_to(database, "<queued@example.org>")
    assert france_in_burgundy(database)


@pytest.mark.parametrize("backend", ["sqlite"])
def test_gm_ingest_from_the_mail_server_counts_when_the_server_took_it(
        migrated_url: str, tmp_path: Path) -> None:
    """`gm ingest` piped from the mail server after the deadline (the pipe failed meanwhile
    and the server queued the message): the server's Received line says it came in time."""
    from gm.store.db import open_database

    conf = tmp_path / "gm.toml"
    conf.write_text(f'database_url = "{migrated_url}"\naddress = "{SERVICE}"\n'
                    'trusted_received_hosts = ["judge.example.org"]\n'
                    f'[maildir]\ninbox = "{tmp_path / "in"}"\noutbox = "{tmp_path / "out"}"\n')
    database = open_database(migrated_url)
    try:
        start_game(database, maildir_config(tmp_path))
        deadline = deadline_in(database, 1.0)
        took_in = datetime.now(UTC)
        late = message(FRANCE, ORDERS.replace("A Mar - Spa", "A Mar H"),
                       message_id="<piped-late@example.org>")
        sleep_past(deadline)
        env = clean_env()

        def ingest_cli(raw: bytes) -> None:
            done = subprocess.run([sys.executable, "-m", "gm", "ingest", "--config", str(conf)],
                                  input=raw, capture_output=True, env=env, timeout=120)
            assert done.returncode == 0, done.stderr

        ingest_cli(_received_line(took_in).encode()
                   + message(FRANCE, ORDERS, message_id="<piped@example.org>"))
        # without a Received line of the mail server's it arrived when it was handed over
        ingest_cli(late)
        # a Received line the sender wrote (added "by" a host not trusted) dates nothing
        forged = ("Received: from x by forged.example.net with ESMTP id 1; "
                  f"{format_datetime(took_in)}\r\n").encode() + message(
            FRANCE, ORDERS.replace("A Mar - Spa", "A Mar - Bur"),
            message_id="<piped-forged@example.org>")
        ingest_cli(forged)
        assert "refused" not in reply_to(database, "<piped@example.org>")
        assert "has passed" in " ".join(reply_to(database, "<piped-late@example.org>").split())
        assert "has passed" in " ".join(
            reply_to(database, "<piped-forged@example.org>").split())
    finally:
        database.dispose()


def test_an_arrival_in_the_second_the_phase_opened_counts_for_it(database: Database,
                                                                 tmp_path: Path) -> None:
    """IMAP's INTERNALDATE and a Received line are whole seconds: a message stamped with the
    second the phase opened in is not taken as written before it."""
    config = maildir_config(tmp_path)
    start_game(database, config)
    (spring,) = game_phases(database)
    done = ingest(database, message(FRANCE, ORDERS, message_id="<same-second@example.org>"),
                  config=config, clock=SystemClock(),
                  arrived_at=spring.opened_at.replace(microsecond=0))
    assert done.outcome is Disposition.ANSWERED
    reply = reply_to(database, "<same-second@example.org>")
    assert "refused" not in reply and "A Par - Bur" in reply
    earlier = ingest(database, message(FRANCE, ORDERS, message_id="<before@example.org>"),
                     config=config, clock=SystemClock(),
                     arrived_at=spring.opened_at.replace(microsecond=0) - timedelta(seconds=1))
    assert earlier.outcome is Disposition.ANSWERED
    assert "Orders: refused, your message arrived at" in reply_to(database, "<before@example.org>")


@pytest.mark.parametrize("backend", ["sqlite"])
def test_lmtp_flush_hands_over_the_held_orders_before_the_deadline_is_processed(
        database: Database, tmp_path: Path) -> None:
    """gm down across a deadline; at its start gm runs [lmtp] flush, a program that delivers
    what the 'mail server' held (France's orders, received before the deadline) over LMTP, as
    `postqueue -f` has Postfix do; gm waits until deliveries stop ([lmtp] quiet), far less
    than settle, counts the orders and tells the GM what it waited for."""
    port = free_port()
    held = tmp_path / "held.eml"
    deliver = tmp_path / "deliver.py"
    deliver.write_text(
        "import smtplib, sys\n"
        f"raw = open({str(held)!r}, 'rb').read()\n"
        f"with smtplib.LMTP('127.0.0.1', {port}) as lmtp:\n"
        f"    lmtp.sendmail({GM!r}, [{SERVICE!r}], raw)\n")
    lmtp = LmtpConfig(host="127.0.0.1", port=port, settle=1.0)
    config = Config(data_dir=tmp_path, address=SERVICE, display_name="Judge",
                    maildir=MaildirConfig(inbox=tmp_path / "inbox", outbox=tmp_path / "out"),
                    lmtp=lmtp, trusted_received_hosts=("judge.example.org",))
    start_game(database, config)

    async def serve(cfg: Config, condition: object) -> None:
        service = Service(database, cfg, clock=SystemClock(), tick_every=60)
        async with running(service):
            await until(condition, "the condition", wait=40)  # type: ignore[arg-type]

    def recorded() -> bool:
        from gm.mail.source_keys import source_key
        from gm.store.inbox_reads import read_until

        with database.read() as s:
            return read_until(s, source_key(config)) is not None

    asyncio.run(serve(config, recorded))  # the source has been read once: deadlines wait
    deadline = deadline_in(database, 1.0)
    raw = message(FRANCE, ORDERS, message_id="<held@example.org>")
    held.write_bytes(_received_line(datetime.now(UTC)).encode() + raw)
    sleep_past(deadline)
    flushing = dataclasses.replace(config, lmtp=LmtpConfig(
        host="127.0.0.1", port=port, settle=30.0, quiet=1.0,
        flush=(sys.executable, str(deliver))))
    started = time.monotonic()
    asyncio.run(serve(flushing, lambda: game_phases(database)[0].adjudicated))
    assert time.monotonic() - started < 20  # the quiet second, not the 30 s of settle
    assert "refused" not in reply_to(database, "<held@example.org>")
    assert france_in_burgundy(database)
    with database.read() as s:
        told = [o for o in outbound_repo.list_outbound(s, limit=1000)
                if o.recipients == (GM,) and "deadline waited for the mail server"
                in dict(o.headers)["Subject"]]
    assert len(told) == 1
    words = " ".join(told[0].parts[0].text.split())
    assert f"asked the mail server to deliver what it held for gm (`{sys.executable}" in words
    assert "until no message had come for 1 s; 1 message came meanwhile" in words
