"""The service's end of its sender worker process (gm.service.send_worker): start, nudge, stop.

Light on imports, so `gm serve` can start the worker before it loads the rest of the service:
the worker then gets ready on the other core meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

log = logging.getLogger(__name__)

STOP_WAIT = 120.0  # seconds the service waits for the worker to finish at its stop


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
    def started(self) -> bool:
        return self._proc is not None

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

    async def stop(self, *, quiet: bool = False) -> None:
        """Close the worker's input and wait for it to send what is due and exit; `quiet`
        logs no failed exit (the service did not start: the worker failed for the same
        reason, which the service reports)."""
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
        if code and not quiet:
            log.error("sender worker %d exited with %d", proc.pid, code)
