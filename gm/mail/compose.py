"""Build outgoing messages safely.

Every text that goes into a header passes through `header_safe` (no CR, LF or other control
characters, one line, bounded length), and addresses are parsed into
`email.headerregistry.Address` values, so player-controlled text (names, subjects, game names)
cannot add headers. Messages use `email.policy.SMTP` (CRLF line ends, RFC 2047 encoded words).
Replies carry `Auto-Submitted: auto-replied` (RFC 3834) so that well-behaved robots do not
answer them, and `X-Auto-Response-Suppress: All` for Exchange.
"""

from __future__ import annotations

import base64
import copy
import re
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.errors import HeaderParseError
from email.generator import BytesGenerator
from email.header import Header
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.policy import SMTP, Policy
from email.utils import format_datetime, getaddresses
from functools import lru_cache
from io import BytesIO
from typing import Any

from gm.mail.plain_address import PLAIN_ADDR_SPEC
from gm.mail.transport import RawMessage

MAX_SUBJECT = 200
MAX_REFERENCES = 20  # the newest ids kept in References (RFC 5322 3.6.4 allows trimming)
_MSGID_RE = re.compile(r"^<[\x21-\x3b\x3d\x3f-\x7e]{1,250}@[\x21-\x3b\x3d\x3f-\x7e]{1,250}>$")
_MIME_TYPE_RE = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$")


