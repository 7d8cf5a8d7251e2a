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
whole (gm.store.claims). A claim is three plain statements whatever the batch (one INSERT
of every row, one SELECT, one UPDATE) and the read of the stored ones; the PostgreSQL dialect is
imported only on PostgreSQL. A live process renews its claims (`renew_mail`), one that stops
releases them (`release_mail`); claims a day past their lease are pruned (`prune_mail_claims`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, delete, select, tuple_, update
from sqlalchemy.orm import Session

from gm.store.claims import claiming, require_writer
from gm.store.db import plain
from gm.store.holders import is_gone
from gm.store.models import InboundMessage, MailboxClaim

LEASE = timedelta(seconds=120)  # a claim keeps a message from other processes this long
KEPT = timedelta(days=1)  # claims this long past their lease are pruned

Uid = tuple[int, int]  # (UIDVALIDITY, UID)

# Built once (each batch of messages read runs them).
_CLAIMS = cast(Table, MailboxClaim.__table__)
_KEY = tuple_(_CLAIMS.c.uidvalidity, _CLAIMS.c.uid)
_FOUND = claiming(
    select(_CLAIMS.c.uidvalidity, _CLAIMS.c.uid, _CLAIMS.c.holder, _CLAIMS.c.leased_until)
    .where(_CLAIMS.c.source == bindparam("source"),
           _KEY.in_(bindparam("keys", expanding=True))), skip_locked=True)
_TAKE = (update(_CLAIMS)
         .where(_CLAIMS.c.source == bindparam("of_source"),
                _KEY.in_(bindparam("keys", expanding=True)))
         .values(holder=bindparam("to_holder"), leased_until=bindparam("until")))
_INBOUND = cast(Table, InboundMessage.__table__)
_STORED = (select(_INBOUND.c.uidvalidity, _INBOUND.c.uid)
           .where(_INBOUND.c.mailbox == bindparam("folder"),
                  tuple_(_INBOUND.c.uidvalidity, _INBOUND.c.uid)
                  .in_(bindparam("keys", expanding=True))))
_NEW: dict[str, Any] = {}  # by dialect: INSERT ... ON CONFLICT DO NOTHING of a claim


def _new_claims(conn: Connection) -> Any:
    """The INSERT of claims that skips those already there, for `conn`'s dialect (the
    PostgreSQL one imported only when it is in use)."""
    name = conn.dialect.name
    stmt = _NEW.get(name)
    if stmt is None:
        if name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert
            stmt = pg_insert(_CLAIMS).on_conflict_do_nothing()
        else:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert
            stmt = sqlite_insert(_CLAIMS).on_conflict_do_nothing()
        _NEW[name] = stmt
    return stmt


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
    conn = plain(session)
    conn.execute(_new_claims(conn), [
        {"source": source, "uidvalidity": v, "uid": u, "holder": holder, "leased_until": until}
        for v, u in wanted])
    found = conn.execute(_FOUND, {"source": source, "keys": wanted}).all()
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
    done = _stored(conn, folder, mine)
    if mine:
        conn.execute(_TAKE, {"of_source": source, "keys": sorted(mine), "to_holder": holder,
                             "until": until})
    return MailClaims(frozenset(mine - done), frozenset(done), frozenset(held), lapse)


def _stored(conn: Connection, folder: str, uids: set[Uid]) -> set[Uid]:
    """Those of `uids` an inbound row of `folder` was stored for."""
    if not uids:
        return set()
    rows = conn.execute(_STORED, {"folder": folder, "keys": sorted(uids)}).all()
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
