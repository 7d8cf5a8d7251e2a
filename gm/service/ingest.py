"""One inbound message -> one transaction -> one reply.

`ingest` records the raw message (a copy of one seen before is not read again: its first copy
is answered "already read"), decodes it, answers
nothing to automatic mail, runs its commands and queues the reply (and any reports) in the
outbound queue, and marks the message processed, all in one transaction. If running the
commands fails, that transaction is rolled back; a new one keeps the message as shunted with
the error and queues a short apology (and a notice to the GM of each game the message signs on
to, and to the operator when the `operator` setting names one), and the caller carries on with
the next message.

A sender may send `rate_limit` messages per `rate_window` (counted by arrival from the
database, so every process agrees). A newly arrived message over the limit is kept whole as
held: not processed and not answered, except for one short notice per sender per window.
`gm shunt replay` releases held messages; a replayed message is not counted again. A message
that looks like one side of a mail loop with a robot that does not say it is one is held too,
after a handful (gm.service.loop_guard). A bounce sent to one of gm's envelope senders marks
the address it reports as failing (gm.service.bounces) and is not answered.
"""

from __future__ import annotations

import email
import email.message
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.commands.catalog.join import Join
from gm.commands.catalog.signon import SignOn
from gm.commands.catalog.signon_master import SignOnMaster
from gm.commands.dispatch import run_commands
from gm.commands.handlers import Context
from gm.commands.handlers.context import Limits
from gm.commands.parse import parse_message
from gm.commands.values import Command
from gm.config import Config
from gm.mail.attached import json_files
from gm.mail.compose import build_subject, new_message_id
from gm.mail.decode import MAX_HEADER_BLOCK, DecodedMessage, cut_headers, decode_message
from gm.mail.verp import MARK
from gm.play.render import render
from gm.service import bounces, outbox
from gm.service.clock import Clock
from gm.service.loop_guard import hold_loop
from gm.service.subject_mask import masked_subject
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store.commit_locks import retryable
from gm.store.db import Database
from gm.store.outgoing import Answered, Outgoing
from gm.store.powers import address_key
from gm.store.rows import Attachment, InboundRecord
from gm.store.statuses import InboundStatus

log = logging.getLogger(__name__)

_IMAP_ID = re.compile(r"^(\d+):(\d+)$")
MAX_ERROR_CHARS = 2000
RETRIES = 3  # runs again of a message whose commit lost a race (gm.store.commit_locks)


class Disposition(StrEnum):
    """What became of one inbound message."""

    ANSWERED = "answered"  # commands run, reply queued
    DUPLICATE = "duplicate"  # seen before: not read again (its first copy answered "already
    # read")
    AUTOMATIC = "automatic"  # a robot's mail (bounce, vacation, list): kept, not answered
    SHUNTED = "shunted"  # processing failed: kept with the error, apology queued
    UNANSWERED = "unanswered"  # commands run, no reply: wrong passwords past the replies an
    # address gets (gm.commands.handlers.signon_guard); notices are queued
    HELD = "held"  # over the sender's rate limit (one notice per window), or a mail loop (the
    # operator is told): kept, not processed


@dataclass(frozen=True)
class Ingested:
    inbound_id: int
    outcome: Disposition
    reply_message_id: str | None = None
    error: str | None = None


def _place(config: Config, mailbox_id: str | None) -> tuple[str | None, int | None, int | None]:
    """The IMAP folder, UIDVALIDITY and UID a message id names; for a Maildir inbox the file's
    unique name ("maildir:<name>"), so that a file read again after a crash is known as the
    same copy; none for other sources."""
    match = _IMAP_ID.match(mailbox_id or "")
    if config.imap is not None and match:
        return config.imap.folder, int(match[1]), int(match[2])
    if (config.imap is None and config.lmtp is None and config.maildir is not None
            and mailbox_id):
        return f"maildir:{mailbox_id}"[:255], None, None
    return None, None, None


