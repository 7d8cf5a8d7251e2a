"""The real service on a Dovecot mailbox and an SMTP server, one pass at a time, with the
service's clock in the test's hands: deliver raw messages, run a pass, read what went out."""

from __future__ import annotations

from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from functools import cached_property
from pathlib import Path

from gm.config import Config
from gm.mail.connect import make_sink, make_source
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store.db import Database
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, Received, SmtpServer
from tests.support.service_support import START, maildir_config


class Sent:
    """One message the SMTP server received: its header read once, the whole message parsed
    only when a test reads it (most of what a pass sends, the reports with their pictures, is
    only counted or passed over)."""

    def __init__(self, received: Received) -> None:
        self.received = received
        self.recipients: tuple[str, ...] = tuple(received.rcpt_tos)

    @cached_property
    def message(self) -> EmailMessage:
        msg = message_from_bytes(self.received.data, policy=default)
        assert isinstance(msg, EmailMessage)
        return msg

    @property
    def subject(self) -> str:
        return str(self.received.headers["Subject"])

    @property
    def is_reply(self) -> bool:
        return bool(self.received.headers["In-Reply-To"])

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None
        text = str(part.get_content())  # type: ignore[attr-defined]
        return text.replace("\r\n", "\n")


@dataclass
class ImapService:
    """The service reading a Dovecot mailbox and sending through an SMTP server."""

    db: Database
    root: Path
    dovecot: DovecotServer
    account: ImapAccount
    smtp: SmtpServer
    clock: FixedClock = field(default_factory=lambda: FixedClock(START))
    seen: int = 0

    def config(self) -> Config:
        base = maildir_config(self.root)
        return Config(data_dir=base.data_dir, address=base.address,
                      display_name=base.display_name, maildir=base.maildir,
                      imap=self.account.config(), smtp=self.smtp.config(), poll_interval=0.2)

    async def run(self, *raws: bytes, config: Config | None = None) -> list[Disposition]:
        """Put `raws` in the mailbox and run one pass of the service over it."""
        for raw in raws:
            self.dovecot.save(self.account.user, raw)
        config = config or self.config()
        service = Service(self.db, config, clock=self.clock, source=make_source(config),
                          sink=make_sink(config))
        return [r.outcome for r in await service.once()]

    def new_mail(self) -> list[Sent]:
        """What the SMTP server received since the last call."""
        received = self.smtp.received
        new, self.seen = received[self.seen:], len(received)
        return [Sent(item) for item in new]
