"""The sender worker: a second process `gm serve` starts to send the outbox, so composing and
sending replies runs beside the ingesting (on another core) instead of sharing its one
interpreter lock.

The outbox is in the database, so the worker needs nothing from the service but a nudge: the
service writes a byte to the worker's standard input when it committed replies, and the worker
drains the outbox then (and every poll interval, so retries fall due without new mail). Claims
keep two senders (this worker, a service's own sender, a `gm` run beside) from sending a message
twice; each message is marked sent as soon as the server accepted it (gm.service.sender).

The worker ends with the service: when its standard input closes (the service stopped, or was
killed) it finishes the messages in hand, sends what is due and exits. SIGINT is ignored (a
terminal's ^C reaches the whole process group; the service then closes the input), SIGTERM ends
it the same way as the closed input.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import signal
import sys

from gm.config import Config
from gm.mail.connect import make_sink
from gm.service.clock import Clock
from gm.service.sender import drain_outbox
from gm.service.worker_handle import STOP_WAIT, WorkerHandle
from gm.store.db import Database

log = logging.getLogger(__name__)

__all__ = ["STOP_WAIT", "WorkerHandle", "run_worker"]

SEND_BATCH = 20  # messages claimed at a time (their leases add up; gm.service.serve)


async def _read_nudges(reader: asyncio.StreamReader, wake: asyncio.Event,
                       closed: asyncio.Event) -> None:
    """Set `wake` for every nudge on the input, `closed` (and `wake`) at its end."""
    try:
        while await reader.read(4096):
            wake.set()
    except (OSError, ConnectionError):
        pass
    finally:
        closed.set()
        wake.set()


async def run_worker(db: Database, config: Config, *, clock: Clock) -> None:
    """Send the outbox whenever nudged on standard input, until it closes (or SIGTERM)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    wake, closed = asyncio.Event(), asyncio.Event()
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def on_term() -> None:
        closed.set()
        wake.set()

    loop.add_signal_handler(signal.SIGTERM, on_term)
    db.take_lock_promptly()  # short transactions beside the service's long ones
    nudges = asyncio.create_task(_read_nudges(reader, wake, closed))
    sink = make_sink(config, keep_open=True)
    sent = 0
    try:
        while True:
            wake.clear()
            # the last drain starts after the input closed: the service, stopped or killed,
            # commits nothing later, so a reply it committed while a drain was under way
            # (that drain's queries already made) is sent by the next
            last = closed.is_set()
            try:
                sent += await drain_outbox(db, sink, config=config, clock=clock,
                                           batch=SEND_BATCH)
            except Exception:
                log.exception("draining the outbox failed; trying again later")
            if last:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), config.poll_interval)
    finally:
        nudges.cancel()
        await sink.close()
        loop.remove_signal_handler(signal.SIGTERM)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        log.info("sender worker %d stops: %d messages sent, %.2f s of CPU", os.getpid(),
                 sent, usage.ru_utime + usage.ru_stime)
