"""Checking the passwords of messages waiting to be ingested, beside the ingesting.

A password check is scrypt (gm.store.passwords): tens of milliseconds, paid by each power's
first SIGNON in a process (a password that verified is remembered for the process's life).
scrypt releases the interpreter lock, so while the database thread ingests one message, another
thread can check the SIGNON passwords of the messages read after it, on another core: when the
ingest reaches them, their checks are remembered already. Only the first messages of a run are
checked ahead (a backlog after a start is where every power's first check falls together), and
only while they bring passwords not checked yet.

Nothing is stored and nothing is decided here: the SIGNON handler checks the password itself
(finding it remembered or not), throttles and answers as always. A wrong password costs its
scrypt here too, and is not remembered.
"""

from __future__ import annotations

import logging

from gm.commands.catalog.signon import SignOn
from gm.commands.catalog.signon_master import SignOnMaster
from gm.commands.handlers.common import variant_of
from gm.commands.parse import parse_message
from gm.config import Config
from gm.mail.decode import decode_message
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import remembered, verify_password

log = logging.getLogger(__name__)

FIRST_MESSAGES = 100  # messages of a run whose passwords are checked ahead, at most ...
QUIET = 20  # ... until this many in a row had none to check that was not remembered


def stored_hashes(db: Database, raw: bytes, config: Config) -> list[tuple[str, str]]:
    """(password, stored hash) for each SIGNON of the message to a power or a game's GM that
    exists (read in one short read transaction)."""
    decoded = decode_message(raw, max_bytes=config.max_message_bytes,
                             own_addresses=config.address)
    if decoded.is_automatic or not decoded.sender or decoded.too_large:
        return []
    signons = [c for c in parse_message(decoded.text) if isinstance(c, SignOn | SignOnMaster)]
    found: list[tuple[str, str]] = []
    if not signons:
        return found
    with db.read() as session:
        for command in signons:
            game = games_repo.find_game(session, command.game)
            if game is None:
                continue
            if isinstance(command, SignOnMaster):
                found.append((command.password.value, game.gm_password_hash))
                continue
            power = variant_of(game).power(command.power)
            record = None if power is None else powers_repo.get_power(session, game.id,
                                                                     power.name)
            if record is not None and record.password_hash:
                found.append((command.password.value, record.password_hash))
    return found


def check_ahead(db: Database, raw: bytes, config: Config) -> bool:
    """Check the message's SIGNON passwords now, so that those that match are remembered;
    whether any was not remembered already (False also when the check failed)."""
    try:
        fresh = [(p, h) for p, h in stored_hashes(db, raw, config) if not remembered(p, h)]
        for password, stored in fresh:
            verify_password(password, stored)
        return bool(fresh)
    except Exception:  # the ingest meets the same fault, and handles it
        log.debug("checking a message's passwords ahead failed", exc_info=True)
        return False