KEPT_PREFIX = 64 * 1024  # bytes kept of a message over max_message_bytes, after its headers


def kept(raw: bytes, decoded: DecodedMessage) -> bytes:
    """What is stored of `raw`: all of it, or for a message over the size limit (not read)
    its headers, cut as they are for reading, and the first KEPT_PREFIX bytes of its body."""
    if not decoded.too_large:
        return raw
    head = cut_headers(raw[:MAX_HEADER_BLOCK + KEPT_PREFIX + 4])
    start = re.search(rb"\r?\n\r?\n", head)
    return head[:MAX_HEADER_BLOCK] if start is None else head[:start.end() + KEPT_PREFIX]


def _receive(session: Session, raw: bytes, decoded: DecodedMessage, *, config: Config,
             now: datetime, mailbox_id: str | None, arrived_at: datetime | None,
             processed: bool = False,
             count_since: datetime | None = None) -> inbound_repo.Received:
    mailbox, uidvalidity, uid = _place(config, mailbox_id)
    stored = kept(raw, decoded)
    return inbound_repo.receive_inbound(
        session, raw=stored, key_raw=raw, sender=address_key(decoded.sender or ""), now=now,
        message_id=decoded.message_id, subject=decoded.subject or None, mailbox=mailbox,
        uidvalidity=uidvalidity, uid=uid, processed=processed, count_since=count_since,
        count_cap=config.rate_limit, arrived_at=arrived_at)


def _parsed(raw: bytes, decoded: DecodedMessage) -> email.message.Message:
    """`raw` as the decoder parsed it; parsed here only when the decoder read its headers
    alone (a message over the size limit)."""
    if decoded.parsed is not None:
        return decoded.parsed
    return email.message_from_bytes(raw)


def _reply(decoded: DecodedMessage, subject: str, body: str, *, config: Config,
           html: str | None = None, attachments: Sequence[Attachment] = ()) -> Outgoing:
    """An answer to `decoded`, to its sender, with a new Message-ID."""
    assert decoded.sender is not None
    return Outgoing((decoded.sender,), subject, body, html=html,
                    attachments=tuple(attachments), message_id=new_message_id(config.domain),
                    answers=Answered(decoded.message_id, decoded.references))


_RE = re.compile(r"^(?:\s*re\s*:\s*)+", re.IGNORECASE)


def _html_part(ctx: Context, config: Config, notes: list[str]) -> str | None:
    """The reply's HTML alternative when it shows pictures (an acknowledgement of orders: the
    power's orders drawn on the board), else none: most replies are plain text only."""
    if not ctx.results.pictures:
        return None
    return render(
        "reply/ack.html.j2", lines=[*notes, *ctx.results.lines], service=config.display_name,
        pictures=[(p.content_id, p.caption) for p in ctx.results.pictures.values()])


def _reply_subject(decoded: DecodedMessage, game: str | None,
                   commands: Sequence[Command] = ()) -> str:
    """`[game] Re: <their subject>`: the game's tag once (a subject that carries it already,
    as a reply to a report does, loses it), one `Re:`; its passwords masked (those of
    `commands`, and of the subject read as a command)."""
    subject = masked_subject(decoded.subject, commands)
    if game:
        subject = re.sub(rf"\[{re.escape(game)}\]:?", " ", subject, flags=re.IGNORECASE)
    subject = " ".join(_RE.sub("", " ".join(subject.split())).split())
    topic = f"Re: {subject}" if subject else "your commands"
    return build_subject(f"[{game}] {topic}" if game else topic)


