"""Drain the outbound queue into the mail sink, with retries and backoff.

Due messages are claimed a few at a time, sent outside any transaction, and each is marked sent
only once the sink accepted it; a temporary failure is retried later (exponential backoff), a
permanent one or too many attempts give up (failed). Each claim names the process holding it
(gm.store.holders) and has a short lease (CLAIM_LEASE) that the sender renews while it sends
(every RENEW_EVERY seconds). A sender killed mid-send holds its claimed messages briefly: each
drain first takes back what a process provably gone had claimed (`release_abandoned`), and the
claims of one that cannot be checked (another host) fall due when their lease runs out. `run_db`
runs the transactions where the caller wants them (the service: in its one database thread, so
they never block the mail's event loop). Each message is marked sent before the next is handed
over, so a sender killed at any point has at most one message the server accepted and that will
be sent again (under its same Message-ID). A sink where a message sent again writes nothing (a
Maildir outbox: its file is named by the Message-ID; `resends_nothing`) has each claimed batch
marked sent at once, after it was written: one transaction a batch, not one a message; where
the sink can, the batch is written a few messages at a time (TOGETHER) and made durable before
that (a Maildir: one hand-off to a thread and one sync of new/ for each few,
`MaildirSink.send_all`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache, partial
from types import MappingProxyType
from typing import Any, TypeVar

from gm.config import Config
from gm.mail.compose import (
    Attachment,
    ComposeError,
    ReplyTo,
    compose_message,
    compose_plain,
    inline_content_id,
    make_address,
)
from gm.mail.compose_direct import compose_related, compose_report
from gm.mail.errors import MailError, PermanentSendError, Refusal, SignInFailed
from gm.mail.transport import MailSink, OutgoingMessage, RawMessage, SendReport
from gm.mail.verp import envelope_sender
from gm.service.clock import Clock
from gm.service.shared_compose import Own, SharedComposer
from gm.store import address_failures
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.holders import this_process
from gm.store.outgoing import AUTO_GENERATED
from gm.store.rows import Attachment as StoredAttachment
from gm.store.rows import OutboundRecord

log = logging.getLogger(__name__)

T = TypeVar("T")
DbRunner = Callable[[Callable[[], Any]], Awaitable[Any]]

MAX_ATTEMPTS = 12
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=2)


class _Once:
    """Remembers the last failure logged, so a failure that repeats is logged once."""

    def __init__(self) -> None:
        self.last: str | None = None

    def first(self, text: str) -> bool:
        new, self.last = text != self.last, text
        return new


_sign_in_failures = _Once()


def retry_delay(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, ... up to 2 h."""
    return min(LONGEST_RETRY, FIRST_RETRY * (1 << min(20, max(0, attempts - 1))))


TOGETHER = 8  # messages composed and then written in one go (their bytes held till written)
CLAIM_LEASE = timedelta(seconds=30)  # claimed messages are kept from other senders this long
RENEW_EVERY = 5.0  # seconds between two renewals of a sender's claims while it sends


def compose(record: OutboundRecord, config: Config,
            shared: SharedComposer | None = None) -> OutgoingMessage:
    """The message to send for a queued row (its Message-ID is the row's): written directly
    when it is a simple plain-text one (most replies) or a simple one whose HTML shows its
    pictures (an acknowledgement of orders), else built by the email package, or,
    with `shared`, written from the bytes of the last row of the same content (a report's
    copies: gm.service.shared_compose; the first of them written directly where it is of
    the simple kind, gm.mail.compose_direct.compose_report)."""
    headers = dict(record.headers)
    text = next((p.text for p in record.parts if p.content_type == "text/plain"), "")
    html = next((p.text for p in record.parts if p.content_type == "text/html"), None)
    reply_to = None
    if headers.get("In-Reply-To"):
        reply_to = ReplyTo(headers["In-Reply-To"], headers.get("References", "").split())
    if html is None and not record.attachments:
        plain = compose_plain(
            sender=config.address, sender_name=config.display_name,
            to=list(record.recipients), subject=headers.get("Subject", ""), body=text,
            message_id=record.message_id, reply_to=reply_to,
            auto_submitted=headers.get("Auto-Submitted", AUTO_GENERATED),
            date=record.created_at)
        if plain is not None:
            return plain
    to = [make_address(r) for r in record.recipients]
    attachments = [Attachment(a.filename, a.content_type, a.data, _inline(a.filename, html))
                   for a in record.attachments]
    if html is not None and all(a.content_id for a in attachments):  # an acknowledgement
        direct = compose_related(
            sender=config.address, sender_name=config.display_name,
            to=list(record.recipients), subject=headers.get("Subject", ""), body=text,
            html=html, pictures=attachments, message_id=record.message_id,
            reply_to=reply_to, auto_submitted=headers.get("Auto-Submitted", AUTO_GENERATED),
            date=record.created_at)
        if direct is not None:
            return direct
    build = partial(
        compose_message,
        sender=make_address(config.address, config.display_name),
        to=to,
        subject=headers.get("Subject", ""),
        body=text,
        html=html,
        message_id=record.message_id,
        reply_to=reply_to,
        attachments=attachments,
        auto_submitted=headers.get("Auto-Submitted", AUTO_GENERATED),
        date=record.created_at,
    )
    if shared is None:
        return build()
    make: Callable[[], OutgoingMessage] = build
    if html is not None:  # a report: written directly where it is of the simple kind
        make = partial(_report, build, partial(
            compose_report, sender=config.address, sender_name=config.display_name,
            to=list(record.recipients), subject=headers.get("Subject", ""), body=text,
            html=html, attachments=attachments, message_id=record.message_id,
            reply_to=reply_to, auto_submitted=headers.get("Auto-Submitted", AUTO_GENERATED),
            date=record.created_at, text_part=shared.text_part))
    # a text attachment (a calendar entry naming the power) is each copy's own
    mixed = [a for a in attachments if html is None or a.content_id is None]
    own = [Own(1 + i, partial(shared.text_part, a))
           for i, a in enumerate(mixed) if a.content_type.startswith("text/")]
    key = (config.address, config.display_name, headers.get("Subject", ""), text,
           html is None, tuple(a if not a.content_type.startswith("text/") or a not in mixed
                 else (a.filename, a.content_type) for a in attachments),
           headers.get("Auto-Submitted", AUTO_GENERATED), headers.get("In-Reply-To"),
           headers.get("References"), record.created_at)
    return shared.message(key, to, record.message_id, make, own, html)


