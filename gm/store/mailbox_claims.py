"""Claims on the messages of a shared mail source, so that processes reading one IMAP folder
each fetch and handle a message alone.

Before a process fetches a batch of message bodies it claims them (`claim_mail`, in a writing
transaction): a message nobody holds becomes its own (INSERT ... ON CONFLICT DO NOTHING on the
key source + UIDVALIDITY + UID); one another process holds is left to it while that holder's
lease runs and the holder is not provably gone (gm.store.holders); a lapsed claim, or a gone
holder's, is taken over. A message already stored (an inbound row with its folder, UIDVALIDITY
and UID, written in its ingest's transaction) is reported `done`: it is only marked processed,
never fetched again. On PostgreSQL the claimed rows are locked FOR UPDATE SKIP LOCKED (rows
another claimer has locked count as held); on SQLite the writing transaction serialises claims
whole (gm.store.claims). A live process renews its claims (`renew_mail`), one that stops
releases them (`release_mail`); claims a day past their lease are pruned (`prune_mail_claims`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from gm.store.claims import claiming, require_writer
from gm.store.holders import is_gone
from gm.store.models import InboundMessage, MailboxClaim

LEASE = timedelta(seconds=120)  # a claim keeps a message from other processes this long
KEPT = timedelta(days=1)  # claims this long past their lease are pruned

Uid = tuple[int, int]  # (UIDVALIDITY, UID)


@dataclass(frozen=True)
class MailClaims:
    """What a claim found: the messages now this process's to fetch (`mine`), those stored
    already (`done`: to be marked processed only), and those another live process holds
    (`held`), with the earliest moment one of those lapses."""

    mine: frozenset[Uid]
    done: frozenset[Uid]
    held: frozenset[Uid]
    lapse: datetime | None = None


def claim_mail(session: Session, source: str, folder: str, uids: Iterable[Uid], *,
               holder: str, now: datetime, lease: timedelta = LEASE) -> MailClaims:
    """Claim these messages of `source` (an IMAP `folder`) for `holder` until now + `lease`."""
    require_writer(session)
    wanted = sorted(set(uids))
    if not wanted:
        return MailClaims(frozenset(), frozenset(), frozenset())
    until = now + lease
    rows = [{"source": source, "uidvalidity": v, "uid": u, "holder": holder,
             "leased_until": until} for v, u in wanted]
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    session.execute(insert(MailboxClaim).on_conflict_do_nothing(), rows)
    key = tuple_(MailboxClaim.uidvalidity, MailboxClaim.uid)
    found = session.execute(claiming(
        select(MailboxClaim.uidvalidity, MailboxClaim.uid, MailboxClaim.holder,
               MailboxClaim.leased_until)
        .where(MailboxClaim.source == source, key.in_(wanted)), skip_locked=True)).all()
    mine: set[Uid] = set()
    held: set[Uid] = set(wanted)  # rows another claimer has locked are held
    lapse: datetime | None = None
    gone: dict[str, bool] = {}
    for v, u, who, leased in found:
        if who == holder or leased <= now or gone.setdefault(who, is_gone(who)):
            mine.add((v, u))
            held.discard((v, u))
        else:
            lapse = leased if lapse is None else min(lapse, leased)
    done = _stored(session, folder, mine)
    if mine:
        session.execute(update(MailboxClaim)
                        .where(MailboxClaim.source == source, key.in_(sorted(mine)))
                        .values(holder=holder, leased_until=until))
    return MailClaims(frozenset(mine - done), frozenset(done), frozenset(held), lapse)


def _stored(session: Session, folder: str, uids: set[Uid]) -> set[Uid]:
    """Those of `uids` an inbound row of `folder` was stored for."""
    if not uids:
        return set()
    rows = session.execute(
        select(InboundMessage.uidvalidity, InboundMessage.uid)
        .where(InboundMessage.mailbox == folder,
               tuple_(InboundMessage.uidvalidity, InboundMessage.uid).in_(sorted(uids)))).all()
    return {(int(v), int(u)) for v, u in rows} & uids


def renew_mail(session: Session, source: str, holder: str, *, now: datetime,
               lease: timedelta = LEASE) -> int:
    """Extend every claim `holder` has on `source` to now + `lease` (a process renews what it
    read and has not stored yet while it works through it); how many were renewed."""
    result = session.execute(update(MailboxClaim)
                             .where(MailboxClaim.source == source, MailboxClaim.holder == holder)
                             .values(leased_until=now + lease))
    return int(getattr(result, "rowcount", 0) or 0)


def release_mail(session: Session, source: str, holder: str) -> int:
    """Give up every claim `holder` has on `source` (what it stored is known by its inbound
    row; the rest is free for the others at once); how many were released."""
    result = session.execute(delete(MailboxClaim).where(MailboxClaim.source == source,
                                                        MailboxClaim.holder == holder))
    return int(getattr(result, "rowcount", 0) or 0)


def prune_mail_claims(session: Session, now: datetime) -> int:
    """Forget claims that lapsed more than KEPT ago (their messages are marked processed, or
    are found stored when claimed again); how many were forgotten."""
    result = session.execute(delete(MailboxClaim).where(MailboxClaim.leased_until < now - KEPT))
    return int(getattr(result, "rowcount", 0) or 0)
