"""Loops with robots that do not say they are robots (no Auto-Submitted, no Precedence): a
naive auto-responder answers each reply of ours, and we would answer each of its messages.

A message is a sign of such a loop when it holds no command at all, or when it carries one of
our replies back unquoted (our replies' closing line, `<service>: send HELP for help.`, not
behind ">" nor in an original message quoted Outlook's way, gm.mail.clean.unquoted). Two
signs are strong:
- the message carries back what we last sent to its sender (within LOOP_WINDOW): half or more
  of that reply's distinctive lines (not its signature, none shorter than DISTINCT_CHARS), in
  what the sender wrote (gm.mail.clean: ">" lines, "On ... wrote:", Outlook's
  "-----Original Message-----" and "From: ... Sent: ..." blocks are cut, so a person who
  answers above our quoted reply is not taken for a robot);
- the message, holding no command, is the same text (DISTINCT_CHARS or more) as an earlier
  sign from the sender within the window.
Each sign is logged (audit action LOOP_SIGN, by sender, with a digest of the text). A strong
sign after an earlier sign within LOOP_WINDOW, any sign past LOOP_LIMIT of them, and any sign
after a message of the sender was held within the window (the loop goes on), is held
unanswered (like mail over the rate limit, `gm shunt replay` releases it), and the operator is
told once per window; the sender is told nothing (a notice would feed the loop). So a robot
that answers our answers gets at most two replies. Messages with commands from the same sender
that are not strong signs are answered as usual.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gm.commands.values import Command, NotACommand
from gm.config import Config
from gm.mail.clean import unquoted
from gm.mail.compose import build_subject, new_message_id
from gm.mail.decode import DecodedMessage
from gm.play.render import render
from gm.store import audit, outgoing
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.models import AuditEntry
from gm.store.outgoing import Outgoing
from gm.store.powers import address_key
from gm.store.rows import AuditRecord, InboundRecord
from gm.store.statuses import InboundStatus

log = logging.getLogger(__name__)

LOOP_LIMIT = 5  # signs of a loop from one sender within LOOP_WINDOW that are still answered
LOOP_WINDOW = timedelta(minutes=30)
LOOP_SIGN = "loop_sign"
LOOP_HELD = "loop_held"
DISTINCT_CHARS = 20  # the shortest line of a reply of ours taken as distinctive


def _norm(line: str) -> str:
    return " ".join(line.split()).lower()


def _distinct_lines(reply: str) -> set[str]:
    """The lines of a reply of ours that mark it: not its signature ("-- " and after), none
    shorter than DISTINCT_CHARS."""
    body = reply.replace("\r\n", "\n").split("\n-- \n")[0]
    return {n for n in map(_norm, body.split("\n")) if len(n) >= DISTINCT_CHARS}


def carries_back(text: str, reply: str) -> bool:
    """Whether `text` (what the sender wrote, quotes cut) holds half or more of the
    distinctive lines of `reply` (one we sent)."""
    marks = _distinct_lines(reply)
    if not marks:
        return False
    found = marks & {_norm(line) for line in text.split("\n")}
    return 2 * len(found) >= len(marks)


def _last_reply(session: Session, record: InboundRecord, since: datetime) -> str | None:
    """The text of what we last sent to the sender within the window, or None."""
    for sent in outbound_repo.replies_to(session, record.sender, since=since):
        if any(address_key(r) == record.sender for r in sent.recipients):
            return sent.text
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(_norm(text).encode("utf-8")).hexdigest()[:32]


def _repeated(session: Session, sender: str, digest: str, since: datetime) -> bool:
    """Whether an earlier sign from `sender` within the window had the same text."""
    return any(e.details.get("digest") == digest for e in _signs(session, sender, since))


def _signs(session: Session, sender: str, since: datetime) -> list[AuditRecord]:
    rows = session.scalars(select(AuditEntry).where(
        AuditEntry.game_id.is_(None), AuditEntry.action == LOOP_SIGN,
        AuditEntry.actor == sender, AuditEntry.at >= since))
    return [audit.to_record(r) for r in rows]


def is_loop_sign(decoded: DecodedMessage, commands: Sequence[Command], config: Config) -> bool:
    """No command in the message, or one of our replies in it, unquoted."""
    if not any(not isinstance(c, NotACommand) for c in commands):
        return True
    closing = f"{config.display_name}: send HELP for help."
    return any(line.strip() == closing for line in unquoted(decoded.body).splitlines())


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
    since = now - LOOP_WINDOW
    last = _last_reply(session, record, since)
    back = last is not None and carries_back(decoded.text, last)
    if not back and not is_loop_sign(decoded, commands, config):
        return False
    digest = _digest(decoded.text)
    commandless = not any(not isinstance(c, NotACommand) for c in commands)
    strong = back or (commandless and len(_norm(decoded.text)) >= DISTINCT_CHARS
                      and _repeated(session, record.sender, digest, since))
    earlier = _count(session, record.sender, LOOP_SIGN, since)
    audit.record_action(session, actor=record.sender, action=LOOP_SIGN, now=now,
                        details={"subject": decoded.subject[:200], "digest": digest,
                                 "strong": strong}, inbound_id=record.id)
    held_before = _count(session, record.sender, LOOP_HELD, since)
    if earlier < (1 if strong else LOOP_LIMIT) and not held_before:
        return False
    minutes = int(LOOP_WINDOW.total_seconds() // 60)
    inbound_repo.mark_held(
        session, record.id,
        f"held: a mail loop, {earlier + 1} messages without commands (or carrying our replies "
        f"back) from this sender within {minutes} minutes",
        now=now, src=InboundStatus.PROCESSED)
    log.warning("message %s from %r held: a mail loop (%d signs within %d minutes)",
                record.id, record.sender, earlier + 1, minutes)
    if held_before:
        return True
    audit.record_action(session, actor=record.sender, action=LOOP_HELD, now=now,
                        inbound_id=record.id)
    if not config.operator:
        return True
    body = render("reply/operator-loop.txt.j2", sender=record.sender, count=earlier + 1,
                  minutes=minutes, inbound_id=record.id, subject=decoded.subject,
                  service=config.display_name)
    outgoing.queue_once(session, Outgoing(
        (config.operator,), build_subject(f"a mail loop with {record.sender} is held"), body,
        message_id=new_message_id(config.domain)), now=now, inbound_id=record.id)
    return True
