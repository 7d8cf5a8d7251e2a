"""The games an address has played in, for its reliability record (gm.play.reliability): those
where it holds a power now, and those whose seating log names it (ADD, REPLACE, TAKEOVER, EJECT,
seating by preference: the new player or, under "previous", the one before)."""

from __future__ import annotations

import json

from sqlalchemy import String, cast, select
from sqlalchemy.orm import Session

from gm.store import powers as powers_repo
from gm.store.models import AuditEntry
from gm.store.powers import address_key

# the audit actions whose details may name a player's address
SEATING_ACTIONS = ("add", "replace", "takeover", "eject", "seat by preference")


def games_of(session: Session, address: str) -> list[int]:
    """The ids of the games `address` plays or played a power in, oldest first."""
    key = address_key(address)
    found = {p.game_id for p in powers_repo.powers_played_by(session, address)}
    # the entries whose text holds the address (a first sieve, by the database; each is then
    # read whole: the address must be one of its values, not part of one)
    pattern = "%" + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    query = select(AuditEntry.game_id, AuditEntry.details).where(
        AuditEntry.action.in_(SEATING_ACTIONS), AuditEntry.game_id.is_not(None))
    if key.isascii():  # (a document may keep other characters escaped)
        query = query.where(cast(AuditEntry.details, String).ilike(pattern, escape="\\"))
    rows = session.execute(query)
    for game_id, details in rows:
        if game_id is not None and game_id not in found and _names(details, key):
            found.add(game_id)
    return sorted(found)


def _names(details: object, key: str) -> bool:
    """Whether an entry's details name the address `key` (as one whole string value)."""
    text = json.dumps(details).lower()
    return json.dumps(key) in text
