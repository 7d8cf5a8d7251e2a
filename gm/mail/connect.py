"""Pick the configured source and sink: IMAP and SMTP when configured, else the local Maildirs."""

from __future__ import annotations

from gm.mail.config import Config
from gm.mail.imap import ImapSource
from gm.mail.maildir import MaildirSink, MaildirSource
from gm.mail.smtp import SmtpSink
from gm.mail.transport import Backoff, MailSink, PolledSource


def make_source(config: Config, *, backoff: Backoff | None = None) -> PolledSource:
    """The inbox: IMAP when [imap] has a host, else the Maildir inbox."""
    if config.imap is not None:
        return ImapSource(config.imap, max_bytes=config.max_message_bytes,
                          poll_interval=config.poll_interval, backoff=backoff)
    return MaildirSource(config.maildir.inbox, max_bytes=config.max_message_bytes,
                         poll_interval=config.poll_interval, backoff=backoff)


def make_sink(config: Config) -> MailSink:
    """The outbox: SMTP when [smtp] has a host, else the Maildir outbox."""
    if config.smtp is not None:
        return SmtpSink(config.smtp, envelope_from=config.address)
    return MaildirSink(config.maildir.outbox)
