"""The service's side of mailbox claims (gm.store.mailbox_claims): an IMAP source's batches are
claimed in the database before their bodies are fetched, so that several `gm serve` processes
reading one folder each fetch and answer a message alone.

The claims name this process (gm.store.holders) and use the real time, not the service's
clock: leases are kept between processes. A claim lasts the folder's `claim_lease` (gm.config,
`[imap] claim_lease`, two minutes unless set) and is renewed every quarter of it. A claim that
fails (the database is unreachable) leaves the whole batch for a later pass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from gm.mail.imap import Claimed, ImapSource
from gm.store.db import Database
from gm.store.holders import this_process
from gm.store.mailbox_claims import (
    Uid,
    claim_mail,
    prune_mail_claims,
    release_mail,
    renew_mail,
)

log = logging.getLogger(__name__)

DbRunner = Callable[[Callable[[], Any]], Awaitable[Any]]


def lease_of(source: ImapSource) -> timedelta:
    """How long a claim of `source`'s messages lasts (its `claim_lease` setting)."""
    return timedelta(seconds=source.config.claim_lease)


def renew_every(source: ImapSource) -> float:
    """Seconds between two renewals of this process's claims: a quarter of the lease."""
    return source.config.claim_lease / 4


def _uid(mail_id: str) -> Uid | None:
    validity, _, uid = mail_id.partition(":")
    return (int(validity), int(uid)) if validity.isdigit() and uid.isdigit() else None


def claim_batch(db: Database, source: str, folder: str, mail_ids: list[str],
                lease: timedelta) -> Claimed:
    """Claim these "UIDVALIDITY:UID" ids of `source` for this process for `lease` (one
    transaction)."""
    uids = {uid: mail_id for mail_id in mail_ids if (uid := _uid(mail_id)) is not None}
    with db.transaction() as session:
        claims = claim_mail(session, source, folder, uids, holder=this_process().key,
                            now=datetime.now(UTC), lease=lease)
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
                                                    mail_ids, lease_of(source)))
            return claimed
        except Exception:
            log.exception("could not claim %d messages; they are left for a later pass",
                          len(mail_ids))
            return Claimed(mine=frozenset(), held=frozenset(mail_ids))

    source.claim = claim


def renew(db: Database, source: str, lease: timedelta) -> None:
    """Extend this process's claims on `source` by `lease`."""
    with db.transaction() as session:
        renew_mail(session, source, this_process().key, now=datetime.now(UTC), lease=lease)


async def keep_claims(source: ImapSource, db: Database, run_db: DbRunner) -> None:
    """Renew this process's claims every quarter lease while it runs (until cancelled): what
    it read ahead stays its own however slowly it works through it."""
    while True:
        await asyncio.sleep(renew_every(source))
        try:
            await run_db(partial(renew, db, source.key, lease_of(source)))
        except Exception:  # they lapse and another process may take them: read twice, kept once
            log.exception("could not renew the mailbox claims")
