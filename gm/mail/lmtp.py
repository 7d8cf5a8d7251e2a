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

Mail the mail server kept while gm was down (or could not deliver) comes when the mail server
next tries, which for Postfix may be many minutes later. So at the start, and at each deadline
the service waits for (`hand_over`), the source runs the configured flush command (`[lmtp]
flush`; Postfix: `postqueue -f`) and the hand-over lasts until no message came for `[lmtp]
quiet` seconds after it, or `[lmtp] settle` seconds at most: only a pass that begins after it
counts for how far the mail was read (`reached`), so a deadline is processed only after it.
Without a flush command the start's hand-over lasts the whole `settle` (the mail server's own
retry must come within it). What each hand-over did is kept (`last_hand_over`) for the GM.

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
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiosmtpd.lmtp import LMTP

from gm.config import LmtpConfig
from gm.mail.arrival import handed_over
from gm.mail.errors import MailError
from gm.mail.source_keys import lmtp_key
from gm.mail.transport import Backoff, InboundMail, PolledSource

log = logging.getLogger(__name__)
PROTOCOL_LOG = "mail.log"  # the LMTP library's logger: a line per command and connection


class _ProtocolLines(logging.Filter):
    """The LMTP library's INFO lines (each command, each connection, "Available AUTH
    mechanisms" on a listener that has no login) are DEBUG lines here: shown only when the
    log shows DEBUG; its warnings and errors stay as they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger().isEnabledFor(logging.DEBUG)
        return True


if not any(isinstance(f, _ProtocolLines) for f in logging.getLogger(PROTOCOL_LOG).filters):
    logging.getLogger(PROTOCOL_LOG).addFilter(_ProtocolLines())

ANSWER_WITHIN = 120.0  # seconds a delivery waits for its commit before it is told to retry
REFUSE_FACTOR = 4  # messages over this many times the size limit are refused outright
SESSION_TIMEOUT = 300.0  # seconds an idle LMTP connection is kept (RFC 5321 4.5.3.2.7)
FLUSH_TIMEOUT = 30.0  # seconds the flush command may take before it is given up


@dataclass(frozen=True)
class HandOver:
    """One hand-over by the mail server: the flush command run ("" when none is configured),
    why it failed ("" when it ran), the messages delivered meanwhile, how long it lasted, and
    whether it ended at the `settle` bound (not because deliveries stopped)."""

    flush: str
    failed: str
    delivered: int
    seconds: float
    bounded: bool
    at_start: bool

    def said(self, quiet: float) -> str:
        """What gm waited for, in a sentence for the GM."""
        came = f"{self.delivered} message{'' if self.delivered == 1 else 's'}"
        if self.flush and not self.failed:
            how = (f"asked the mail server to deliver what it held for gm (`{self.flush}`) and "
                   f"waited {self.seconds:.1f} s, ")
            how += ("until the bound of [lmtp] settle" if self.bounded else
                    f"until no message had come for {quiet:g} s")
        elif self.flush:
            how = (f"could not ask the mail server to deliver (`{self.flush}`: {self.failed}) "
                   f"and waited {self.seconds:.1f} s (the bound of [lmtp] settle)")
        else:
            how = (f"waited {self.seconds:.1f} s (the whole [lmtp] settle: no flush command is "
                   "set) for the mail server to deliver what it held for gm")
        return f"gm {how}; {came} came meanwhile."


class LmtpSource(PolledSource):
    """Messages delivered over LMTP, offered in the order they arrived."""

    def __init__(self, config: LmtpConfig, *, max_bytes: int | None = None,
                 backoff: Backoff | None = None, hostname: str = "gm",
                 trusted_hosts: tuple[str, ...] = ()) -> None:
        super().__init__(backoff=backoff)
        self.trusted_hosts = trusted_hosts  # whose Received line dates arrival (gm.mail.arrival)
        self.config = config
        self.key = lmtp_key(config)
        self.max_bytes = max_bytes
        self.hostname = hostname
        self.answer_within = ANSWER_WITHIN
        self._server: asyncio.AbstractServer | None = None
        self._arrived: deque[InboundMail] = deque()
        self._waiting: dict[str, list[asyncio.Future[bool]]] = {}
        self._delivered = 0  # messages delivered since the start
        self._last_delivery = 0.0  # monotonic
        self._handing_over: asyncio.Task[None] | None = None
        self._settled_at: float | None = None  # monotonic: the last hand-over ended
        self.last_hand_over: HandOver | None = None

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
        log.info("taking mail over LMTP on %s", self.config.where)
        if not self.config.flush:
            log.info("no [lmtp] flush command: deadlines that passed while gm was down wait "
                     "%g s ([lmtp] settle) for the mail server's next retry", self.config.settle)
        self._begin_hand_over(at_start=True)

    def hand_over(self) -> bool:
        """Have the mail server deliver what it holds now (a deadline waits for it): a
        hand-over begins unless one is under way or no flush command is set; whether one is
        under way now."""
        if self._handing_over is not None and not self._handing_over.done():
            return True
        if not self.config.flush or self._server is None:
            return False
        self._begin_hand_over(at_start=False)
        return True

    @property
    def handing_over(self) -> bool:
        return self._handing_over is not None and not self._handing_over.done()

    async def handed_over(self) -> HandOver | None:
        """Wait for the hand-over under way to end; what the last one did."""
        task = self._handing_over
        if task is not None and not task.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(task)
        return self.last_hand_over

    def _begin_hand_over(self, *, at_start: bool) -> None:
        self._handing_over = asyncio.get_running_loop().create_task(
            self._hand_over(at_start=at_start))

    async def _hand_over(self, *, at_start: bool) -> None:
        """Run the flush command, then wait until no delivery came for `quiet` seconds (or
        `settle` at most); then a pass counts again."""
        config = self.config
        began = time.monotonic()
        delivered = self._delivered
        command = " ".join(config.flush)
        failed = await _flush(config.flush) if config.flush else ""
        flushed = time.monotonic()
        bound = began + config.settle
        bounded = False
        while not self._closed:
            now = time.monotonic()
            if not config.flush or failed:
                end = bound if at_start else now
            else:
                end = min(bound, max(flushed, self._last_delivery) + config.quiet)
            if now >= end:
                bounded = end >= bound
                break
            await asyncio.sleep(end - now)
        self.last_hand_over = HandOver(command, failed, self._delivered - delivered,
                                       time.monotonic() - began, bounded, at_start)
        log.log(logging.INFO if at_start or self.last_hand_over.delivered else logging.DEBUG,
                "LMTP hand-over: %s", self.last_hand_over.said(config.quiet))
        self._settled_at = time.monotonic()
        self._interrupt.set()  # a pass now, which counts: how far the mail was read is recorded

    async def pending(self) -> AsyncIterator[InboundMail]:
        await self.start()
        while self._arrived and not self._closed:
            yield self._arrived.popleft()

    def reached(self, started: float) -> float | None:
        """Mail the mail server queued while the service was down (or could not deliver)
        comes in a hand-over: a pass counts only once it began after the last one ended."""
        settled = self._settled_at
        if settled is None or self.handing_over or started < settled:
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
                           size=len(raw), arrived_at=handed_over(raw, datetime.now(UTC),
                                                                 self.trusted_hosts))
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(mail.id, []).append(waiter)
        self._arrived.append(mail)
        self._delivered += 1
        self._last_delivery = time.monotonic()
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
        handing_over, self._handing_over = self._handing_over, None
        if handing_over is not None:
            handing_over.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await handing_over
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


async def _flush(command: tuple[str, ...]) -> str:
    """Run the flush command (no shell); why it failed, or "" when it succeeded."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        why = exc.strerror or str(exc)
        log.warning("cannot run the [lmtp] flush command %r: %s", " ".join(command), why)
        return why
    try:
        _, err = await asyncio.wait_for(proc.communicate(), FLUSH_TIMEOUT)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        why = f"no answer within {FLUSH_TIMEOUT:g} s"
    else:
        if proc.returncode == 0:
            return ""
        said = err.decode(errors="replace").strip().splitlines()
        why = f"exit status {proc.returncode}" + (f": {said[-1]}" if said else "")
    log.warning("the [lmtp] flush command %r failed: %s", " ".join(command), why)
    return why


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
