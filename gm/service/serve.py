"""`gm serve`: read the mail source, ingest each message, drain the outbox.

A message is marked processed in the source only after its transaction committed, so a crash
between the two offers it again and the inbound store's deduplication makes that harmless. On
SIGTERM or SIGINT the service finishes the message in hand, sends what is queued and stops.
While it runs it also ticks (gm.service.tick) every `tick_every` seconds, so the games' deadlines
are kept without cron; a `gm tick` from cron beside it is harmless.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from gm.mail.config import Config
from gm.mail.connect import make_sink, make_source
from gm.mail.transport import InboundMail, MailSink, PolledSource
from gm.service.clock import Clock
from gm.service.ingest import Ingested, ingest
from gm.service.sender import drain_outbox
from gm.service.tick import tick
from gm.store.db import Database

log = logging.getLogger(__name__)

TICK_EVERY = 60.0  # seconds between two ticks of a running service


async def process_pending(db: Database, source: PolledSource, sink: MailSink, *,
                          config: Config, clock: Clock) -> list[Ingested]:
    """One pass: ingest every message the source has now, then drain the outbox."""
    done: list[Ingested] = []
    async for mail in source.pending():
        result = _ingest_safely(db, mail, config=config, clock=clock)
        if result is not None:
            done.append(result)
            await source.mark_processed(mail.id)
    await drain_outbox(db, sink, config=config, clock=clock)
    return done


def _ingest_safely(db: Database, mail: InboundMail, *, config: Config,
                   clock: Clock) -> Ingested | None:
    """Ingest one message; None when even keeping it failed (the database is unreachable):
    it is then not marked processed, so the source offers it again after a restart."""
    try:
        result = ingest(db, mail.raw, config=config, clock=clock, mailbox_id=mail.id,
                        size=mail.size)
    except Exception:
        log.exception("message %s could not be stored; it stays in the inbox", mail.id)
        return None
    log.info("message %s (inbound %s): %s", mail.id, result.inbound_id, result.outcome.value)
    return result


class Service:
    """The running service; `stop()` ends it after the message in hand."""

    def __init__(self, db: Database, config: Config, *, clock: Clock,
                 source: PolledSource | None = None, sink: MailSink | None = None,
                 tick_every: float | None = TICK_EVERY) -> None:
        self.db = db
        self.tick_every = tick_every
        self.config = config
        self.clock = clock
        self.source = source or make_source(config)
        self.sink = sink or make_sink(config)
        self._stopping = asyncio.Event()
        self._wake = asyncio.Event()  # replies were queued: the drain loop sends them now
        self._closing: asyncio.Task[None] | None = None

    def stop(self) -> None:
        """End after the message in hand (safe to call from a signal handler)."""
        self._stopping.set()
        self.source.interrupt()
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self.source.close())

    async def once(self) -> list[Ingested]:
        try:
            return await process_pending(self.db, self.source, self.sink, config=self.config,
                                         clock=self.clock)
        finally:
            await self.source.close()

    async def run(self) -> None:
        sender = asyncio.create_task(self._drain_loop())
        ticker = asyncio.create_task(self._tick_loop())
        try:
            async for mail in self.source:
                if _ingest_safely(self.db, mail, config=self.config, clock=self.clock):
                    await self.source.mark_processed(mail.id)
                # the drain loop sends the reply while the next message is fetched (in this
                # thread: on SQLite a second writer would wait on the busy timeout's sleeps)
                self._wake.set()
                if self._stopping.is_set():
                    break
        finally:
            # The drain loop is not cancelled: a send in progress must finish and be marked,
            # or its reply would wait for its claim to lapse. It ends at its next check.
            self._stopping.set()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            await self.source.close()
            await self._drain()

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
            await self._drain()

    async def _tick_loop(self) -> None:
        """Adjudicate due games every `tick_every` seconds (in a thread: the mail goes on)."""
        if not self.tick_every:
            return
        while not self._stopping.is_set():
            try:
                summary = await asyncio.to_thread(tick, self.db, config=self.config,
                                                  clock=self.clock)
                if summary.adjudicated:
                    await self._drain()
            except Exception:
                log.exception("tick failed; trying again later")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.tick_every)

    async def _drain(self) -> None:
        try:
            await drain_outbox(self.db, self.sink, config=self.config, clock=self.clock)
        except Exception:
            log.exception("draining the outbox failed; trying again later")


async def serve(db: Database, config: Config, *, clock: Clock, once: bool = False,
                tick_every: float | None = TICK_EVERY) -> None:
    """Run the service until SIGTERM/SIGINT (or, with `once`, until the inbox is empty)."""
    service = Service(db, config, clock=clock, tick_every=tick_every)
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
