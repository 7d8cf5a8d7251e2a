"""The service's end of its sender worker process (gm.service.send_worker): start, nudge,
supervise, stop.

Light on imports, so `gm serve` can start the worker before it loads the rest of the service:
the worker then gets ready on the other core meanwhile. Once the service runs it supervises the
worker (`supervise`): a worker that dies is logged at once (ERROR, with its exit status or
signal) and a new one started after a backoff (1 s, 2 s, 4 s ... up to a minute; from 1 s again
once a worker ran a minute); meanwhile the service sends itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable, Sequence

log = logging.getLogger(__name__)

STOP_WAIT = 120.0  # seconds the service waits for the worker to finish at its stop
FIRST_RESTART = 1.0  # seconds before a dead worker's successor starts, doubled each time
LONGEST_RESTART = 60.0
STEADY = 60.0  # a worker that ran this long starts the backoff over


def exit_status(code: int) -> str:
    """A process's exit, in words: "killed by SIGKILL", "exited with status 1"."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return f"exited with status {code}"


class WorkerHandle:
    """The service's end of a sender worker process: start it, nudge it, supervise it, stop
    it."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self._proc: asyncio.subprocess.Process | None = None
        self._started_at = 0.0
        self._supervisor: asyncio.Task[None] | None = None
        self._stopping = False
        self._reported: int | None = None  # the pid of the dead worker logged already

    async def start(self) -> None:
        self._proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE)
        self._started_at = time.monotonic()
        log.info("sender worker started (process %d)", self._proc.pid)

    @property
    def started(self) -> bool:
        return self._proc is not None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def pid(self) -> int | None:
        """The running worker's process id, else None."""
        return self._proc.pid if self.alive and self._proc is not None else None

    def supervise(self, on_death: Callable[[], None]) -> None:
        """Watch the worker from now on: should it die, log it, call `on_death` (the service
        then sends itself) and start a new one after the backoff."""
        if self._supervisor is None and self._proc is not None:
            self._supervisor = asyncio.get_running_loop().create_task(self._watch(on_death))

    async def _watch(self, on_death: Callable[[], None]) -> None:
        delay = FIRST_RESTART
        while not self._stopping and (proc := self._proc) is not None:
            code = await proc.wait()
            if self._stopping:
                return
            if time.monotonic() - self._started_at >= STEADY:
                delay = FIRST_RESTART
            self._reported = proc.pid
            log.error("sender worker %d %s; the service sends meanwhile and starts a new "
                      "worker in %.0f s", proc.pid, exit_status(code), delay)
            on_death()
            while True:
                await asyncio.sleep(delay)
                delay = min(LONGEST_RESTART, delay * 2)
                if self._stopping:
                    return
                try:
                    await self.start()
                    break
                except OSError:
                    log.exception("the sender worker could not be started again; trying "
                                  "again in %.0f s", delay)

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

    async def stop(self, *, quiet: bool = False) -> None:
        """Close the worker's input and wait for it to send what is due and exit; `quiet`
        logs no failed exit (the service did not start: the worker failed for the same
        reason, which the service reports)."""
        self._stopping = True
        supervisor, self._supervisor = self._supervisor, None
        if supervisor is not None:
            supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await supervisor
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
        if code and not quiet and proc.pid != self._reported:
            log.error("sender worker %d %s", proc.pid, exit_status(code))
