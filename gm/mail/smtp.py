"""Sending mail through an SMTP server with aiosmtplib (a MailSink).

`send` opens a connection (TLS, STARTTLS or plain on loopback; AUTH when a user is configured),
hands the message over and closes; with `keep_open` the connection is kept for the next
message (for at most KEEP_SECONDS idle, within the five minutes RFC 5321 section 4.5.3.2.7 asks
a server to wait for a client's next command; at most REUSE_MESSAGES messages), checked with a
NOOP before it is used again after CHECK_AFTER idle seconds (a server may drop it sooner), and
`close` ends it. A connection that failed in any way is closed, never used again. Signing
in: with the password (or `password_command`'s, run for each connection), or with AUTH XOAUTH2
or OAUTHBEARER and an access token (gm.mail.signin; a refused token is replaced and tried
once more on the same connection). Failures
are typed for the outbound queue: TemporarySendError (connection refused or lost, timeouts,
TLS problems, 4xx replies; SignInFailed when the login was refused or the password or token
could not be had: the message is not at fault, retry with backoff) and
PermanentSendError (5xx for the message or for every recipient: do not retry). When some
recipients are refused and others accepted, `send` returns normally and the report lists the
refused ones.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from email.message import EmailMessage
from email.utils import getaddresses

import aiosmtplib

from gm.config import Auth, Security, SmtpConfig
from gm.mail.compose import to_raw
from gm.mail.errors import (
    PermanentSendError,
    Refusal,
    SendError,
    SignInFailed,
    TemporarySendError,
)
from gm.mail.signin import SignInError, TokenSource, advice, password, sasl_response
from gm.mail.smtp_data import SmtpClient
from gm.mail.transport import OutgoingMessage, RawMessage, SendReport
from gm.secret import Secret

log = logging.getLogger(__name__)

KEEP_SECONDS = 240.0  # a kept connection idle longer than this is closed, a new one opened
CHECK_AFTER = 5.0  # a kept connection idle longer than this answers a NOOP before it is used
REUSE_MESSAGES = 100  # messages sent over one kept connection before a new one is opened


def _response_error(what: str, code: int, message: str) -> SendError:
    refusal = Refusal(code, message)
    text = f"{what}: {refusal}"
    return TemporarySendError(text) if refusal.temporary else PermanentSendError(text)


class SmtpSink:
    """Delivers messages to the configured SMTP server; the envelope sender is `envelope_from`.

    `envelope_from` None takes the message's From address. Use the service's own address, so
    bounces come back to the service's mailbox (and are recognised there as bounces).
    """

    def __init__(self, config: SmtpConfig, *, envelope_from: str | None = None,
                 keep_open: bool = False) -> None:
        self.config = config
        self.envelope_from = envelope_from
        self.keep_open = keep_open
        self.connections = 0  # connections opened so far
        self._kept: aiosmtplib.SMTP | None = None
        self._kept_used = 0.0  # time.monotonic() of its last message
        self._kept_count = 0
        self._lock = asyncio.Lock()  # one message at a time on a kept connection
        self.keep_seconds = KEEP_SECONDS
        self.check_after = CHECK_AFTER
        oauth = config.sign_in.oauth
        self.tokens = TokenSource(oauth) if oauth is not None else None

    def __repr__(self) -> str:
        c = self.config
        return f"SmtpSink({c.host}:{c.port}, {c.security}, user={c.user!r})"

    def _tls_context(self) -> ssl.SSLContext | None:
        if self.config.security is Security.PLAIN:
            return None
        cafile = str(self.config.ca_file) if self.config.ca_file else None
        return ssl.create_default_context(cafile=cafile)

    def _client(self, secret: Secret | None) -> aiosmtplib.SMTP:
        c = self.config
        return SmtpClient(  # a message in SMTP form already is sent as it is
            hostname=c.host,
            port=c.port,
            username=c.user if secret is not None else None,
            password=secret.reveal() if secret is not None else None,
            use_tls=c.security is Security.TLS,
            start_tls=c.security is Security.STARTTLS,
            tls_context=self._tls_context(),
            timeout=c.timeout,
        )

    @property
    def _where(self) -> str:
        return f"SMTP server {self.config.host}:{self.config.port}"

    async def _connect(self) -> aiosmtplib.SMTP:
        c = self.config
        secret: Secret | None = None
        if c.user and self.tokens is None:
            try:
                secret = await password(c.sign_in, c.password)
            except SignInError as exc:
                raise SignInFailed(f"cannot sign in to {self._where}: {exc}") from None
        client = self._client(secret)
        try:
            await client.connect()
            if self.tokens is not None:
                await self._authenticate(client)
        except aiosmtplib.SMTPAuthenticationError as exc:
            client.close()
            text = str(Refusal(exc.code, exc.message))
            raise SignInFailed(
                f"{self._where} refused the login for user {self.config.user!r}: "
                f"{text} ({advice(text, c.sign_in.auth)})") from None
        except SignInError as exc:
            client.close()
            raise SignInFailed(f"cannot sign in to {self._where}: {exc}") from None
        except aiosmtplib.SMTPResponseException as exc:
            raise _response_error(f"{self._where} refused the connection", exc.code,
                                  exc.message) from None
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise TemporarySendError(f"cannot connect to {self._where}: {exc}") from None
        self.connections += 1
        return client

    async def _authenticate(self, client: aiosmtplib.SMTP) -> None:
        """AUTH XOAUTH2 / OAUTHBEARER with an initial response; a refused token is answered
        (the server's error challenge) and replaced once."""
        assert self.tokens is not None
        c = self.config
        auth = c.sign_in.auth
        mechanism = auth.value.upper()
        if client.is_ehlo_or_helo_needed:
            await client.ehlo()
        if mechanism.lower() not in {m.lower() for m in client.server_auth_methods}:
            raise SignInError(f"{self._where} does not offer AUTH {mechanism}; check smtp.auth")
        for attempt in (1, 2):
            token = await self.tokens.token()
            initial = sasl_response(auth, c.user or "", token, c.host, c.port)
            response = await client.execute_command(b"AUTH", mechanism.encode(),
                                                    initial.encode("ascii"))
            if response.code == 334:  # the error details; answered, the server ends with 5xx
                response = await client.execute_command(
                    b"" if auth is Auth.XOAUTH2 else b"AQ==")
            if response.code == 235:
                return
            self.tokens.refused()
            if attempt == 2 or response.code < 500:
                raise aiosmtplib.SMTPAuthenticationError(response.code, response.message)
            log.debug("SMTP: %s refused the access token; getting a new one", self._where)

    async def _connection(self) -> aiosmtplib.SMTP:
        """The kept connection while it is fresh, else a new one."""
        kept, self._kept = self._kept, None
        if kept is not None:
            idle = time.monotonic() - self._kept_used
            if (kept.is_connected and self._kept_count < REUSE_MESSAGES
                    and idle < self.keep_seconds
                    and (idle < self.check_after or await _answers(kept))):
                return kept
            await _quit(kept)
        self._kept_count = 0
        return await self._connect()

    async def close(self) -> None:
        """End the kept connection, if there is one (QUIT)."""
        async with self._lock:
            kept, self._kept = self._kept, None
            if kept is not None:
                await _quit(kept)

    async def send(self, message: OutgoingMessage, *,
                   envelope_from: str | None = None) -> SendReport:
        """Hand `message` over with MAIL FROM `envelope_from` (default: the sink's)."""
        async with self._lock:
            return await self._send(message, envelope_from or self.envelope_from)

    async def _send(self, message: OutgoingMessage, envelope_from: str | None) -> SendReport:
        if isinstance(message, EmailMessage):  # written here, faster than the client does,
            raw = to_raw(message)  # unless an address needs SMTPUTF8, which the client asks for
            if all(a.isascii() for a in (raw.sender, *raw.recipients)):
                message = raw
        if isinstance(message, RawMessage):
            message_id: str | None = message.message_id
        else:
            message_id = str(message["Message-ID"]) if message["Message-ID"] else None
        client = await self._connection() if self.keep_open else await self._connect()
        kept = False
        try:
            if isinstance(message, RawMessage):
                if isinstance(client, SmtpClient):  # its writer may have made it SMTP's form
                    client.in_form = message.data if message.smtp_form else None
                errors, _ = await client.sendmail(envelope_from or message.sender,
                                                  list(message.recipients), message.data)
            else:
                errors, _ = await client.send_message(message, sender=envelope_from)
            if self.keep_open and client.is_connected:
                self._kept, self._kept_used, kept = client, time.monotonic(), True
                self._kept_count += 1
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
            if not kept:
                await _quit(client)
        refused = {rcpt: Refusal(resp.code, resp.message) for rcpt, resp in errors.items()}
        accepted = tuple(
            r for r in _recipients(message) if r not in refused
        )
        log.info("sent %s via %s to %d recipient(s)%s", message_id, self._where, len(accepted),
                 f", {len(refused)} refused" if refused else "")
        return SendReport(message_id=message_id, accepted=accepted, refused=refused)


async def _answers(client: aiosmtplib.SMTP) -> bool:
    """Whether a kept connection still answers (a NOOP)."""
    try:
        response = await client.noop()
    except (aiosmtplib.SMTPException, OSError, TimeoutError):
        client.close()
        return False
    return 200 <= response.code < 300


async def _quit(client: aiosmtplib.SMTP) -> None:
    """QUIT, or just close a connection that cannot."""
    if client.is_connected:
        try:
            await client.quit()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            client.close()


def _recipients(message: OutgoingMessage) -> list[str]:
    if isinstance(message, RawMessage):
        return list(message.recipients)
    values = [str(v) for name in ("To", "Cc", "Bcc") for v in message.get_all(name, [])]
    return [addr for _, addr in getaddresses(values) if addr]