def ingest(
    db: Database,
    raw: bytes,
    *,
    config: Config,
    clock: Clock,
    mailbox_id: str | None = None,
    size: int | None = None,
    arrived_at: datetime | None = None,
) -> Ingested:
    """Process one raw message exactly once (see the module docstring). `arrived_at`: when the
    mail system received it, by the real clock (gm.mail.arrival); orders are in time if it
    arrived before the deadline, however late they are read. Unknown: when it is stored.
    A transaction that could not commit for a race (gm.store.commit_locks.retryable: its
    orders' phase adjudicated meanwhile, a deadlock, its database connection lost) is run
    again, up to RETRIES times."""
    attempt = 0
    while True:
        try:
            return _ingest(db, raw, config=config, clock=clock, mailbox_id=mailbox_id,
                           size=size, arrived_at=arrived_at, retry=attempt < RETRIES)
        except Exception as exc:
            if attempt >= RETRIES or not retryable(exc):
                raise
            attempt += 1
            log.info("message %s is handled again (%s)", mailbox_id, exc)


def _ingest(db: Database, raw: bytes, *, config: Config, clock: Clock, mailbox_id: str | None,
            size: int | None, arrived_at: datetime | None, retry: bool) -> Ingested:
    """One run of `ingest`; with `retry`, a race that failed the commit is raised, not
    shunted."""
    arrived = None if arrived_at is None else clock.at(arrived_at)  # by the service's clock
    decoded = decode_message(raw, max_bytes=config.max_message_bytes, size=size,
                             own_addresses=config.address,
                             max_seconds=config.max_message_seconds)
    inbound_id: int | None = None
    if decoded.over_bound is not None:
        log.warning("message from %r not read: %s", decoded.sender, decoded.over_bound)
        return _shunt(db, raw, decoded, decoded.over_bound, config=config, clock=clock,
                      mailbox_id=mailbox_id, arrived_at=arrived, reason=decoded.over_bound)
    try:
        with db.transaction() as session:
            now = clock.now()
            # A new message is stored as processed at once: its effects commit with it, or
            # nothing does (the rate limit's count comes back with it, in the same statement).
            limited = bool(config.rate_limit and decoded.sender and not decoded.is_automatic)
            received = _receive(
                session, raw, decoded, config=config, now=now, mailbox_id=mailbox_id,
                arrived_at=arrived,
                processed=True,
                count_since=now - timedelta(seconds=config.rate_window) if limited else None)
            record, new = received.record, received.new
            inbound_id = record.id
            if not new and record.status is not InboundStatus.NEW:
                return _duplicate(session, decoded, record, config=config, now=now,
                                  mailbox_id=mailbox_id)
            bounce = (decoded.is_automatic or not decoded.sender or MARK.encode() in raw) and \
                bounces.bounced(session, _parsed(raw, decoded), config=config,
                                now=now, inbound_id=record.id)
            if bounce:
                log.info("message %s from %r is a bounce: read, not answered", record.id,
                         decoded.sender)
            if bounce or decoded.is_automatic or not decoded.sender:
                log.info("message %s from %r is automatic (%s): not answered", record.id,
                         decoded.sender, decoded.automatic or "no sender")
                if not new:  # a replay
                    inbound_repo.mark_processed(session, record.id, now=now)
                return Ingested(record.id, Disposition.AUTOMATIC)
            # a replayed message (not new) was counted when it arrived
            if new and limited and received.recent >= config.rate_limit:
                return _hold(session, decoded, record, config=config, now=now)
            # a replayed message keeps the arrival it was stored with
            ctx = Context(session=session, now=now, sender=decoded.sender,
                          inbound_id=record.id, service=config.display_name,
                          arrived_at=record.arrived_at, limits=limits_of(config),
                          attachments=decoded.attachments,
                          json_files=lambda: json_files(decoded.parsed))
            commands: list[Command] = []
            if decoded.too_large:
                ctx.results.add(f"Your message is larger than {config.max_message_bytes} bytes "
                                f"({decoded.size} bytes) and was not read. Send commands as "
                                "plain text.")
            else:
                commands = parse_message(decoded.text, dict(decoded.long_lines))
                if new and hold_loop(session, decoded, record, commands, config=config,
                                     now=now):
                    return Ingested(record.id, Disposition.HELD)
                run_commands(ctx, commands)
            notes = [f"Not all of your message was read: {note}." for note in decoded.unread]
            body = render("reply/ack.txt.j2", lines=ctx.results.lines, notes=notes,
                          pictures=[p.mention for p in ctx.results.pictures.values()],
                          service=config.display_name)
            reply = [] if ctx.results.withheld else [_reply(
                decoded, _reply_subject(decoded, ctx.results.game, commands), body,
                config=config, html=_html_part(ctx, config, notes),
                attachments=[*ctx.results.attachments,
                             *(a for p in ctx.results.pictures.values() for a in p.attachments)])]
            message_id = reply[0].message_id if reply else None
            # the reply first, then the notices (one INSERT; their Message-IDs are new)
            outbox.queue(session, [*reply, *ctx.results.mail], config=config, now=now,
                         inbound_id=record.id)
            if not new:  # a replay: stored as new before
                inbound_repo.mark_processed(session, record.id, now=now)
            if message_id is None:
                log.info("message %s from %r: wrong passwords past the replies allowed, not "
                         "answered", record.id, decoded.sender)
                return Ingested(record.id, Disposition.UNANSWERED)
            return Ingested(record.id, Disposition.ANSWERED, message_id)
    except Exception as exc:
        if retry and retryable(exc):
            raise
        error = f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]
        log.exception("message %s could not be processed; shunted", inbound_id)
        return _shunt(db, raw, decoded, error, config=config, clock=clock,
                      mailbox_id=mailbox_id, arrived_at=arrived)


