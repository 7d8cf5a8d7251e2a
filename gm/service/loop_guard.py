"""Loops with robots that do not say they are robots (no Auto-Submitted, no Precedence): a
naive auto-responder answers each reply of ours, and we would answer each of its messages.

A message is a sign of such a loop when it holds no command at all, or when it carries one of
our replies back unquoted (our replies' closing line, `<service>: send HELP for help.`, not
behind ">"). Each sign is logged (audit action LOOP_SIGN, by sender). A sender's sign past
LOOP_LIMIT of them within LOOP_WINDOW is held unanswered (like mail over the rate limit,
`gm shunt replay` releases it), and the operator is told once per window; the sender is told
nothing (a notice would feed the loop). Messages with commands from the same sender are
answered as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.commands.values import Command, NotACommand
from gm.config import Config
from gm.mail.compose import build_subject, new_message_id
from gm.mail.decode import DecodedMessage
from gm.play.render import render
from gm.store import audit
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.models import AuditEntry
from gm.store.rows import BodyPart, InboundRecord
from gm.store.statuses import InboundStatus

log = logging.getLogger(__name__)

LOOP_LIMIT = 5  # signs of a loop from one sender within LOOP_WINDOW that are still answered
LOOP_WINDOW = timedelta(minutes=30)
LOOP_SIGN = "loop_sign"
LOOP_HELD = "loop_held"


def is_loop_sign(decoded: DecodedMessage, commands: Sequence[Command], config: Config) -> bool:
    """No command in the message, or one of our replies in it, unquoted."""
    if not any(not isinstance(c, NotACommand) for c in commands):
        return True
    closing = f"{config.display_name}: send HELP for help."
    return any(line.strip() == closing for line in decoded.body.splitlines()
               if not line.lstrip().startswith(">"))


def _count(session: Session, sender: str, action: str, since: datetime) -> int:
    return session.scalar(
        select(func.count()).select_from(AuditEntry).where(
            AuditEntry.game_id.is_(None), AuditEntry.action == action,
            AuditEntry.actor == sender, AuditEntry.at >= since)) or 0


def hold_loop(session: Session, decoded: DecodedMessage, record: InboundRecord,
              commands: Sequence[Command], *, config: Config, now: datetime) -> bool:
    """Log a sign of a loop; hold the message (stored as processed just before) if its sender
    sent more than LOOP_LIMIT within LOOP_WINDOW, telling the operator once a window. True when
    the message was held."""
    if not is_loop_sign(decoded, commands, config):
        return False
    since = now - LOOP_WINDOW
    earlier = _count(session, record.sender, LOOP_SIGN, since)
    audit.record_action(session, actor=record.sender, action=LOOP_SIGN, now=now,
                        details={"subject": decoded.subject[:200]}, inbound_id=record.id)
    if earlier < LOOP_LIMIT:
        return False
    minutes = int(LOOP_WINDOW.total_seconds() // 60)
    inbound_repo.mark_held(
        session, record.id,
        f"held: a mail loop, {earlier + 1} messages without commands (or carrying our replies "
        f"back) from this sender within {minutes} minutes",
        now=now, src=InboundStatus.PROCESSED)
    log.warning("message %s from %r held: a mail loop (%d signs within %d minutes)",
                record.id, record.sender, earlier + 1, minutes)
    if _count(session, record.sender, LOOP_HELD, since):
        return True
    audit.record_action(session, actor=record.sender, action=LOOP_HELD, now=now,
                        inbound_id=record.id)
    if not config.operator:
        return True
    body = render("reply/operator-loop.txt.j2", sender=record.sender, count=earlier + 1,
                  minutes=minutes, inbound_id=record.id, subject=decoded.subject,
                  service=config.display_name)
    outbound_repo.enqueue_outbound(
        session, message_id=new_message_id(config.domain), recipients=[config.operator],
        headers=[("Subject", build_subject(f"a mail loop with {record.sender} is held")),
                 ("Auto-Submitted", "auto-generated")],
        parts=[BodyPart("text/plain", body)], now=now, inbound_id=record.id)
    return True
