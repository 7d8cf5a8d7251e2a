"""`gm serve`: read the mail source, ingest each message, drain the outbox.

A message is marked processed in the source only after its transaction committed (and, on
SQLite, after `Database.make_durable`), so a crash between the two offers it again and the
inbound store's deduplication makes that harmless. Marks are stored in batches: once nothing
read is waiting to be ingested, or every MARK_EVERY messages; the sync runs in the database
thread, the marking at the server meanwhile, while the next messages are ingested.

The transactions run in one database thread, so the event loop goes on meanwhile: reading the
next messages (up to READ_AHEAD ahead; the IMAP source fetches a batch while the one before is
ingested), checking the first messages' passwords on other threads (gm.service.check_ahead), and
sending the replies queued so far over one kept SMTP connection (the sender task; each reply is
marked sent as soon as the server accepted it). Given a `sender_command` (as `gm serve` does),
the replies are sent by a sender worker process instead (gm.service.send_worker), nudged when
replies were committed, so sending runs on another core; should it die, the service logs it,
sends them itself and starts a new worker after a backoff (WorkerHandle.supervise). At its
start the command grammar and the commonest handlers are loaded in the database thread while
the source logs in, so the first message's answer does not wait for them. On
SIGTERM or SIGINT the service finishes the message in hand, sends what is queued and
stops (what was read and not ingested is offered again next time). Other processes that queue
mail (`gm tick` from cron, `gm ingest`) wake its sender through a socket
(gm.service.sender_wake). While it runs it also ticks
(gm.service.tick) every `tick_every` seconds, so the games' deadlines are kept without cron; a
`gm tick` from cron beside it is harmless. Run by systemd with `Type=notify`, it says it is
ready once its LMTP listener listens (gm.service.ready).

After each whole pass over its source, once every message that pass offered is handled, the
service records how far the source has been read (gm.store.inbox_reads: every message that
arrived until SETTLE seconds before the pass began); the tick adjudicates a phase at its
deadline only once that is past the deadline. When a tick finds games waiting for it, the
service reads its source at once (a pass that begins after the deadline) and ticks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, TypeVar, cast

from gm.config import Config
from gm.mail.connect import make_sink, make_source
from gm.mail.errors import MailError
from gm.mail.imap import ImapSource
from gm.mail.transport import InboundMail, MailSink, PolledSource
from gm.service import check_ahead
from gm.service.archive_writer import write_archive
from gm.service.clock import Clock
from gm.service.hand_over_notice import tell_hand_over
from gm.service.ingest import Ingested, ingest
from gm.service.mail_claims import claim_before_fetching, keep_claims, release
from gm.service.ready import notify_ready
from gm.service.sender import drain_outbox
from gm.service.sender_wake import WakeListener
from gm.service.worker_handle import WorkerHandle
from gm.store.db import Database
from gm.store.inbox_reads import record_read
from gm.store.phases import next_deadline
from gm.variants.registry import load_directory

if TYPE_CHECKING:
    from gm.mail.lmtp import HandOver, LmtpSource
    from gm.service.tick import TickSummary

log = logging.getLogger(__name__)

T = TypeVar("T")

TICK_EVERY = 60.0  # seconds between two ticks of a running service
MARK_EVERY = 200  # processed messages marked at the mail server at the latest after this many
SEND_BATCH = 20  # queued messages the sender claims at a time (their leases add up; each
# claim costs some 3.5 ms of CPU however few it takes, so a backlog is claimed 20 at a time)
READ_AHEAD = 100  # messages read from the source ahead of the ingesting, at most
# seconds a delivered message may take to show in the source's listing (a pass counts for the
# mail that arrived this long before it began)
SETTLE = 1.0
# how far a source no pass has read yet has been read (it only moves forward)
NOTHING_READ = datetime(1970, 1, 1, tzinfo=UTC)
READ_WAIT = 10.0  # seconds a tick waiting for the source to be read waits for a pass


@dataclass(frozen=True)
class PassEnd:
    """Queued after the messages of a whole pass over the source: once it is taken, all that
    arrived before `reached` (a time.monotonic() instant) is handled."""

    reached: float


def record_pass(db: Database, source: PolledSource, clock: Clock, reached: float) -> None:
    """Record that every message that arrived at `source` until SETTLE seconds before the
    monotonic instant `reached` is handled (the tick waits for it)."""
    if not source.key:
        return
    real = datetime.now(UTC) - timedelta(seconds=time.monotonic() - reached + SETTLE)
    with db.transaction() as session:
        record_read(session, source.key, clock.at(real), now=clock.now())


def record_reader(db: Database, source: PolledSource, clock: Clock) -> None:
    """Record that a service reads `source`, before it has read anything: from now on the
    tick waits for its passes, also for a deadline that passed before the first pass ends
    (a first start whose mail server hands over what it held)."""
    if not source.key:
        return
    with db.transaction() as session:
        record_read(session, source.key, NOTHING_READ, now=clock.now())


async def process_pending(db: Database, source: PolledSource, sink: MailSink, *,
                          config: Config, clock: Clock) -> list[Ingested]:
    """One pass: ingest every message the source has now, then drain the outbox."""
    done: list[Ingested] = []
    committed: list[str] = []
    started = time.monotonic()
    unstored = False
    async for mail in source.pending():
        result = _ingest_safely(db, mail, config=config, clock=clock)
        if result is not None:
            done.append(result)
            committed.append(mail.id)
        else:
            unstored = True
        if len(committed) >= MARK_EVERY or not source.buffered:
            await _mark(db, source, committed)
            committed = []
    await _mark(db, source, committed)
    reached = source.reached(started)
    if reached is not None and not unstored:
        record_pass(db, source, clock, reached)
    await drain_outbox(db, sink, config=config, clock=clock)
    return done


async def _mark(db: Database, source: PolledSource, mail_ids: list[str]) -> None:
    """Mark these committed messages processed at the source, once the commits are durable."""
    if mail_ids:
        db.make_durable()
        await source.mark_processed_many(mail_ids)


def _ingest_safely(db: Database, mail: InboundMail, *, config: Config,
                   clock: Clock) -> Ingested | None:
    """Ingest one message; None when even keeping it failed (the database is unreachable):
    it is then not marked processed, so the source offers it again after a restart."""
    try:
        result = ingest(db, mail.raw, config=config, clock=clock, mailbox_id=mail.id,
                        size=mail.size, arrived_at=mail.arrived_at)
    except Exception:
        log.exception("message %s could not be stored; it stays in the inbox", mail.id)
        return None
    log.info("message %s (inbound %s): %s", mail.id, result.inbound_id, result.outcome.value)
    return result


class Service:
    """The running service; `stop()` ends it after the message in hand. `db_thread`, a
    one-thread executor, is where the transactions run (made here unless given)."""

    def __init__(self, db: Database, config: Config, *, clock: Clock,
                 source: PolledSource | None = None, sink: MailSink | None = None,
                 tick_every: float | None = TICK_EVERY,
                 db_thread: ThreadPoolExecutor | None = None,
                 sender_command: Sequence[str] | None = None,
                 worker: WorkerHandle | None = None) -> None:
        self.db = db
        self.tick_every = tick_every
        self.config = config
        if config.variants_dir is not None:
            load_directory(config.variants_dir)  # a file that fails is logged and skipped
        self.clock = clock
        self.source = source or make_source(config)
        self.sink = sink or make_sink(config, keep_open=True)
        self._stopping = asyncio.Event()
        self._wake = asyncio.Event()  # replies were queued: the drain loop sends them now
        self._closing: asyncio.Task[None] | None = None
        self._committed: list[str] = []  # ingested, not yet marked processed at the source
        # no message in hand (being stored, or stored and not yet among `_committed`): the
        # source is closed only then, so that a message stored as the stop comes is marked
        # processed, not told to come again (LMTP: a 451 for mail already answered)
        self._between = asyncio.Event()
        self._between.set()
        self._marking: asyncio.Task[None] | None = None  # the last marks being stored
        self._unsent = 0  # messages ingested since the sender was last woken
        self._woken = False  # the sender was woken for a reply (the first goes out at once)
        self._db_thread = db_thread or ThreadPoolExecutor(1, thread_name_prefix="gm-db")
        self._check_thread = ThreadPoolExecutor(2, thread_name_prefix="gm-check")
        self._checked = 0  # messages whose passwords were checked ahead
        self._quiet = 0  # checked ahead in a row without a password to check
        if worker is None and sender_command:
            worker = WorkerHandle(sender_command)
        self._worker = worker  # given started, or started by `run`
        self._read = asyncio.Event()  # how far the source was read was recorded
        self._retick = asyncio.Event()  # the next tick was brought nearer
        self._unstored: set[str] = set()  # read but not stored (offered again later)
        self._ticked_at: datetime | None = None  # when the last tick began
        self._next_tick = 0.0  # time.monotonic() of the next tick
        self._waiting_told: set[tuple[str, datetime]] = set()  # games waiting for the mail
        self._passes_queued = 0  # pass ends in the queue (among the messages read)
        if isinstance(self.source, ImapSource):  # other processes may share the folder
            claim_before_fetching(self.source, db, self._in_db)

    async def _in_db(self, work: Callable[[], T]) -> T:
        """Run `work` (transactions) in the database thread; one at a time, in order."""
        return await asyncio.get_running_loop().run_in_executor(self._db_thread, work)

    def stop(self) -> None:
        """End after the message in hand (safe to call from a signal handler)."""
        self._stopping.set()
        self.source.interrupt()
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close_source())

    async def _close_source(self) -> None:
        await self._between.wait()
        await self._mark_committed()
        await self._marks_stored()
        await self.source.close()

    async def _mark_committed(self) -> None:
        """Mark what was ingested so far processed at the source, once a durability sync made
        it safe: the sync in the database thread, the marking at the server meanwhile (after
        the marks before it), while the next messages are ingested."""
        mail_ids, self._committed = self._committed, []
        if not mail_ids:
            return
        try:
            await self._in_db(self.db.make_durable)
        except Exception:
            log.exception("could not sync the database; %d messages stay unmarked and will be "
                          "offered again", len(mail_ids))
            return
        self._marking = asyncio.get_running_loop().create_task(
            self._store_marks(self._marking, mail_ids))

    async def _store_marks(self, before: asyncio.Task[None] | None, mail_ids: list[str]) -> None:
        if before is not None:
            await before
        try:
            await self.source.mark_processed_many(mail_ids)
        except Exception:  # the messages are offered again, and found stored
            log.exception("could not mark %d messages processed at the source", len(mail_ids))

    async def _marks_stored(self) -> None:
        """Wait until every mark handed over is stored at the source (or given up)."""
        if self._marking is not None:
            await self._marking

    async def once(self) -> list[Ingested]:
        try:
            return await process_pending(self.db, self.source, self.sink, config=self.config,
                                         clock=self.clock)
        finally:
            await self.source.close()
            await self._release_claims()
            await self.sink.close()
            self._db_thread.shutdown()

    async def _release_claims(self) -> None:
        """Give up the mailbox claims of what was read and not stored (the other processes
        sharing the folder take it at once)."""
        if isinstance(self.source, ImapSource) and self.source.claim is not None:
            try:
                await self._in_db(partial(release, self.db, self.source.key))
            except Exception:  # they lapse with their lease
                log.exception("could not release the mailbox claims")

    async def _ready(self) -> None:
        """Tell systemd the service is ready (gm.service.ready): with LMTP once it listens (it
        cannot: the reader meets the error again, logs it and retries)."""
        lmtp = _lmtp(self.source)
        if lmtp is not None:
            try:
                await lmtp.start()
            except MailError:
                return
        notify_ready()

    def _send_queued(self) -> None:
        """Replies were committed: nudge the sender worker, or wake the sender task."""
        if self._worker is None or not self._worker.nudge():
            self._wake.set()

    async def run(self) -> None:
        if self._worker is not None and not self._worker.started:
            try:
                await self._worker.start()
            except OSError:
                log.exception("the sender worker could not be started; sending from here")
                self._worker = None
        if self._worker is not None:  # should it die: sent from here until a new one runs
            self._worker.supervise(self._wake.set)
        # other processes (gm tick from cron, gm ingest) wake the sender when they queue mail
        wakes = WakeListener(self.config, self._send_queued)
        await wakes.start()
        await self._ready()
        # first in the database thread, while the source logs in: the first message's ingest
        # then finds its grammar and handlers loaded
        warming = asyncio.ensure_future(self._in_db(_warm_up))
        # the sender drains at once: what a killed service left queued (or claimed) goes out
        # without waiting for new mail or the poll interval
        self._wake.set()
        sender = asyncio.create_task(self._drain_loop())
        await self._in_db(partial(record_reader, self.db, self.source, self.clock))
        ticker = asyncio.create_task(self._tick_loop())
        renewing = (asyncio.create_task(keep_claims(self.source, self.db, self._in_db))
                    if isinstance(self.source, ImapSource) else None)
        queue: asyncio.Queue[InboundMail | PassEnd] = asyncio.Queue(READ_AHEAD)
        reader = asyncio.create_task(self._read_source(queue))
        try:
            while (mail := await self._next(queue, reader)) is not None:
                if isinstance(mail, PassEnd):  # what the pass offered is handled
                    self._passes_queued -= 1
                    if self._unsent:  # the replies of the pass's last messages go now
                        self._send_queued()
                        self._unsent = 0
                    if not self._unstored:  # (else deadlines wait until it is stored)
                        await self._record_pass(mail.reached)
                    if not self._mails_waiting(queue):
                        await self._mark_committed()
                    continue
                self._between.clear()
                try:
                    result = await self._in_db(partial(_ingest_safely, self.db, mail,
                                                       config=self.config, clock=self.clock))
                    if result is not None:
                        self._committed.append(mail.id)
                        self._unstored.discard(mail.id)
                    else:
                        self._unstored.add(mail.id)
                finally:
                    self._between.set()
                self._unsent += 1
                self._tick_soon()  # a phase every power is ready in may be processed early
                waiting = self._mails_waiting(queue)
                if self._unsent >= SEND_BATCH or not waiting or not self._woken:
                    # the sender sends these replies while the next messages are ingested
                    # (woken per batch, after the first reply: each claim then takes many)
                    self._send_queued()
                    self._unsent = 0
                    self._woken = True
                if self._stopping.is_set():
                    break
                if len(self._committed) >= MARK_EVERY or not waiting:
                    await self._mark_committed()
        finally:
            # The drain loop is not cancelled: a send in progress must finish and be marked,
            # or its reply would wait for its claim to lapse. It ends at its next check.
            self._stopping.set()
            wakes.close()
            if renewing is not None:
                renewing.cancel()
            reader.cancel()  # what it read and was not ingested is offered again next time
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            self._check_thread.shutdown(wait=False, cancel_futures=True)
            await self._mark_committed()
            with contextlib.suppress(asyncio.CancelledError):
                await self._marks_stored()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            with contextlib.suppress(asyncio.CancelledError):
                await warming
            if self._closing is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self._closing
            await self.source.close()
            await self._release_claims()
            if self._worker is not None:
                await self._worker.stop()  # it sends what is due, then exits
            await self._drain()
            await self.sink.close()
            self._db_thread.shutdown()

    def _mails_waiting(self, queue: asyncio.Queue[InboundMail | PassEnd]) -> int:
        """Messages read and not ingested yet (a pass's end is not one: the replies of the
        messages before it are not held back for it)."""
        return queue.qsize() - self._passes_queued + self.source.buffered

    def _tick_soon(self) -> None:
        """Mail was handled: it may have made every power ready, so the next tick comes once
        the early delay after it is over (gm.service.tick), if that is sooner."""
        if self.tick_every:
            self._bring_tick(time.monotonic() + max(self.config.early_delay, SETTLE) + 0.05)

    def _bring_tick(self, at: float) -> None:
        """The next tick at the monotonic instant `at`, if that is sooner."""
        if at < self._next_tick:
            self._next_tick = at
            self._retick.set()

    async def _record_pass(self, reached: float) -> None:
        try:
            deadline = await self._in_db(partial(self._pass_handled, reached))
        except Exception:  # the next pass records it; the tick waits meanwhile
            log.exception("could not record how far the mail source was read")
            return
        self._read.set()
        self._deadline_set(deadline)

    def _pass_handled(self, reached: float) -> datetime | None:
        """Record how far the source was read; the earliest deadline after the last tick."""
        record_pass(self.db, self.source, self.clock, reached)
        if self._ticked_at is None:
            return None
        with self.db.read() as session:
            return next_deadline(session, self._ticked_at)

    async def _read_source(self, queue: asyncio.Queue[InboundMail | PassEnd]) -> None:
        """Read the source into `queue`, READ_AHEAD messages ahead of the ingesting at most,
        each whole pass followed by its PassEnd; the first messages' passwords are checked
        meanwhile (gm.service.check_ahead)."""
        loop = asyncio.get_running_loop()

        async def pass_ended(reached: float) -> None:
            self._passes_queued += 1
            await queue.put(PassEnd(reached))

        self.source.on_pass = pass_ended
        async with contextlib.aclosing(self.source.__aiter__()) as mails:
            async for mail in mails:
                if self._checked < check_ahead.FIRST_MESSAGES and (
                        self._quiet < check_ahead.QUIET):
                    self._checked += 1
                    loop.run_in_executor(self._check_thread, check_ahead.check_ahead, self.db,
                                         mail.raw, self.config).add_done_callback(self._checks)
                await queue.put(mail)

    def _checks(self, done: asyncio.Future[bool]) -> None:
        """Count the messages in a row whose checks ahead found nothing new to check."""
        fresh = not done.cancelled() and done.exception() is None and done.result()
        self._quiet = 0 if fresh else self._quiet + 1

    @staticmethod
    async def _next(queue: asyncio.Queue[InboundMail | PassEnd],
                    reader: asyncio.Task[None]) -> InboundMail | PassEnd | None:
        """The next message read, or None when the reading ended (its error raised)."""
        if queue.empty() and not reader.done():
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter.done():
                return getter.result()
            getter.cancel()
        if not queue.empty():
            return queue.get_nowait()
        reader.result()  # raises what ended it
        return None

    async def _drain_loop(self) -> None:
        """Drain the outbox when replies are queued, and every poll interval (retries fall
        due without new mail)."""
        while not self._stopping.is_set():
            waiters = [asyncio.ensure_future(e.wait()) for e in (self._wake, self._stopping)]
            try:
                await asyncio.wait(waiters, timeout=self.config.poll_interval,
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
            self._wake.clear()
            if self._worker is not None and self._worker.alive:
                continue  # the worker sends (and retries on its own)
            await self._drain()

    async def _tick_loop(self) -> None:
        """Adjudicate due games every `tick_every` seconds, and just after each deadline (in a
        thread: the mail goes on)."""
        if not self.tick_every:
            return
        # The adjudication is loaded here, not with the service: in the database thread, while
        # the source logs in, before the first message is ingested there.
        tick = await self._in_db(_load_tick)
        while not self._stopping.is_set():
            pause = self.tick_every
            self._ticked_at = self.clock.now()
            try:
                summary = await asyncio.to_thread(tick, self.db, config=self.config,
                                                  clock=self.clock)
                if summary.adjudicated or summary.reminders or summary.notices:
                    self._send_queued()  # the reports and notices go now
                if summary.next_deadline is not None:  # kept to the second, not the minute
                    pause = min(pause, self._until(summary.next_deadline))
                if summary.early_at is not None:  # the early delay after the last orders
                    pause = min(pause, self._until(summary.early_at))
                if summary.waiting:
                    pause = await self._read_up_to(summary.waiting)
            except Exception:
                log.exception("tick failed; trying again later")
            if self.config.archive_dir is not None:  # the phases processed since the last
                await asyncio.to_thread(write_archive, self.db, self.config)
            self._next_tick = time.monotonic() + pause
            while not self._stopping.is_set():  # a deadline the mail set may bring it nearer
                left = self._next_tick - time.monotonic()
                if left <= 0:
                    break
                self._retick.clear()
                waiters = [asyncio.ensure_future(e.wait()) for e in (self._retick,
                                                                     self._stopping)]
                try:
                    await asyncio.wait(waiters, timeout=left,
                                       return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for waiter in waiters:
                        waiter.cancel()

    def _until(self, deadline: datetime) -> float:
        """Seconds from now until just after `deadline` (when a tick finds it passed)."""
        return SETTLE + 0.05 + max(0.0, (deadline - self.clock.now()).total_seconds())

    def _deadline_set(self, deadline: datetime | None) -> None:
        """The mail handled may have set a deadline (START, SET DEADLINE, RESUME): the next
        tick comes just after it if that is sooner."""
        if deadline is None:
            return
        self._bring_tick(time.monotonic() + self._until(deadline))

    async def _read_up_to(self, waiting: list[tuple[str, datetime]]) -> float:
        """Games wait for the mail that arrived until a time to be read: have the source read
        (a pass that begins SETTLE seconds after the latest such time) and wait for it; the
        seconds until the next tick."""
        told = set(waiting)
        for game, until in sorted(told - self._waiting_told):
            log.info("%s: its phase waits for the mail that arrived until %s to be read",
                     game, until.isoformat(timespec="seconds"))
        self._waiting_told = told
        every = self.tick_every or TICK_EVERY
        latest = max(until for _, until in waiting)
        early = (latest - self.clock.now()).total_seconds() + SETTLE + 0.05
        if early > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), min(early, every))
        source = self.source
        handed: HandOver | None = None
        lmtp = _lmtp(source)
        if lmtp is not None and lmtp.hand_over():
            # the mail server delivers what it holds first (gm.mail.lmtp): at the start, what
            # it kept while gm was down; at a deadline, what it could not deliver
            with contextlib.suppress(TimeoutError):
                handed = await asyncio.wait_for(lmtp.handed_over(),
                                                lmtp.config.settle + READ_WAIT)
        self._read.clear()
        source.interrupt()
        try:
            await asyncio.wait_for(self._read.wait(), READ_WAIT)
        except TimeoutError:  # not read yet (the source is down, or settling): soon again
            return min(READ_WAIT, every)
        if handed is not None and (handed.at_start or handed.delivered):
            try:
                if await self._in_db(partial(tell_hand_over, self.db, self.config,
                                             self.clock, sorted(told), handed)):
                    self._send_queued()
            except Exception:
                log.exception("could not tell the GMs what their deadlines waited for")
        return 0.0

    async def _drain(self) -> None:
        try:
            await drain_outbox(self.db, self.sink, config=self.config, clock=self.clock,
                               batch=SEND_BATCH, run_db=self._in_db)
        except Exception:
            log.exception("draining the outbox failed; trying again later")


def _lmtp(source: PolledSource) -> LmtpSource | None:
    """`source` when it takes LMTP deliveries, else None. gm.mail.lmtp (and aiosmtpd, some
    40 ms of a start) is loaded only when the configuration names LMTP (gm.mail.connect): a
    source of another kind is known as such without loading it."""
    lmtp = sys.modules.get("gm.mail.lmtp")
    if lmtp is None or not isinstance(source, lmtp.LmtpSource):
        return None
    return cast("LmtpSource", source)


def _warm_up() -> None:
    """Load what answering the commonest mail needs (the command grammar; the sign-on, order
    and press handlers), so that the first message after a start does not wait for it."""
    try:
        from gm.commands import dispatch  # noqa: F401  (the handlers come with it)
        from gm.commands.parse import parse_message

        parse_message("SIGNON France game password")
    except Exception:  # the first message meets the same fault, and is shunted with it
        log.exception("loading the command handlers failed")


def _load_tick() -> Callable[..., TickSummary]:
    from gm.service.tick import tick

    return tick


async def serve(db: Database, config: Config, *, clock: Clock, once: bool = False,
                tick_every: float | None = TICK_EVERY,
                sender_command: Sequence[str] | None = None,
                worker: WorkerHandle | None = None) -> None:
    """Run the service until SIGTERM/SIGINT (or, with `once`, until the inbox is empty); with
    `sender_command`, replies are sent by a worker process started by that command (or by
    `worker`, a sender worker started already)."""
    service = Service(db, config, clock=clock, tick_every=tick_every,
                      sender_command=sender_command, worker=worker)
    if once:
        await service.once()
        return
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, service.stop)
    try:
        await service.run()
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