def _report(build: Callable[[], OutgoingMessage],
            direct: Callable[[], RawMessage | None]) -> OutgoingMessage:
    """The message `direct` writes, else the one `build` makes."""
    written = direct()
    return written if written is not None else build()


@lru_cache(maxsize=64)  # a report's attachments, the same in each of its copies
def _inline(filename: str, html: str | None) -> str | None:
    """The Content-ID of an attachment the HTML part shows (`<img src="cid:...">`), else None."""
    if html is None:
        return None
    cid = inline_content_id(filename)
    return cid if f"cid:{cid}" in html else None


async def _run_inline(work: Callable[[], T]) -> T:
    return work()


def _claim(db: Database, clock: Clock, batch: int, lease: timedelta, *,
           release: bool = False) -> list[OutboundRecord]:
    """Claim the next `batch` due messages for this process; with `release`, first take back
    what dead senders had claimed."""
    holder = this_process().key
    with db.transaction() as session:
        if release:
            released = outbound_repo.release_abandoned(session, holder=holder)
            for key, count in released.items():
                log.warning("took back %d outbound messages claimed by %s, a sender process "
                            "that is gone; sending them now", count, key)
        return outbound_repo.claim_due_outbound(session, clock.now(), limit=batch, lease=lease,
                                                holder=holder)


def _sent(db: Database, clock: Clock, outbound_id: int, accepted: list[str]) -> bool:
    """Mark the message sent; whether any of the `accepted` recipients is marked failing (in
    the same transaction: most sends need no other)."""
    with db.engine.begin() as conn:  # one UPDATE and one SELECT: no ORM session needed
        outbound_repo.record_sent(conn, outbound_id, now=clock.now())
        return address_failures.any_failing(conn, accepted)


def _all_sent(db: Database, clock: Clock, sent: list[tuple[int, list[str]]],
              drawn: Mapping[bytes, bytes] = MappingProxyType({})) -> bool:
    """`_sent` for several messages (their ids and accepted recipients), in one transaction,
    with the PNGs `drawn` for them (by SVG) stored in it (`_keep_drawn`)."""
    with db.engine.begin() as conn:
        for svg, png in drawn.items():
            outbound_repo.record_drawn(conn, svg, png)
        outbound_repo.record_all_sent(conn, [i for i, _ in sent], now=clock.now())
        return address_failures.any_failing(conn, [a for _, accepted in sent for a in accepted])


def _failed(db: Database, outbound_id: int, error: str, retry_at: datetime | None) -> None:
    with db.transaction() as session:
        outbound_repo.mark_send_failed(session, outbound_id, error, retry_at=retry_at)


async def drain_outbox(db: Database, sink: MailSink, *, config: Config, clock: Clock,
                       batch: int = 1, run_db: DbRunner | None = None) -> int:
    """Send every message due now; return how many the sink accepted. `batch` messages are
    claimed at a time (their leases renewed while the ones before them are sent); each is
    marked sent as soon as the sink accepted it. `run_db` runs each transaction (default:
    here)."""
    run: DbRunner = run_db or _run_inline
    renewing = asyncio.get_running_loop().create_task(_renew(db, clock, run))
    try:
        return await _drain(db, sink, config=config, clock=clock, batch=batch, run=run)
    finally:
        renewing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewing


