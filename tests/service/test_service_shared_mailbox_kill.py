"""Two `gm serve` processes share one Dovecot mailbox and one PostgreSQL database, and one of
them, running as on another host (its own host name: the other cannot see whether it lives), is
killed (SIGKILL) in the middle of its batches (stopped first, so that the other is reading the
mailbox when it dies): the messages it had claimed and not stored are taken over by the other
once their lease (`[imap] claim_lease`, short here) has run out, and every message is answered
exactly once (none lost, none twice)."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.mail.source_keys import imap_key
from gm.store.db import Database
from gm.store.holders import is_alive, is_gone
from gm.store.models import InboundMessage, MailboxClaim
from tests.service.test_service_faults import SETUP_MAIL
from tests.service.test_service_shared_mailbox import (
    SETUP,
    append,
    logged,
    orders,
    pair,
    replies,
    stop_all,
)
from tests.support.environment import clean_env
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.fixtures.served import Served, wait_until
from tests.support.service_support import GM, message

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])

COUNT = 80
LEASE = 10  # seconds: the claims' lease both processes use (GM_IMAP_CLAIM_LEASE)
ELSEWHERE = "gm-elsewhere"  # the killed process's host name


def _can_rename_host() -> bool:
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "--uts", "hostname", ELSEWHERE], capture_output=True)
    return done.returncode == 0


def start_elsewhere(served: Served, env: dict[str, str]) -> None:
    """Run `served` in a UTS namespace of its own named ELSEWHERE: as a process on another
    host, whose claims only their lease ends (gm.store.holders)."""
    command = [sys.executable, "-m", "gm", "serve", "--config", str(served.config),
               "--tick-every", "0"]
    with served.log.open("ab") as log:  # sh execs gm serve: the same process, killed below
        served.proc = subprocess.Popen(
            ["unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', ELSEWHERE,
             *command], env={**clean_env(), **env}, stdout=log, stderr=subprocess.STDOUT)


def unstored_claims(database: Database, source: str) -> dict[int, tuple[str, datetime]]:
    """UID -> (holder, end of lease) of each claimed message no inbound row was stored for."""
    with database.read() as s:
        claims = {uid: (holder, until) for uid, holder, until in s.execute(
            select(MailboxClaim.uid, MailboxClaim.holder, MailboxClaim.leased_until)
            .where(MailboxClaim.source == source)).tuples()}
        stored = set(s.scalars(select(InboundMessage.uid).where(InboundMessage.uid.is_not(None))))
    return {uid: claim for uid, claim in claims.items() if uid not in stored}


_ANSWERED = re.compile(r"^(\S+ \S+),(\d+) INFO message \d+:(\d+) \(inbound \d+\): answered",
                       re.MULTILINE)


def answered_at(served: Served) -> dict[int, datetime]:
    """UID -> when the process logged it answered (its log's local time)."""
    return {int(uid): datetime.strptime(f"{when}.{ms}", "%Y-%m-%d %H:%M:%S.%f").astimezone()
            for when, ms, uid in _ANSWERED.findall(served.log.read_text(errors="replace"))}


@pytest.mark.skipif(not _can_rename_host(), reason="unshare --uts is not permitted here")
def test_a_killed_process_claims_are_taken_over_after_their_lease(
        migrated_url: str, database: Database, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer, tmp_path: Path) -> None:
    victim, survivor = services = pair(tmp_path, migrated_url, imap_account, smtp_server)
    env = {"GM_IMAP_CLAIM_LEASE": str(LEASE)}
    source = imap_key(imap_account.config())
    try:
        dovecot.save(imap_account.user, message(GM, SETUP, message_id="<setup@example.org>"))
        survivor.start("--tick-every", "0", env=env)
        survivor.wait(lambda: len(smtp_server.received) >= SETUP_MAIL, "the set-up's replies")
        survivor.stop()
        append(imap_account, [orders(n) for n in range(COUNT)])
        start_elsewhere(victim, env)  # alone: it claims the first batches of the orders
        victim.wait(lambda: len(logged(victim)) >= 3, "the first orders answered")
        assert victim.proc is not None
        victim.proc.send_signal(signal.SIGSTOP)  # mid-batch; it renews its claims no more
        survivor.start("--tick-every", "0", env=env)
        survivor.wait(lambda: survivor.log.read_text(errors="replace").count("logged in") >= 2,
                      "the other process reading the mailbox")
        victim.kill()  # SIGKILL: it holds claims on messages it has not stored
        left = unstored_claims(database, source)
        orphans = {uid: until for uid, (holder, until) in left.items()
                   if holder.startswith(f"{ELSEWHERE} ")}
        assert orphans, left  # messages it claimed and had not stored when it died
        holder = left[min(orphans)][0]
        assert not is_gone(holder) and not is_alive(holder)  # not checkable: the lease decides
        wanted = {f"<shared-{n}@example.org>" for n in range(COUNT)}
        wait_until(lambda: wanted <= set(replies(smtp_server)), "a reply to every message",
                   proc=survivor.proc, log=survivor.log)
        survivor.stop()
    finally:
        stop_all(services)
    counted = replies(smtp_server)
    assert {origin: counted[origin] for origin in wanted} == dict.fromkeys(wanted, 1)
    taken_over = answered_at(survivor)
    assert set(orphans) <= set(taken_over)  # the survivor answered every message left ...
    assert all(taken_over[uid] >= until for uid, until in orphans.items())  # after the lease
    outcomes = Counter(outcome for _, outcome in logged(victim) + logged(survivor))
    assert set(outcomes) == {"answered"}  # none read twice: no duplicate
    with database.read() as s:
        uids = list(s.scalars(select(InboundMessage.uid).where(InboundMessage.uid.is_not(None))))
    assert len(uids) == len(set(uids)) == COUNT + 1  # each message stored once
