"""Queueing the mail gm composes (gm.store.outgoing.Outgoing): each message keeps the
Message-ID fixed by what it is, or gets a new one at the service's domain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from sqlalchemy.orm import Session

from gm.config import Config
from gm.mail.compose import new_message_id
from gm.store import outgoing
from gm.store.outgoing import Outgoing


def with_id(message: Outgoing, config: Config) -> Outgoing:
    """`message` with its Message-ID: its own, or a new one."""
    if message.message_id is not None:
        return message
    return replace(message, message_id=new_message_id(config.domain))


def queue(session: Session, messages: Sequence[Outgoing], *, config: Config, now: datetime,
          inbound_id: int | None = None) -> None:
    """Queue `messages` at once, in order (new Message-IDs given here)."""
    outgoing.queue(session, [with_id(m, config) for m in messages], now=now,
                   inbound_id=inbound_id)


def queue_one(session: Session, message: Outgoing, *, config: Config, now: datetime,
              inbound_id: int | None = None) -> bool:
    """Queue `message` unless its Message-ID is queued already; whether it was queued now."""
    return outgoing.queue_once(session, with_id(message, config), now=now,
                               inbound_id=inbound_id)