class Headers(HeaderRegistry):
    """The standard header registry, remembering the class it makes for each header name (the
    standard one makes a new class for every header of every message: most of the cost of
    building a message)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> Any:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made


HEADERS = Headers()  # the header factory of the messages built here (and of decoding)


_POLICY = SMTP.clone(header_factory=HEADERS)
_NEWLINE = re.compile(r"\r\n|\r|\n")  # a line end, as the email package's generator reads them


def binary_part(data: bytes, maintype: str, subtype: str, *, filename: str,
                 disposition: str, cid: str | None = None) -> EmailMessage:
    """A base64 part, as the email package's `add_attachment`/`add_related` make one, but
    encoded in one call (the package's encoder loops in Python over every 57 bytes: most of
    the time a report with its pictures took to compose). The same 76-character lines."""
    part = EmailMessage(policy=_POLICY)  # no MIME-Version: set_content alone adds it
    part["Content-Type"] = f"{maintype}/{subtype}"
    part.set_payload(_base64_lines(data))
    part["Content-Transfer-Encoding"] = "base64"
    part["Content-Disposition"] = disposition
    part.set_param("filename", filename, header="Content-Disposition", replace=True)
    if cid is not None:
        part["Content-ID"] = cid
    return part


@lru_cache(maxsize=16)
def _base64_lines(data: bytes) -> str:
    """`data` in base64, 76 characters a line (remembered: a phase's pictures go to every
    recipient of its report)."""
    return base64.encodebytes(data).decode("ascii")


def _attach(container: EmailMessage, kind: str, part: EmailMessage) -> None:
    """Add `part` to `container`, made multipart/`kind` first if it is not (as the email
    package's add_related and add_attachment do)."""
    if container.get_content_type() != f"multipart/{kind}":
        if kind == "related":
            container.make_related()
        else:
            container.make_mixed()
    container.attach(part)


class _Generator(BytesGenerator):
    """The email package's generator, writing a part's lines in one write (it wrote each line
    and each line end apart: two calls a line of a picture's base64)."""

    def __init__(self, out: BytesIO, mangle_from_: bool | None = False,
                 maxheaderlen: int | None = None, *, policy: Policy) -> None:
        super().__init__(out, mangle_from_, maxheaderlen, policy=policy)
        self._linesep = policy.linesep  # what flatten() sets as _NL: the policy is always given

    def _write_lines(self, lines: str) -> None:
        if "\r" not in lines:  # only LF line ends (as base64 parts have): the same, faster
            self.write(lines.replace("\n", self._linesep))
        elif lines:
            self.write(self._linesep.join(_NEWLINE.split(lines)))


def flatten(message: EmailMessage, linesep: str = "\r\n") -> bytes:
    """The message's bytes, as `message.as_bytes` writes them, with `linesep` line ends."""
    out = BytesIO()
    _Generator(out, policy=message.policy.clone(linesep=linesep)).flatten(message)
    return out.getvalue()


def to_raw(message: EmailMessage) -> RawMessage:
    """The message serialised for sending (without its Bcc header, which no recipient sees),
    with its envelope: the From address, and the To, Cc and Bcc ones."""
    sender = getaddresses([str(v) for v in message.get_all("From", [])])
    recipients = tuple(addr for _, addr in getaddresses(
        [str(v) for name in ("To", "Cc", "Bcc") for v in message.get_all(name, [])]) if addr)
    shown = copy.copy(message)
    del shown["Bcc"]
    return RawMessage(str(message["Message-ID"] or ""), sender[0][1] if sender else "",
                      recipients, flatten(shown))


def header_fields(headers: Sequence[tuple[str, Any]]) -> bytes:
    """Header fields written as `compose_message` writes them (its policy: folded, encoded
    words, CRLF between them), without the blank line after them."""
    message = EmailMessage(policy=_POLICY)
    for name, value in headers:
        message[name] = value
    _check_headers(message)
    return flatten(message).partition(b"\r\n\r\n")[0]


def text_attachment_part(item: Attachment) -> bytes:
    """A text attachment's MIME part, its headers and body, as `compose_message` writes it
    among a message's parts (made by the same call)."""
    holder = EmailMessage(policy=_POLICY)
    maintype, subtype = mime_type(item.content_type)
    if maintype != "text":
        raise ComposeError(f"not a text attachment: {item.content_type}")
    holder.add_attachment(item.data.decode("utf-8", "replace"), subtype=subtype,
                          filename=part_filename(item.filename),
                          params=calendar_params(item.data, subtype))
    (part,) = holder.iter_attachments()
    if not isinstance(part, EmailMessage):
        raise ComposeError("the attachment's part could not be made")
    _check_headers(part)
    return flatten(part)


class ComposeError(ValueError):
    """A value cannot go into a message (an unusable address, Message-ID or content type)."""


def header_safe(text: str, limit: int = MAX_SUBJECT) -> str:
    """`text` as one header-safe line: control and format characters become spaces.

    "=?" becomes "= ?": the email package decodes RFC 2047 encoded words in values it is
    given and (in Python 3.11 before 3.11.10) can write a decoded CR/LF out unquoted.
    """
    line = _one_line(text, limit)
    while "=?" in line:
        line = line.replace("=?", "= ?")
    return line


def _one_line(text: str, limit: int = MAX_SUBJECT) -> str:
    """`text` as one line: control and format characters become spaces."""
    cleaned = "".join(
        " " if unicodedata.category(c)[0] in ("C", "Z") and c != " " else c for c in text
    )
    return " ".join(cleaned.split())[:limit].strip()


def _set_subject(message: EmailMessage, subject: str) -> None:
    """The Subject, as one line. Text that reads as an RFC 2047 encoded word ("=?x?q?hi?=", as
    a subject quoted back may hold) goes out encoded itself, so the reader sees it as written:
    given as it is, the email package would decode it (and header_safe would split it)."""
    line = _one_line(subject)
    if "=?" not in line:
        message["Subject"] = line
        return
    message.set_raw("Subject", Header(line, "utf-8", header_name="Subject").encode())


def make_address(addr_spec: str, display_name: str = "") -> Address:
    """A validated Address; ComposeError when `addr_spec` is not one plain address."""
    spec = addr_spec.strip()
    if PLAIN_ADDR_SPEC.match(spec) and "=?" not in spec:  # dot-atoms: read as they are
        local, _, domain = spec.rpartition("@")  # (the header parser takes 30 us)
        return Address(display_name=header_safe(display_name, 100), username=local,
                       domain=domain)
    if not spec or "=?" in spec or any(unicodedata.category(c)[0] in ("C", "Z") for c in spec):
        raise ComposeError(f"not a usable email address: {header_safe(addr_spec, 100)!r}")
    try:
        address = Address(display_name=header_safe(display_name, 100), addr_spec=spec)
    except (ValueError, IndexError, TypeError, HeaderParseError) as exc:
        raise ComposeError(
            f"not a usable email address: {header_safe(addr_spec, 100)!r} ({exc})") from None
    if not address.username or not address.domain or "@" in address.domain:
        raise ComposeError(f"not a usable email address: {header_safe(addr_spec, 100)!r}")
    return address


def new_message_id(domain: str) -> str:
    """A fresh, unique Message-ID at `domain`; store it with the outbound row to keep it stable."""
    safe_domain = re.sub(r"[^A-Za-z0-9.-]", "", domain) or "localhost"
    return f"<{time.time_ns():x}.{secrets.token_hex(8)}@{safe_domain}>"


def checked_message_id(message_id: str) -> str:
    """`message_id` in angle brackets; ComposeError unless it is a plain <left@right> id."""
    text = message_id.strip()
    if not text.startswith("<"):
        text = f"<{text}>"
    if not _MSGID_RE.match(text):
        raise ComposeError(f"not a usable Message-ID: {header_safe(message_id, 100)!r}")
    return text


def build_subject(topic: str, *, game: str | None = None, phase: str | None = None) -> str:
    """The subject of a message about `game` in `phase`: "[game] phase: topic".

    Everything is made one line, so a game name chosen by a player cannot inject headers; the
    topic keeps what reads as an encoded word (a subject quoted back), which the message then
    carries encoded (`_set_subject`).
    """
    topic = _one_line(topic)
    prefix = ""
    if game and header_safe(game, 60):
        prefix = f"[{header_safe(game, 60)}]"
    if phase and header_safe(phase, 60):
        prefix = f"{prefix} {header_safe(phase, 60)}".strip()
    subject = f"{prefix}: {topic}" if prefix and topic else prefix or topic
    return subject[:MAX_SUBJECT]


@dataclass(frozen=True)
class Attachment:
    """A file to attach; with `content_id` it is shown inside the HTML part (cid: reference)."""

    filename: str
    content_type: str
    data: bytes
    content_id: str | None = None


def inline_content_id(filename: str) -> str:
    """The Content-ID under which an HTML part shows the attached `filename` (`cid:` without
    the angle brackets): the sender marks an attachment inline when the HTML refers to it."""
    return f"{re.sub(r'[^A-Za-z0-9._-]+', '-', filename)[:200]}@picture.gm"


@dataclass(frozen=True)
class ReplyTo:
    """What a reply refers to: the Message-ID answered and that message's References."""

    message_id: str | None
    references: Sequence[str] = ()


def _references(reply: ReplyTo) -> tuple[str | None, str | None]:
    ids: list[str] = []
    for value in reply.references:
        try:
            ids.append(checked_message_id(value))
        except ComposeError:
            continue
    in_reply_to = None
    if reply.message_id:
        try:
            in_reply_to = checked_message_id(reply.message_id)
            ids.append(in_reply_to)
        except ComposeError:
            in_reply_to = None
    unique = list(dict.fromkeys(ids))[-MAX_REFERENCES:]
    return in_reply_to, " ".join(unique) if unique else None


def mime_type(content_type: str) -> tuple[str, str]:
    """A part's main type and subtype, lower case; ComposeError for a type no part may have."""
    text = content_type.strip().lower()
    if not _MIME_TYPE_RE.match(text):
        raise ComposeError(f"not a usable content type: {header_safe(content_type, 80)!r}")
    maintype, _, subtype = text.partition("/")
    return maintype, subtype


def calendar_params(data: bytes, subtype: str) -> dict[str, str] | None:
    """A text/calendar part's `method` parameter, as its METHOD line says (RFC 6047 2.4: mail
    programs read an invitation, update or cancellation by it)."""
    if subtype != "calendar":
        return None
    found = re.search(rb"^METHOD:([A-Za-z-]+)\r?$", data, re.M)
    return {"method": found.group(1).decode("ascii").upper()} if found else None


def part_filename(name: str) -> str:
    """An attachment's file name as a part's header may carry it: one line, no path."""
    cleaned = header_safe(name, 100).replace("/", "_").replace("\\", "_").replace('"', "'")
    return cleaned or "attachment"


def compose_message(
    *,
    sender: Address,
    to: Sequence[Address],
    subject: str,
    body: str,
    message_id: str,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    reply_to: ReplyTo | None = None,
    cc: Sequence[Address] = (),
    bcc: Sequence[Address] = (),
    auto_submitted: str = "auto-replied",
    date: datetime | None = None,
) -> EmailMessage:
    """A complete message: text/plain body, optional HTML alternative and attachments.

    `message_id` is required so that a message re-sent from the outbound queue keeps its id
    (`new_message_id` makes one). `auto_submitted` is "auto-replied" for answers to mail and
    "auto-generated" for reports nobody asked for (RFC 3834 5).
    """
    if not to and not cc and not bcc:
        raise ComposeError("a message needs at least one recipient")
    if auto_submitted not in ("auto-replied", "auto-generated"):
        raise ComposeError(f"Auto-Submitted must be auto-replied or auto-generated, "
                           f"not {auto_submitted!r}")
    message = EmailMessage(policy=_POLICY)
    message["From"] = sender
    if to:
        message["To"] = list(to)
    if cc:
        message["Cc"] = list(cc)
    if bcc:
        message["Bcc"] = list(bcc)
    _set_subject(message, subject)
    message["Date"] = format_datetime(date or datetime.now(UTC))
    message["Message-ID"] = checked_message_id(message_id)
    if reply_to is not None:
        in_reply_to, references = _references(reply_to)
        if in_reply_to:
            message["In-Reply-To"] = in_reply_to
        if references:
            message["References"] = references
    message["Auto-Submitted"] = auto_submitted
    message["X-Auto-Response-Suppress"] = "All"
    message["X-Loop"] = sender.addr_spec

    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    message.set_content(text, subtype="plain", charset="utf-8")
    related = [a for a in attachments if a.content_id and html is not None]
    if html is not None:
        message.add_alternative(html, subtype="html", charset="utf-8")
        if related:
            html_part = message.get_body(preferencelist=("html",))
            if not isinstance(html_part, EmailMessage):
                raise ComposeError("the HTML part could not be found to add inline pictures")
            for item in related:
                maintype, subtype = mime_type(item.content_type)
                _attach(html_part, "related", binary_part(
                    item.data, maintype, subtype, filename=part_filename(item.filename),
                    disposition="inline", cid=checked_message_id(item.content_id or "")))
    for item in attachments:
        if item in related:
            continue
        maintype, subtype = mime_type(item.content_type)
        if maintype == "text":
            message.add_attachment(item.data.decode("utf-8", "replace"), subtype=subtype,
                                   filename=part_filename(item.filename),
                                   params=calendar_params(item.data, subtype))
        else:
            _attach(message, "mixed", binary_part(item.data, maintype, subtype,
                                        filename=part_filename(item.filename),
                                        disposition="attachment"))
    for part in message.walk():
        if part.is_multipart():  # random: no part can hold it unless it was guessed
            part.set_boundary(f"=_gm_{secrets.token_hex(16)}")
    _check_headers(message)
    return message


_PLAIN_NAME_RE = re.compile(r"^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*\Z")
_PLAIN_LINE = 78  # the longest header or body line written here (RFC 5322 2.1.1)


def plain_fields(to: Sequence[Address], message_id: str) -> tuple[bytes, bytes] | None:
    """The To and Message-ID fields `header_fields` writes for `to` and the checked
    `message_id`, written directly when both are simple (plain addresses without display
    names, each field one line of at most 78 characters), else None."""
    if not to or any(a.display_name or not PLAIN_ADDR_SPEC.match(a.addr_spec) for a in to):
        return None
    fields = (f"To: {', '.join(a.addr_spec for a in to)}", f"Message-ID: {message_id}")
    if any(len(f) > _PLAIN_LINE for f in fields) or not _MSGID_RE.match(message_id):
        return None
    return fields[0].encode("ascii"), fields[1].encode("ascii")


def compose_plain(
    *,
    sender: str,
    sender_name: str,
    to: Sequence[str],
    subject: str,
    body: str,
    message_id: str,
    reply_to: ReplyTo | None = None,
    auto_submitted: str = "auto-replied",
    date: datetime | None = None,
) -> RawMessage | None:
    """The bytes `compose_message` makes for a plain-text message, written directly (the email
    package's header objects cost milliseconds a message); None unless the message is of the
    simple kind written here: ASCII only, plain addresses (a display name of words), no line
    longer than 78 characters. Values are checked as `compose_message` checks them; anything
    else is left to it."""
    if auto_submitted not in ("auto-replied", "auto-generated") or not to or "=?" in subject:
        return None
    if not PLAIN_ADDR_SPEC.match(sender) or any(not PLAIN_ADDR_SPEC.match(r) for r in to):
        return None
    name = header_safe(sender_name, 100)
    if name and not _PLAIN_NAME_RE.match(name):
        return None
    mid = checked_message_id(message_id)
    headers = [("From", f"{name} <{sender}>" if name else sender),
               ("To", ", ".join(to)),
               ("Subject", header_safe(subject)),
               ("Date", format_datetime(date or datetime.now(UTC))),
               ("Message-ID", mid)]
    if reply_to is not None:
        in_reply_to, references = _references(reply_to)
        if in_reply_to:
            headers.append(("In-Reply-To", in_reply_to))
        if references:
            headers.append(("References", references))
    headers += [("Auto-Submitted", auto_submitted), ("X-Auto-Response-Suppress", "All"),
                ("X-Loop", sender), ("Content-Type", 'text/plain; charset="utf-8"'),
                ("Content-Transfer-Encoding", "7bit"), ("MIME-Version", "1.0")]
    lines = [f"{key}: {value}" for key, value in headers if value]
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    body_lines = text[:-1].split("\n")
    if any(len(line) > _PLAIN_LINE for line in lines) or any(
            len(line) > _PLAIN_LINE for line in body_lines):
        return None
    out = "\r\n".join([*lines, "", *body_lines, ""])
    if not out.isascii() or any(c in out for c in "\x00\x0b\x0c\x7f") or any(
            "\r" in value or "\n" in value for _key, value in headers):
        return None
    return RawMessage(message_id=mid, sender=sender, recipients=tuple(to),
                      data=out.encode("ascii"), smtp_form=True)  # lines split and CRLF-joined


def _check_headers(message: EmailMessage) -> None:
    """The last guard: no header of any part may hold a line break once built."""
    for part in message.walk():
        for name, value in part.items():
            if any(c in str(value) for c in "\r\n\x00"):
                raise ComposeError(f"refusing to send a {name} header with a line break")
