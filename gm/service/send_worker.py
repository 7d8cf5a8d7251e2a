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
import resource
import signal
import sys
from collections.abc import Sequence

from gm.mail.config import Config
from gm.mail.connect import make_sink
from gm.service.clock import Clock
from gm.service.sender import drain_outbox
from gm.store.db import Database

log = logging.getLogger(__name__)

SEND_BATCH = 5  # messages claimed at a time (their leases add up)
STOP_WAIT = 120.0  # seconds the service waits for the worker to finish at its stop


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
            try:
                sent += await drain_outbox(db, sink, config=config, clock=clock,
                                           batch=SEND_BATCH)
            except Exception:
                log.exception("draining the outbox failed; trying again later")
            if closed.is_set():
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), config.poll_interval)
    finally:
        nudges.cancel()
        await sink.close()
        loop.remove_signal_handler(signal.SIGTERM)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        log.info("sender worker stops: %d messages sent, %.2f s of CPU", sent,
                 usage.ru_utime + usage.ru_stime)


class WorkerHandle:
    """The service's end of a sender worker process: start it, nudge it, stop it."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self._proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self._proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE)
        log.info("sender worker started (process %d)", self._proc.pid)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    def nudge(self) -> bool:
        """Tell the worker replies were queued; False when it is not running."""
        proc = self._proc
        if proc is None or proc.returncode is not None or proc.stdin is None:
            return False
        if proc.stdin.is_closing():
            return False
        transport = proc.stdin.transport
        if transport.get_write_buffer_size() < 64:  # the worker has a nudge pending already
            proc.stdin.write(b"\n")
        return True

    async def stop(self) -> None:
        """Close the worker's input and wait for it to send what is due and exit."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            code = await asyncio.wait_for(proc.wait(), STOP_WAIT)
        except TimeoutError:
            log.error("sender worker %d did not stop in %.0f s; killing it", proc.pid, STOP_WAIT)
            proc.kill()
            code = await proc.wait()
        if code:
            log.error("sender worker %d exited with %d", proc.pid, code)
