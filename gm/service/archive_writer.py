"""The static web archive kept up to date (`[web] archive_dir`, gm.play.archive): after each
tick, the games whose phases changed since they were last written are written again, in their
own transaction; a failure is logged and tried again at the next tick."""

from __future__ import annotations

import logging

from gm.config import Config
from gm.store.db import Database

log = logging.getLogger(__name__)


def write_archive(db: Database, config: Config) -> list[str]:
    """Write the archive's changed games (none without `archive_dir`); the games written."""
    if config.archive_dir is None:
        return []
    from gm.play.archive import update_archive  # the pictures: only where an archive is kept

    try:
        with db.read() as session:
            return update_archive(session, config.archive_dir)
    except Exception:
        log.exception("the web archive in %s could not be written; trying again at the next "
                      "tick", config.archive_dir)
        return []
