"""The service's side of mailbox claims (gm.store.mailbox_claims): an IMAP source's batches are
claimed in the database before their bodies are fetched, so that several `gm serve` processes
reading one folder each fetch and answer a message alone.

The claims name this process (gm.store.holders) and use the real time, not the service's
clock: leases are kept between processes. A claim that fails (the database is unreachable)
leaves the whole batch for a later pass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from gm.mail.imap import Claimed, ImapSource
from gm.store.db import Database
from gm.store.holders import this_process
from gm.store.mailbox_claims import (
    LEASE,
    Uid,
    claim_mail,
    prune_mail_claims,
    release_mail,
    renew_mail,
)

log = logging.getLogger(__name__)

DbRunner = Callable[[Callable[[], Any]], Awaitable[Any]]
RENEW_EVERY = LEASE.total_seconds() / 4  # seconds between two renewals of a process's claims


def _uid(mail_id: str) -> Uid | None:
    validity, _, uid = mail_id.partition(":")
    return (int(validity), int(uid)) if validity.isdigit() and uid.isdigit() else None


def claim_batch(db: Database, source: str, folder: str, mail_ids: list[str]) -> Claimed:
    """Claim these "UIDVALIDITY:UID" ids of `source` for this process (one transaction)."""
    uids = {uid: mail_id for mail_id in mail_ids if (uid := _uid(mail_id)) is not None}
    with db.transaction() as session:
        claims = claim_mail(session, source, folder, uids, holder=this_process().key,
                            now=datetime.now(UTC))
    return Claimed(mine=frozenset(uids[u] for u in claims.mine),
                   done=frozenset(uids[u] for u in claims.done),
                   held=frozenset(uids[u] for u in claims.held))


def release(db: Database, source: str) -> None:
    """Give up this process's claims on `source` and forget long lapsed ones (at its stop)."""
    with db.transaction() as session:
        release_mail(session, source, this_process().key)
        prune_mail_claims(session, datetime.now(UTC))


def claim_before_fetching(source: ImapSource, db: Database, run_db: DbRunner) -> None:
    """Have `source` claim each batch in `db` (by `run_db`, where the service runs its
    transactions) before it fetches it."""
    folder = source.config.folder

    async def claim(mail_ids: list[str]) -> Claimed:
        try:
            claimed: Claimed = await run_db(partial(claim_batch, db, source.key, folder,
                                                    mail_ids))
            return claimed
        except Exception:
            log.exception("could not claim %d messages; they are left for a later pass",
                          len(mail_ids))
            return Claimed(mine=frozenset(), held=frozenset(mail_ids))

    source.claim = claim


def renew(db: Database, source: str) -> None:
    """Extend this process's claims on `source` by a lease."""
    with db.transaction() as session:
        renew_mail(session, source, this_process().key, now=datetime.now(UTC))


async def keep_claims(source: ImapSource, db: Database, run_db: DbRunner) -> None:
    """Renew this process's claims every RENEW_EVERY seconds while it runs (until cancelled):
    what it read ahead stays its own however slowly it works through it."""
    while True:
        await asyncio.sleep(RENEW_EVERY)
        try:
            await run_db(partial(renew, db, source.key))
        except Exception:  # they lapse and another process may take them: read twice, kept once
            log.exception("could not renew the mailbox claims")