async def _renew(db: Database, clock: Clock, run: DbRunner) -> None:
    """Renew this process's claims every RENEW_EVERY seconds (until cancelled)."""
    while True:
        await asyncio.sleep(RENEW_EVERY)
        try:
            await run(partial(_renew_claims, db, clock))
        except Exception:  # the claims run out and are sent again: a duplicate, not a loss
            log.exception("could not renew the claims on outbound messages")


def _renew_claims(db: Database, clock: Clock) -> None:
    with db.engine.begin() as conn:  # one UPDATE: no ORM session needed
        outbound_repo.renew_claims(conn, clock.now(), holder=this_process().key,
                                   lease=CLAIM_LEASE)


async def _drain(db: Database, sink: MailSink, *, config: Config, clock: Clock, batch: int,
                 run: DbRunner) -> int:
    sent = 0
    known: dict[bytes, bytes] = {}  # the PNGs of the message before, by SVG
    shared = SharedComposer()  # a report's copies written from its first
    release = True  # the first claim takes back what dead senders held
    later = getattr(sink, "resends_nothing", False)  # each batch marked sent at once
    # ... written in one go, durable together before it is marked (a Maildir's `send_all`)
    send_all = getattr(sink, "send_all", None) if later else None
    while True:
        claimed: list[OutboundRecord] = await run(
            partial(_claim, db, clock, batch, CLAIM_LEASE, release=release))
        release = False
        if not claimed:
            return sent
        written: list[tuple[int, list[str]]] = []  # sent, to be marked so (`later`)
        drawn: dict[bytes, bytes] = {}  # PNGs drawn, stored with the batch's marks
        together: list[OutboundRecord] = []  # sent together (`send_all`)
        for record in claimed:
            record, pictures = draw_pictures(record, known)
            drawn.update((svg, png) for svg, png in pictures.items() if svg not in known)
            known = pictures  # a phase's reports, queued together, come one after the other
            if send_all is not None and record.message_id:
                together.append(record)
                if len(together) == TOGETHER:
                    sent += await _send_all(db, send_all, together, config=config,
                                            clock=clock, run=run, shared=shared,
                                            written=written)
                    together = []
            elif await _send_one(db, sink, record, config=config, clock=clock, run=run,
                                 shared=shared,
                                 written=written if later and record.message_id else None):
                sent += 1
        if together and send_all is not None:
            sent += await _send_all(db, send_all, together, config=config, clock=clock,
                                    run=run, shared=shared, written=written)
        if drawn and not written:  # the next senders need not draw them
            await run(partial(_keep_drawn, db, drawn))
        if written and await run(partial(_all_sent, db, clock, written, drawn)):
            await run(partial(_delivered, db, [a for _, accepted in written for a in accepted],
                              config, clock))
        if len(claimed) < batch:
            return sent  # that was all that was due (what came since waits for the next call)


def draw_pictures(record: OutboundRecord, known: Mapping[bytes, bytes] = MappingProxyType({})
                  ) -> tuple[OutboundRecord, dict[bytes, bytes]]:
    """`record` with its undrawn PNGs drawn from their SVGs (or taken from `known`, by SVG),
    and every PNG it carries now by SVG. A picture that cannot be drawn is left out (logged):
    its SVG is attached beside it, and the message is not held back for it."""
    if all(a.drawn for a in record.attachments):
        return record, {}
    from gm.pictures.png import PictureError, svg_to_png  # Skia, loaded when first needed

    pictures: dict[bytes, bytes] = {}
    attachments = []
    for a in record.attachments:
        if a.svg is not None:
            try:
                png = known.get(a.svg) or svg_to_png(a.svg.decode("utf-8"))
            except (PictureError, UnicodeDecodeError) as exc:
                log.error("outbound %s: %s left out, not drawn: %s", record.id, a.filename, exc)
                continue
            pictures[a.svg] = png
            a = StoredAttachment(a.filename, a.content_type, png)
        attachments.append(a)
    return replace(record, attachments=tuple(attachments)), pictures


def _keep_drawn(db: Database, drawn: dict[bytes, bytes]) -> None:
    with db.engine.begin() as conn:  # plain UPDATEs: no ORM session needed
        for svg, png in drawn.items():
            outbound_repo.record_drawn(conn, svg, png)


