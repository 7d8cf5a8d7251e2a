"""What every mail source and sink offers, and the polling loop the sources share.

A source yields each unprocessed message as an `InboundMail` (an id and the raw bytes). The
caller stores it, commits, and only then calls `mark_processed(mail.id)`. A message not marked
is offered again after a reconnect or a restart, so processing must be idempotent (key inbound
rows on the Message-ID, or on the id when a message has none). A marked message is never
offered again.

    async with make_source(config) as source:
        async for mail in source:           # runs until source.close() or cancellation
            with store.transaction():
                ingest(mail.id, mail.raw)
            await source.mark_processed(mail.id)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from types import MappingProxyType, TracebackType
from typing import Protocol, Self, runtime_checkable

from gm.mail.errors import MailError, Refusal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class InboundMail:
    """One message from a source.

    `id` identifies it to `mark_processed` ("UIDVALIDITY:UID" for IMAP, the file's unique name
    for a Maildir). `raw` holds at most the source's byte limit plus one byte, so a message
    larger than the limit arrives cut short; `size` is the whole message's size, which
    `decode_message` compares with the limit. `arrived_at`: when the mail system received it
    (gm.mail.arrival), by the real clock; None if the source cannot tell.
    """

    id: str
    raw: bytes
    size: int
    arrived_at: datetime | None = None

    @property
    def truncated(self) -> bool:
        return self.size > len(self.raw)


@dataclass(frozen=True)
class SendReport:
    """A message the server accepted for at least one recipient.

    `refused` lists recipients refused one by one while others were accepted; the message must
    not be sent again to the accepted ones.
    """

    message_id: str | None
    accepted: tuple[str, ...]
    refused: Mapping[str, Refusal] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class RawMessage:
    """A message serialised already (CRLF line ends; gm.mail.compose.compose_plain makes them):
    its Message-ID, its From addr-spec, its recipients and its bytes; `lf`: the same bytes with
    LF line ends (as a Maildir stores them), where its writer made them from parts it keeps
    (gm.service.shared_compose), else None; `smtp_form`: its writer made every line end CRLF
    and no CR or LF stands alone (compose_plain, compose_related), so that the SMTP client
    need not look (gm.mail.smtp_data)."""

    message_id: str
    sender: str
    recipients: tuple[str, ...]
    data: bytes
    lf: bytes | None = field(default=None, compare=False, repr=False)
    smtp_form: bool = field(default=False, compare=False, repr=False)


OutgoingMessage = EmailMessage | RawMessage


@runtime_checkable
class MailSource(Protocol):
    """Unprocessed inbound messages, marked processed by the caller after it commits."""

    def __aiter__(self) -> AsyncIterator[InboundMail]: ...

    def pending(self) -> AsyncIterator[InboundMail]: ...

    async def mark_processed(self, mail_id: str) -> None: ...

    async def close(self) -> None: ...


@runtime_checkable
class MailSink(Protocol):
    """Outbound delivery of composed messages; `close` ends a connection kept open.
    `envelope_from`, when given, is the message's envelope sender (its bounces go there)."""

    async def send(self, message: OutgoingMessage, *,
                   envelope_from: str | None = None) -> SendReport: ...

    async def close(self) -> None: ...


class Backoff:
    """Exponential delays between retries: initial, initial*factor, ... capped at maximum.

    Each delay is spread by +-jitter (a fraction) so that restarted services do not retry in step.
    """

    def __init__(
        self,
        initial: float = 1.0,
        maximum: float = 300.0,
        factor: float = 2.0,
        jitter: float = 0.1,
    ) -> None:
        if initial <= 0 or maximum < initial or factor < 1 or not 0 <= jitter < 1:
            raise ValueError("backoff needs 0 < initial <= maximum, factor >= 1, 0 <= jitter < 1")
        self.initial = initial
        self.maximum = maximum
        self.factor = factor
        self.jitter = jitter
        self._next = initial

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self.maximum, self._next * self.factor)
        spread = delay * self.jitter
        return max(0.0, delay + random.uniform(-spread, spread))

    def reset(self) -> None:
        self._next = self.initial