def _duplicate(session: Session, decoded: DecodedMessage, record: InboundRecord, *,
               config: Config, now: datetime, mailbox_id: str | None) -> Ingested:
    """Another copy of a message read before (same Message-ID, sender and body): counted, and
    the first such copy answered "already read" (not automatic mail, and not the same copy
    read again from the same IMAP place, as after a crash before the source was marked)."""
    told_before = inbound_repo.count_duplicate(session, record.id)
    same_copy = _place(config, mailbox_id) == (record.mailbox, record.uidvalidity, record.uid) \
        and (record.uid is not None or (record.mailbox or "").startswith("maildir:"))
    log.info("message %s from %r came again (copy %d): not read again", record.id,
             decoded.sender, told_before + 2)
    if told_before or same_copy or not decoded.sender or decoded.is_automatic:
        return Ingested(record.id, Disposition.DUPLICATE)
    commands = [] if decoded.too_large else parse_message(decoded.text)
    reply = _reply(decoded, _reply_subject(decoded, None, commands), render(
        "reply/already-read.txt.j2", message_id=decoded.message_id or "",
        subject=masked_subject(decoded.subject, commands),
        read_at=(record.processed_at or record.received_at).strftime("%Y-%m-%d %H:%M UTC"),
        service=config.display_name), config=config)
    outbox.queue_one(session, reply, config=config, now=now, inbound_id=record.id)
    return Ingested(record.id, Disposition.DUPLICATE, reply.message_id)


def limits_of(config: Config) -> Limits:
    """What one message may get and one address may hold, by the service's settings."""
    return Limits(reply_bytes=config.max_reply_bytes, reply_files=config.max_reply_files,
                  reply_answers=config.max_reply_answers,
                  forming_games=config.max_forming_games)


def _hold(session: Session, decoded: DecodedMessage, record: InboundRecord, *,
          config: Config, now: datetime) -> Ingested:
    """Hold a new message (stored as processed just before) whose sender sent `rate_limit`
    others within `rate_window`; the first held message of a window queues the notice."""
    since = now - timedelta(seconds=config.rate_window)
    window = window_words(config.rate_window)
    told = inbound_repo.held_since(session, record.sender, since, other_than=record.id)
    inbound_repo.mark_held(
        session, record.id,
        f"held: more than {config.rate_limit} messages from this sender within {window}",
        now=now, src=InboundStatus.PROCESSED)
    log.warning("message %s from %r held: over the rate limit of %d messages per %s",
                record.id, record.sender, config.rate_limit, window)
    if told:
        return Ingested(record.id, Disposition.HELD)
    reply = replace(_reply(decoded, _reply_subject(decoded, None), render(
        "reply/rate-limited.txt.j2", limit=config.rate_limit, window=window,
        service=config.display_name), config=config), recipients=(record.sender,))
    outbox.queue_one(session, reply, config=config, now=now, inbound_id=record.id)
    return Ingested(record.id, Disposition.HELD, reply.message_id)