async def _send_one(db: Database, sink: MailSink, record: OutboundRecord, *, config: Config,
                    clock: Clock, run: DbRunner, shared: SharedComposer | None = None,
                    written: list[tuple[int, list[str]]] | None = None) -> bool:
    """Send `record`; whether the sink accepted it. It is marked sent at once, or, with
    `written`, added to it, for the caller to mark."""
    try:
        message = compose(record, config, shared)
        report = await sink.send(message, envelope_from=_envelope_from(record, config))
    except (ComposeError, MailError) as exc:
        await _not_sent(db, record, exc, config=config, clock=clock, run=run)
        return False
    await _accepted(db, record, report, config=config, clock=clock, run=run, written=written)
    return True


def _envelope_from(record: OutboundRecord, config: Config) -> str:
    """The envelope sender of `record`: VERP-encoded with its bounce token where in use."""
    return envelope_sender(
        config.address,
        None if config.smtp is not None and not config.smtp.verp else record.bounce_token)


async def _send_all(db: Database, send_all: Callable[..., Awaitable[list[Any]]],
                    records: list[OutboundRecord], *, config: Config, clock: Clock,
                    run: DbRunner, shared: SharedComposer,
                    written: list[tuple[int, list[str]]]) -> int:
    """Send `records` (at most TOGETHER) by the sink's `send_all` (a Maildir: written in one
    hand-off to a thread, made durable together), each accepted one added to `written` for
    the caller to mark; how many the sink accepted."""
    composed: list[tuple[OutboundRecord, OutgoingMessage]] = []
    for record in records:
        try:
            composed.append((record, compose(record, config, shared)))
        except ComposeError as exc:
            await _not_sent(db, record, exc, config=config, clock=clock, run=run)
    outcomes = await send_all([(message, _envelope_from(record, config))
                               for record, message in composed]) if composed else []
    accepted = 0
    for (record, _), outcome in zip(composed, outcomes, strict=True):
        if isinstance(outcome, MailError):
            await _not_sent(db, record, outcome, config=config, clock=clock, run=run)
        else:
            await _accepted(db, record, outcome, config=config, clock=clock, run=run,
                            written=written)
            accepted += 1
    return accepted


async def _not_sent(db: Database, record: OutboundRecord, exc: ComposeError | MailError, *,
                    config: Config, clock: Clock, run: DbRunner) -> None:
    """`record` could not be sent: given up on (it cannot be, or was refused for good), or
    retried later with backoff."""
    if isinstance(exc, (ComposeError, PermanentSendError)):
        log.error("outbound %s given up: %s", record.id, exc)
        await run(partial(_failed, db, record.id, str(exc), None))
        if isinstance(exc, PermanentSendError) and exc.refused:
            await run(partial(_refused, db, record, exc.refused, config, clock))
        return
    retry_at = None
    signing_in = isinstance(exc, SignInFailed)
    if record.attempts < MAX_ATTEMPTS or signing_in:  # not the message's fault: it waits
        retry_at = clock.now() + retry_delay(record.attempts)
    if not signing_in:
        log.warning("outbound %s not sent (attempt %d): %s", record.id, record.attempts,
                    exc)
    elif _sign_in_failures.first(str(exc)):
        log.warning("outbound mail waits: %s (logged once; it is retried with backoff)", exc)
    await run(partial(_failed, db, record.id, str(exc), retry_at))


async def _accepted(db: Database, record: OutboundRecord, report: SendReport, *,
                    config: Config, clock: Clock, run: DbRunner,
                    written: list[tuple[int, list[str]]] | None) -> None:
    """The sink accepted `record` (`report`): marked sent at once, or, with `written`, added
    to it, for the caller to mark."""
    if _sign_in_failures.last is not None:
        log.info("outbound mail flows again: signed in")
        _sign_in_failures.last = None
    for address, refusal in report.refused.items():
        # the others accepted it: sending again would duplicate their copy
        log.warning("outbound %s: %s refused (%s); not retried", record.id, address, refusal)
    failing = False
    if written is None:
        failing = await run(partial(_sent, db, clock, record.id, list(report.accepted)))
    else:
        written.append((record.id, list(report.accepted)))
    if report.refused:
        await run(partial(_refused, db, record, report.refused, config, clock))
    if failing:
        await run(partial(_delivered, db, list(report.accepted), config, clock))


def _refused(db: Database, record: OutboundRecord, refusals: Mapping[str, Refusal],
             config: Config, clock: Clock) -> None:
    """Mark the recipients refused for good as failing (gm.service.bounces)."""
    from gm.service import bounces  # with its notices' templates: rarely needed, loaded then

    with db.transaction() as session:
        bounces.refused(session, record, refusals, config=config, now=clock.now())


def _delivered(db: Database, accepted: list[str], config: Config, clock: Clock) -> None:
    """Clear the failing marks of the recipients the relay accepted (some have one)."""
    from gm.service import bounces

    with db.transaction() as session:
        bounces.delivered(session, accepted, config=config, now=clock.now())