class PolledSource(ABC):
    """The loop shared by the IMAP and Maildir sources.

    Subclasses provide `pending()` (one pass over unprocessed messages not yet offered),
    `wait_for_mail()` (IDLE or a poll interval, cut short by `_interrupt`) and
    `mark_processed()`. Iterating the source runs passes forever; failures are logged and
    retried after a backoff delay, and are visible as `last_error` / `consecutive_failures`.
    After each whole pass, `on_pass` (if set) is awaited with the `time.monotonic()` instant
    up to which every message that arrived has now been offered (`reached`), so the reader can
    record how far the source has been read once it has handled what was offered.
    """

    key: str = ""  # names what is read, the same in every process (gm.mail.connect.source_key)

    def __init__(self, *, backoff: Backoff | None = None) -> None:
        self.on_pass: Callable[[float], Awaitable[None]] | None = None
        self.backoff = backoff or Backoff()
        self.last_error: MailError | None = None
        self.consecutive_failures = 0
        self._logged: str | None = None  # the failure logged last (while failures go on)
        self._closed = False
        self._interrupt = asyncio.Event()

    @abstractmethod
    def pending(self) -> AsyncIterator[InboundMail]:
        """Unprocessed messages not yet offered since the last (re)connect, oldest first."""

    @abstractmethod
    async def wait_for_mail(self) -> None:
        """Return when new mail may have arrived, the poll interval passed or on interrupt."""

    @abstractmethod
    async def mark_processed(self, mail_id: str) -> None:
        """Record that the message's transaction committed; it will not be offered again."""

    async def mark_processed_many(self, mail_ids: list[str]) -> None:
        """`mark_processed` for each of these (a source may do it in fewer steps)."""
        for mail_id in mail_ids:
            await self.mark_processed(mail_id)

    @property
    def buffered(self) -> int:
        """Messages the source holds already and offers next without asking its server (the
        caller may put off marking what it processed until this is 0)."""
        return 0

    @property
    def closed(self) -> bool:
        return self._closed

    def interrupt(self) -> None:
        """Cut the current wait short (the next pass starts at once)."""
        self._interrupt.set()

    async def close(self) -> None:
        self._closed = True
        self._interrupt.set()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __aiter__(self) -> AsyncGenerator[InboundMail, None]:
        return self._run()

    async def _run(self) -> AsyncGenerator[InboundMail, None]:
        while not self._closed:
            try:
                offered = False
                started = time.monotonic()
                async for mail in self.pending():
                    self._succeeded()
                    offered = True
                    yield mail
                    if self._closed:
                        return
                self._succeeded()
                await self._pass_done(started)
                if not offered and not self._closed:
                    await self.wait_for_mail()
            except MailError as error:
                repeated = self._logged == str(error)
                self._logged = str(error)
                self.last_error = error
                self.consecutive_failures += 1
                delay = self.backoff.next_delay()
                # one line per kind of failure, not one per attempt
                log.log(logging.DEBUG if repeated else logging.WARNING,
                        "%s (failure %d; retrying in %.2f s%s)", error,
                        self.consecutive_failures, delay,
                        "; repeats are not logged" if not repeated else "")
                await self._pause(delay)

    def reached(self, started: float) -> float | None:
        """After a whole pass that began at `started` (monotonic): the instant up to which
        every message that arrived has been offered, or None if that is not known yet."""
        return started

    async def _pass_done(self, started: float) -> None:
        reached = self.reached(started)
        if self.on_pass is not None and reached is not None:
            await self.on_pass(reached)

    def _succeeded(self) -> None:
        if self.consecutive_failures:
            log.info("mail source working again after %d failures", self.consecutive_failures)
        self.consecutive_failures = 0
        self._logged = None
        self.backoff.reset()

    async def _pause(self, seconds: float) -> None:
        """Sleep, but wake early when the source is closed."""
        if self._closed:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wait_closed(), seconds)

    async def _wait_closed(self) -> None:
        while not self._closed:
            self._interrupt.clear()
            await self._interrupt.wait()
