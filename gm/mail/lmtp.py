"""Mail handed over by the mail server over LMTP (RFC 2033): a source without a poll or a wait.

The mail server (Postfix `mailbox_transport = lmtp:unix:/run/gm/lmtp.sock`, Exim's lmtp
transport, ...) delivers each message to `gm serve` as it arrives, so the service starts on it
at once, where an IMAP server tells an IDLE session of new mail only after its own delay
(Dovecot 2.3: half a second). The source answers a message 250 only when the caller marked it
processed, after its transaction committed (`mark_processed`, as for IMAP and the Maildir): a
message whose transaction did not commit is answered 451 and the mail server delivers it again
later, so nothing it handed over is lost. A message delivered twice (the service stopped after
the commit, before the answer) has the same id (a digest of its bytes) and the inbound store
keeps it once.

It listens on a UNIX socket or a loopback address only: LMTP has no login (gm.config checks).
A message longer than the size limit is kept cut short, as the other sources do, so the service
answers its sender; one more than four times the limit is refused (552) by the protocol, and the
mail server bounces it to its sender.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import logging
import os
import socket
import stat
import time
from collections import deque
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from aiosmtpd.lmtp import LMTP

from gm.config import LmtpConfig
from gm.mail.arrival import handed_over
from gm.mail.errors import MailError
from gm.mail.source_keys import lmtp_key
from gm.mail.transport import Backoff, InboundMail, PolledSource

log = logging.getLogger(__name__)

ANSWER_WITHIN = 120.0  # seconds a delivery waits for its commit before it is told to retry
REFUSE_FACTOR = 4  # messages over this many times the size limit are refused outright
SESSION_TIMEOUT = 300.0  # seconds an idle LMTP connection is kept (RFC 5321 4.5.3.2.7)


class LmtpSource(PolledSource):
    """Messages delivered over LMTP, offered in the order they arrived."""

    def __init__(self, config: LmtpConfig, *, max_bytes: int | None = None,
                 backoff: Backoff | None = None, hostname: str = "gm") -> None:
        super().__init__(backoff=backoff)
        self.config = config
        self.key = lmtp_key(config)
        self.max_bytes = max_bytes
        self._listening_since: float | None = None  # monotonic
        self.hostname = hostname
        self.answer_within = ANSWER_WITHIN
        self._server: asyncio.AbstractServer | None = None
        self._arrived: deque[InboundMail] = deque()
        self._waiting: dict[str, list[asyncio.Future[bool]]] = {}

    @property
    def buffered(self) -> int:
        return len(self._arrived)

    async def start(self) -> None:
        """Listen (done by the first pass when not called before)."""
        if self._server is not None:
            return
        loop = asyncio.get_running_loop()
        limit = None if self.max_bytes is None else self.max_bytes * REFUSE_FACTOR

        def protocol() -> LMTP:
            return LMTP(_Handler(self), data_size_limit=limit, enable_SMTPUTF8=True,
                        decode_data=False, hostname=self.hostname, ident="gm",
                        timeout=SESSION_TIMEOUT, loop=loop)

        try:
            if self.config.path is not None:
                path = self.config.path
                await asyncio.to_thread(_clear_stale_socket, path)
                self._server = await loop.create_unix_server(protocol, str(path))
                os.chmod(path, 0o660)  # the mail server's group may deliver
            else:
                self._server = await loop.create_server(protocol, self.config.host,
                                                        self.config.port)
        except OSError as exc:
            raise MailError(f"cannot listen for LMTP on {self.config.where}: "
                            f"{exc.strerror or exc}") from None
        self._listening_since = time.monotonic()
        # a pass when the settling ends, which counts: how far the mail was read is recorded
        loop.call_later(self.config.settle, self._interrupt.set)
        log.info("taking mail over LMTP on %s", self.config.where)

    async def pending(self) -> AsyncIterator[InboundMail]:
        await self.start()
        while self._arrived and not self._closed:
            yield self._arrived.popleft()

    def reached(self, started: float) -> float | None:
        """Mail the mail server queued while the service was down comes once it listens
        again: a pass counts only once the server has had `settle` seconds to hand it over."""
        since = self._listening_since
        if since is None or started < since + self.config.settle:
            return None
        return started

    async def wait_for_mail(self) -> None:
        await self._interrupt.wait()
        self._interrupt.clear()

    async def mark_processed(self, mail_id: str) -> None:
        for waiter in self._waiting.pop(mail_id, []):
            if not waiter.done():
                waiter.set_result(True)

    def _arrive(self, raw: bytes) -> asyncio.Future[bool]:
        limit = len(raw) if self.max_bytes is None else self.max_bytes + 1
        mail = InboundMail(id="lmtp-" + hashlib.sha256(raw).hexdigest()[:40], raw=raw[:limit],
                           size=len(raw), arrived_at=handed_over(raw, datetime.now(UTC)))
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(mail.id, []).append(waiter)
        self._arrived.append(mail)
        self._interrupt.set()
        return waiter

    def _forget(self, waiter: asyncio.Future[bool]) -> None:
        for mail_id, waiters in list(self._waiting.items()):
            if waiter in waiters:
                waiters.remove(waiter)
                if not waiters:
                    del self._waiting[mail_id]

    async def close(self) -> None:
        await super().close()
        server, self._server = self._server, None
        for waiters in self._waiting.values():  # told to deliver again later
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(False)
        self._waiting.clear()
        self._arrived.clear()
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)
            if self.config.path is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.config.path)


class _Handler:
    """aiosmtpd's handler: every recipient is the service; a message is kept once."""

    def __init__(self, source: LmtpSource) -> None:
        self.source = source

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        source = self.source
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        count = max(1, len(envelope.rcpt_tos))
        if source.closed:
            return _each(count, "421 4.3.2 the service is stopping; deliver again later")
        waiter = source._arrive(raw)
        try:
            kept = await asyncio.wait_for(asyncio.shield(waiter), source.answer_within)
        except TimeoutError:
            source._forget(waiter)
            kept = False
        if not kept:
            return _each(count, "451 4.3.0 not stored yet; deliver again later")
        return _each(count, "250 2.0.0 stored")


def _each(count: int, status: str) -> str:
    """LMTP answers the end of the data once per accepted recipient (RFC 2033 section 4.2)."""
    return "\r\n".join([status] * count)


def _clear_stale_socket(path: os.PathLike[str] | str) -> None:
    """Remove a socket file left by a service that stopped without removing it; refuse to take
    over one where a service still listens, or a file that is not a socket."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(errno.EEXIST, f"{path} exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(os.fspath(path))
    except (ConnectionRefusedError, FileNotFoundError):
        os.unlink(path)
        return
    finally:
        probe.close()
    raise OSError(errno.EADDRINUSE, f"another service listens on {path}")
