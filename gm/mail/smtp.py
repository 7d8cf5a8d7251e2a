"""Sending mail through an SMTP server with aiosmtplib (a MailSink).

`send` opens a connection (TLS, STARTTLS or plain on loopback; AUTH when a user is configured),
hands the message over and closes. Failures are typed for the outbound queue:
TemporarySendError (connection refused or lost, timeouts, TLS problems, 4xx replies, login
refused: the message is not at fault, retry with backoff) and PermanentSendError (5xx for the
message or for every recipient: do not retry). When some recipients are refused and others
accepted, `send` returns normally and the report lists the refused ones.
"""

from __future__ import annotations

import logging
import ssl
from email.message import EmailMessage
from email.utils import getaddresses

import aiosmtplib

from gm.mail.config import Security, SmtpConfig
from gm.mail.errors import PermanentSendError, Refusal, SendError, TemporarySendError
from gm.mail.transport import SendReport

log = logging.getLogger(__name__)


def _response_error(what: str, code: int, message: str) -> SendError:
    refusal = Refusal(code, message)
    text = f"{what}: {refusal}"
    return TemporarySendError(text) if refusal.temporary else PermanentSendError(text)


class SmtpSink:
    """Delivers messages to the configured SMTP server; the envelope sender is `envelope_from`.

    `envelope_from` None takes the message's From address. Use the service's own address, so
    bounces come back to the service's mailbox (and are recognised there as bounces).
    """

    def __init__(self, config: SmtpConfig, *, envelope_from: str | None = None) -> None:
        self.config = config
        self.envelope_from = envelope_from

    def __repr__(self) -> str:
        c = self.config
        return f"SmtpSink({c.host}:{c.port}, {c.security}, user={c.user!r})"

    def _tls_context(self) -> ssl.SSLContext | None:
        if self.config.security is Security.PLAIN:
            return None
        cafile = str(self.config.ca_file) if self.config.ca_file else None
        return ssl.create_default_context(cafile=cafile)

    def _client(self) -> aiosmtplib.SMTP:
        c = self.config
        return aiosmtplib.SMTP(
            hostname=c.host,
            port=c.port,
            username=c.user or None,
            password=c.password.reveal() if c.user else None,
            use_tls=c.security is Security.TLS,
            start_tls=c.security is Security.STARTTLS,
            tls_context=self._tls_context(),
            timeout=c.timeout,
        )

    @property
    def _where(self) -> str:
        return f"SMTP server {self.config.host}:{self.config.port}"

    async def send(self, message: EmailMessage) -> SendReport:
        message_id = str(message["Message-ID"]) if message["Message-ID"] else None
        client = self._client()
        try:
            await client.connect()
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise TemporarySendError(
                f"{self._where} refused the login for user {self.config.user!r}: "
                f"{Refusal(exc.code, exc.message)}") from None
        except aiosmtplib.SMTPResponseException as exc:
            raise _response_error(f"{self._where} refused the connection", exc.code,
                                  exc.message) from None
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise TemporarySendError(f"cannot connect to {self._where}: {exc}") from None
        try:
            errors, _ = await client.send_message(message, sender=self.envelope_from)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            refused = {r.recipient: Refusal(r.code, r.message) for r in exc.recipients}
            detail = "; ".join(f"{rcpt}: {refusal}" for rcpt, refusal in refused.items())
            error_type = (TemporarySendError if any(r.temporary for r in refused.values())
                          else PermanentSendError)
            raise error_type(f"{self._where} refused every recipient: {detail}",
                             refused) from None
        except aiosmtplib.SMTPSenderRefused as exc:
            raise _response_error(f"{self._where} refused the sender {exc.sender}", exc.code,
                                  exc.message) from None
        except aiosmtplib.SMTPDataError as exc:
            raise _response_error(f"{self._where} refused the message", exc.code,
                                  exc.message) from None
        except aiosmtplib.SMTPResponseException as exc:
            raise _response_error(f"{self._where} failed", exc.code, exc.message) from None
        except aiosmtplib.SMTPNotSupported as exc:
            raise PermanentSendError(f"{self._where} cannot take this message: {exc}") from None
        except ValueError as exc:  # no sender or no recipients in the message
            raise PermanentSendError(f"the message cannot be sent: {exc}") from None
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise TemporarySendError(f"sending through {self._where} failed: {exc}") from None
        finally:
            if client.is_connected:
                try:
                    await client.quit()
                except (aiosmtplib.SMTPException, OSError, TimeoutError):
                    client.close()
        refused = {rcpt: Refusal(resp.code, resp.message) for rcpt, resp in errors.items()}
        accepted = tuple(
            r for r in _recipients(message) if r not in refused
        )
        log.info("sent %s via %s to %d recipient(s)%s", message_id, self._where, len(accepted),
                 f", {len(refused)} refused" if refused else "")
        return SendReport(message_id=message_id, accepted=accepted, refused=refused)


def _recipients(message: EmailMessage) -> list[str]:
    values = [str(v) for name in ("To", "Cc", "Bcc") for v in message.get_all(name, [])]
    return [addr for _, addr in getaddresses(values) if addr]
