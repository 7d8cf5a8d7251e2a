"""Telling a running `gm serve` that another process queued mail, so it is sent at once.

`gm tick` from cron, `gm ingest` from the mail server's delivery and `gm shunt replay` commit
replies and reports to the outbox in the database; the service would find them only at its next
poll. Instead they send one datagram to the service's wake socket (`<data_dir>/sender.wake`, a
UNIX datagram socket the service binds while it runs), and the service sends the outbox then.
No service running, or a socket path too long for the system: nothing happens, and the mail
goes at the service's next poll (or with `gm tick --send`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path

from gm.config import Config

log = logging.getLogger(__name__)

MAX_PATH_BYTES = 100  # sun_path holds 108 bytes on Linux, 104 on the BSDs


def wake_path(config: Config) -> Path:
    return config.data_dir / "sender.wake"


def wake_sender(config: Config) -> bool:
    """Nudge the running service's sender; False when no service listens."""
    path = wake_path(config)
    if len(os.fsencode(str(path))) > MAX_PATH_BYTES:
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.setblocking(False)
        try:
            sock.sendto(b"!", str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            return False  # no service runs (or it stopped without removing the socket)
        except BlockingIOError:
            return True  # its queue is full of wakes already
        except OSError as exc:
            log.debug("cannot wake the sender at %s: %s", path, exc)
            return False
    return True


class _Wakes(asyncio.DatagramProtocol):
    def __init__(self, on_wake: Callable[[], None]) -> None:
        self.on_wake = on_wake

    def datagram_received(self, data: bytes, addr: object) -> None:
        self.on_wake()


class WakeListener:
    """The service's end: calls `on_wake` for every nudge until closed."""

    def __init__(self, config: Config, on_wake: Callable[[], None]) -> None:
        self.path = wake_path(config)
        self.on_wake = on_wake
        self._transport: asyncio.DatagramTransport | None = None

    async def start(self) -> bool:
        """Bind the socket; False (logged) when it cannot be, the poll interval then bounds how
        long mail queued by other processes waits."""
        if len(os.fsencode(str(self.path))) > MAX_PATH_BYTES:
            log.warning("the wake socket path %s is too long; mail queued by other processes "
                        "waits for the poll interval", self.path)
            return False
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)  # left by a service that was killed
            sock.bind(str(self.path))
        except OSError as exc:
            sock.close()
            log.warning("cannot bind the wake socket %s (%s); mail queued by other processes "
                        "waits for the poll interval", self.path, exc)
            return False
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_datagram_endpoint(lambda: _Wakes(self.on_wake),
                                                           sock=sock)
        self._transport = transport
        return True

    def close(self) -> None:
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
