"""The SMTP client's DATA step, without rewriting a message that is in SMTP's form already.

aiosmtplib rewrites every message it sends with two regular expressions (each line end made
CRLF, each line that starts with "." given another, RFC 5321 4.5.2): for an acknowledgement
with its picture (some 110 kB) that is 1.6 ms, a quarter of what the sender spends on a
message. gm writes its messages with CRLF line ends already (gm.mail.transport.RawMessage), so
`SmtpClient.data` checks that with three byte counts and stuffs the dots with one `replace`,
about a fifth of the cost; a message with any other line end goes the library's way. The
check itself (0.2 ms for 110 kB) is left out for the bytes the client was told are in that
form already (`in_form`: a RawMessage its writer marked `smtp_form`). MAIL FROM and RCPT TO
write a plain address (an addr-spec of atoms, as gm's are) between angle brackets themselves:
the library reads every address with email.utils.parseaddr first, to the same result.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import aiosmtplib
from aiosmtplib.email import quote_address
from aiosmtplib.typing import Default, SMTPStatus

from gm.mail.plain_address import PLAIN_ADDR_SPEC

Timeout = float | Literal[Default.token] | None


def envelope_address(address: str) -> str:
    """`address` as MAIL FROM and RCPT TO carry it, as aiosmtplib's `quote_address` writes it:
    a plain addr-spec (which parseaddr gives back unchanged) in angle brackets directly, any
    other by the library."""
    if PLAIN_ADDR_SPEC.match(address):
        return f"<{address}>"
    return str(quote_address(address))


def in_smtp_form(message: bytes) -> bool:
    """Whether every line end of `message` is CRLF (no lone CR or LF)."""
    crlf = message.count(b"\r\n")
    return message.count(b"\n") == crlf and message.count(b"\r") == crlf


def dot_stuffed(message: bytes) -> bytes:
    """`message` (in SMTP form) as DATA carries it: each line that starts with "." given another
    (RFC 5321 4.5.2), ended by CRLF and the closing "." line."""
    stuffed = message.replace(b"\r\n.", b"\r\n..")
    if stuffed.startswith(b"."):
        stuffed = b"." + stuffed
    if not stuffed.endswith(b"\r\n"):
        stuffed += b"\r\n"
    return stuffed + b".\r\n"


class SmtpClient(aiosmtplib.SMTP):
    """aiosmtplib's client, sending a message in SMTP form as it is (`dot_stuffed`)."""

    in_form: bytes | None = None  # the message being sent, when known to be in SMTP form

    async def mail(self, sender: str, /, *, options: Iterable[str] | None = None,
                   encoding: str = "ascii", timeout: Timeout = Default.token,
                   ) -> aiosmtplib.SMTPResponse:
        await self._ehlo_or_helo_if_needed()
        response = await self.execute_command(
            b"MAIL", b"FROM:" + envelope_address(sender).encode(encoding),
            *(option.encode("ascii") for option in options or ()), timeout=timeout)
        if response.code != SMTPStatus.completed:
            raise aiosmtplib.SMTPSenderRefused(response.code, response.message, sender)
        return response

    async def rcpt(self, recipient: str, /, *, options: Iterable[str] | None = None,
                   encoding: str = "ascii", timeout: Timeout = Default.token,
                   ) -> aiosmtplib.SMTPResponse:
        await self._ehlo_or_helo_if_needed()
        response = await self.execute_command(
            b"RCPT", b"TO:" + envelope_address(recipient).encode(encoding),
            *(option.encode("ascii") for option in options or ()), timeout=timeout)
        if response.code not in (SMTPStatus.completed, SMTPStatus.will_forward):
            raise aiosmtplib.SMTPRecipientRefused(response.code, response.message, recipient)
        return response

    async def data(self, message: str | bytes, /, *,
                   timeout: Timeout = Default.token,
                   ) -> aiosmtplib.SMTPResponse:
        if isinstance(message, str) or self.protocol is None or (
                message is not self.in_form and not in_smtp_form(message)):
            return await super().data(message, timeout=timeout)
        wait = self.timeout if timeout is Default.token else timeout
        start = await self.execute_command(b"DATA", timeout=wait)  # after EHLO, as sendmail
        if start.code != SMTPStatus.start_input:
            raise aiosmtplib.SMTPDataError(start.code, start.message)
        try:
            self.protocol.write(dot_stuffed(message))
            response = await self.protocol.read_response(timeout=wait)
        except aiosmtplib.SMTPServerDisconnected:
            self.close()
            raise
        if response.code != SMTPStatus.completed:
            raise aiosmtplib.SMTPDataError(response.code, response.message)
        return response
