"""The name of each kind of mail source, the same in every process: gm.store.inbox_reads
records under it how far the source has been read, and the tick looks it up."""

from __future__ import annotations

import os
from pathlib import Path

from gm.config import Config, ImapConfig, LmtpConfig


def imap_key(config: ImapConfig) -> str:
    return f"imap://{config.user}@{config.host}:{config.port}/{config.folder}"


def maildir_key(path: Path) -> str:
    return f"maildir:{os.path.abspath(path)}"


def lmtp_key(config: LmtpConfig) -> str:
    return f"lmtp:{config.where}"


def source_key(config: Config) -> str:
    """The name of the source `gm.mail.connect.make_source(config)` reads."""
    if config.lmtp is not None:
        return lmtp_key(config.lmtp)
    if config.imap is not None:
        return imap_key(config.imap)
    return maildir_key(config.maildir.inbox)
