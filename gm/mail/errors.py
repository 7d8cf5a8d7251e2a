"""Typed failures of the mail transport.

Every error says whether trying again later can help (`temporary`): the queue drainer retries
temporary send failures with backoff and gives up on permanent ones; the inbox poller backs off
and reconnects on any IMAP error. Messages never contain passwords.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


class MailError(Exception):
    """A mail transport failure."""

    temporary: bool = True


class ImapError(MailError):
    """The IMAP server could not be used; the poller backs off and reconnects."""


class ImapConnectionError(ImapError):
    """No connection (refused, timed out, TLS failed) or the connection was lost."""


class ImapLoginError(ImapError):
    """The server refused the configured user name or password."""


class ImapProtocolError(ImapError):
    """The server refused a command (a missing folder, flags not accepted, ...)."""


class MaildirError(MailError):
    """A local Maildir could not be read or written."""


@dataclass(frozen=True)
class Refusal:
    """An SMTP server's refusal: the reply code and text."""

    code: int
    message: str

    @property
    def temporary(self) -> bool:
        """4xx replies (and anything that is not 5xx) may succeed later; 5xx will not."""
        return not 500 <= self.code < 600

    def __str__(self) -> str:
        return f"{self.code} {self.message}".strip()


class SendError(MailError):
    """A message was not handed to the SMTP server (for any recipient).

    `refused` maps recipients to their refusals when the server refused recipients one by one.
    """

    def __init__(self, message: str, refused: Mapping[str, Refusal] | None = None) -> None:
        super().__init__(message)
        self.refused: Mapping[str, Refusal] = MappingProxyType(dict(refused or {}))


class TemporarySendError(SendError):
    """Retry later: connection refused or lost, timeouts, 4xx replies, login refused."""

    temporary = True


class PermanentSendError(SendError):
    """Do not retry: the server refused the message or every recipient with 5xx."""

    temporary = False


class SignInFailed(TemporarySendError):
    """Not sent because gm could not sign in (the login was refused, or the password or token
    could not be had): the message is not at fault and waits, however long that lasts."""
