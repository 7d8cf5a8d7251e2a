"""Pick the configured source and sink: IMAP (or LMTP) and SMTP when configured, else the local
Maildirs.

Each is imported when picked: the sender worker, which only sends, loads no IMAP client.
"""

from __future__ import annotations

from gm.config import Config
from gm.mail.transport import Backoff, MailSink, PolledSource


def make_source(config: Config, *, backoff: Backoff | None = None) -> PolledSource:
    """The inbox: IMAP when [imap] has a host, LMTP deliveries with [lmtp], else the Maildir
    inbox."""
    if config.lmtp is not None:
        from gm.mail.lmtp import LmtpSource

        return LmtpSource(config.lmtp, max_bytes=config.max_message_bytes, backoff=backoff,
                          hostname=config.domain,
                          trusted_hosts=config.trusted_received_hosts)
    if config.imap is not None:
        from gm.mail.imap import ImapSource

        return ImapSource(config.imap, max_bytes=config.max_message_bytes,
                          poll_interval=config.poll_interval, backoff=backoff)
    from gm.mail.maildir import MaildirSource

    return MaildirSource(config.maildir.inbox, max_bytes=config.max_message_bytes,
                         poll_interval=config.poll_interval, backoff=backoff)


def make_sink(config: Config, *, keep_open: bool = False) -> MailSink:
    """The outbox: SMTP when [smtp] has a host, else the Maildir outbox. With `keep_open` an
    SMTP connection serves many messages (the running service; close the sink at the end)."""
    if config.smtp is not None:
        from gm.mail.smtp import SmtpSink

        return SmtpSink(config.smtp, envelope_from=config.address, keep_open=keep_open)
    from gm.mail.maildir import MaildirSink

    return MaildirSink(config.maildir.outbox)