def window_words(seconds: float) -> str:
    """A window in words: "1 hour", "30 minutes", "90 seconds"."""
    whole = round(seconds)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if whole >= size and whole % size == 0:
            count = whole // size
            return f"{count} {unit}" + ("s" if count != 1 else "")
    return f"{seconds:g} seconds"


def _shunt(db: Database, raw: bytes, decoded: DecodedMessage, error: str, *, config: Config,
           clock: Clock, mailbox_id: str | None, arrived_at: datetime | None,
           reason: str | None = None) -> Ingested:
    """Keep the message (`arrived_at` by the service's clock) as shunted with `error` and
    queue the apology (one new transaction); with `reason`, the message was over a bound and
    its sender is told that reason instead."""
    with db.transaction() as session:
        now = clock.now()
        record = _receive(session, raw, decoded, config=config, now=now,
                          mailbox_id=mailbox_id,
                          arrived_at=arrived_at).record
        if record.status is not InboundStatus.NEW:
            return Ingested(record.id, Disposition.DUPLICATE)
        inbound_repo.mark_shunted(session, record.id, error, now=now)
        message_id: str | None = None
        if decoded.sender and not decoded.is_automatic:
            reply = _reply(decoded, _reply_subject(decoded, None), render(
                "reply/apology.txt.j2" if reason is None else "reply/not-read.txt.j2",
                reason=reason, service=config.display_name), config=config)
            outbox.queue_one(session, reply, config=config, now=now, inbound_id=record.id)
            message_id = reply.message_id
        _tell_masters(session, decoded, record.id, error, config=config, now=now)
        _tell_operator(session, decoded, record.id, error, config=config, now=now)
        return Ingested(record.id, Disposition.SHUNTED, message_id, error)


def _tell_operator(session: Session, decoded: DecodedMessage, inbound_id: int, error: str, *,
                   config: Config, now: datetime) -> None:
    """Tell the operator (the `operator` setting), if there is one, that a message was shunted."""
    if not config.operator:
        return
    body = render("reply/operator-shunted.txt.j2", inbound_id=inbound_id,
                  sender=decoded.sender or "(unknown)", subject=decoded.subject, error=error,
                  service=config.display_name)
    outbox.queue_one(session, Outgoing(
        (config.operator,), build_subject(f"message {inbound_id} was shunted"), body),
        config=config, now=now, inbound_id=inbound_id)


def _tell_masters(session: Session, decoded: DecodedMessage, inbound_id: int, error: str, *,
                  config: Config, now: datetime) -> None:
    """Tell the GM of each game the message names (SIGNON, JOIN) that it was shunted."""
    try:
        named = {c.game for c in parse_message(decoded.text)
                 if isinstance(c, SignOn | SignOnMaster | Join)}
    except Exception:  # the parser itself may be what failed
        log.exception("message %s: its games could not be read", inbound_id)
        return
    for name in sorted(named):
        game = games_repo.find_game(session, name)
        if game is None:
            continue
        body = render("report/shunted.txt.j2", game=game.name, inbound_id=inbound_id,
                      sender=decoded.sender or "(unknown)", subject=decoded.subject,
                      error=error, service=config.display_name)
        outbox.queue_one(session, Outgoing(
            (game.gm_address,), build_subject("a message could not be processed",
                                              game=game.name), body, game.id),
            config=config, now=now, inbound_id=inbound_id)
