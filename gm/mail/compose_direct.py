"""The bytes `gm.mail.compose.compose_message` makes for a reply with an HTML alternative that
shows its pictures (an acknowledgement of orders: text, HTML and the PNG of the orders),
written directly: the email package's header objects cost milliseconds a message. A phase's
report, the same with files attached after it (its calendar entry; the SVG pictures), is
written so too (`compose_report`): a multipart/mixed of that alternative and the files.

Only the simple kind is written here, else None (and the email package builds it): headers as
`compose_plain` writes them (ASCII, plain addresses, no line over 78 characters), a 7-bit text
part, an HTML part the package would send as 7-bit or quoted-printable, and pictures every one
of which the HTML shows. The structure is the package's: multipart/alternative of the text and
a multipart/related of the HTML and the pictures, each multipart with a random `=_gm_`
boundary; a picture's part is written here too where its head is simple, else by the package
(and remembered: the same picture goes out again). A message written here carries its LF form
too (RawMessage.lf, what a Maildir stores), joined from its pieces' (a picture's base64 lines
written with LF ends first), not converted whole.
"""

from __future__ import annotations

import base64
import binascii
import re
import secrets
import struct
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import lru_cache

from gm.mail.compose import (
    Attachment,
    ReplyTo,
    binary_part,
    checked_message_id,
    compose_plain,
    flatten,
    mime_type,
    part_filename,
    text_attachment_part,
)
from gm.mail.quoted_printable import body_encode
from gm.mail.transport import RawMessage

_LINE = 78  # the email package's policy.max_line_length
_CRLF = "\r\n"


def _boundary() -> str:
    return f"=_gm_{secrets.token_hex(16)}"


def _crlf(text: str) -> str:
    """`text`'s line ends as CRLF (the generator writes a part's lines so)."""
    return text.replace("\r\n", "\n").replace("\n", _CRLF)


@lru_cache(maxsize=8)  # a report's HTML is asked for again for the GM's copy
def html_payload(html: str) -> tuple[str, str] | None:
    """The Content-Transfer-Encoding and body the email package gives `html` as UTF-8 text
    (email.contentmanager's choice: 7bit when every line fits and it is ASCII, else quoted-
    printable unless base64 is shorter); None for any other outcome (8bit, base64)."""
    lines = html.encode("utf-8").splitlines()
    if max((len(x) for x in lines), default=0) <= _LINE:
        body = b"\n".join(lines) + b"\n"
        return ("7bit", body.decode("ascii")) if body.isascii() else None
    sniff = b"\r\n".join(lines[:10]) + b"\r\n"
    sniff_qp = body_encode(sniff.decode("latin-1"), _LINE)
    if len(sniff_qp) > len(binascii.b2a_base64(sniff)):
        return None
    if len(lines) <= 10:
        return "quoted-printable", sniff_qp
    return "quoted-printable", body_encode(
        (b"\n".join(lines) + b"\n").decode("latin-1"), _LINE)


def html_body(html: str) -> tuple[str, bytes] | None:
    """The Content-Transfer-Encoding and the body (CRLF line ends) of `html`'s part as the
    email package writes it in a message; None where `html_payload` cannot tell."""
    encoded = html_payload(html)
    if encoded is None:
        return None
    cte, payload = encoded
    return cte, _crlf(payload).encode("ascii")


@lru_cache(maxsize=4)  # a phase's pictures (both forms of each: 0.4 MB)
def _picture_part(filename: str, content_type: str, content_id: str, data: bytes
                  ) -> tuple[bytes, bytes]:
    """An inline picture's MIME part, headers and body, as compose_message writes it (CRLF),
    and its LF form."""
    maintype, subtype = mime_type(content_type)
    name, cid = part_filename(filename), checked_message_id(content_id)
    return _binary_forms(name, maintype, subtype, "inline", cid, data) or _both(flatten(
        binary_part(data, maintype, subtype, filename=name, disposition="inline", cid=cid)))


_SIMPLE_NAME = re.compile(r"[A-Za-z0-9._-]+\Z")
_SIMPLE_CID = re.compile(r"<[A-Za-z0-9._-]+@[A-Za-z0-9._-]+>\Z")
_BASE64_LINE = 76  # characters of a base64 line (57 bytes), as base64.encodebytes writes


def _both(data: bytes) -> tuple[bytes, bytes]:
    """`data` (CRLF line ends) and its LF form."""
    return data, data.replace(b"\r\n", b"\n")


def simple_binary_part(filename: str, maintype: str, subtype: str, disposition: str,
                       cid: str | None, data: bytes) -> bytes | None:
    """The part gm.mail.compose.binary_part makes, as the package writes it, written here
    when its head is simple (a file name and content id of letters, digits, dots, dashes and
    underscores; a field over 78 characters folded before the file name or the content id,
    into a line shorter than that), else None."""
    forms = _binary_forms(filename, maintype, subtype, disposition, cid, data)
    return None if forms is None else forms[0]


def _binary_forms(filename: str, maintype: str, subtype: str, disposition: str,
                  cid: str | None, data: bytes) -> tuple[bytes, bytes] | None:
    """`simple_binary_part`, with its LF form (written first: base64 lines end so)."""
    if not data or not _SIMPLE_NAME.match(filename) or (
            cid is not None and not _SIMPLE_CID.match(cid)):
        return None
    head = [f"Content-Type: {maintype}/{subtype}", "Content-Transfer-Encoding: base64",
            _folded(f"Content-Disposition: {disposition};", f'filename="{filename}"')]
    if cid is not None:
        head.append(_folded("Content-ID:", cid))
    if any(len(line) > (_LINE if i == 0 else _LINE - 1)  # a folded line: the package
           for field in head for i, line in enumerate(field.split(_CRLF))):  # splits a 78th
        return None  # folded otherwise by the package
    lf = "\n".join([*head, "", ""]).replace(_CRLF, "\n").encode("ascii") + _base64_lines(data)
    return lf.replace(b"\n", b"\r\n"), lf  # no CR in it: each LF a line end


def _base64_lines(data: bytes) -> bytes:
    """`data` in base64, lines of 76 characters each ending with an LF (as
    base64.encodebytes writes them), the whole lines cut by one struct unpacking."""
    encoded = base64.b64encode(data)
    whole = len(encoded) // _BASE64_LINE
    lines = list(_lines(whole).unpack_from(encoded))
    if len(encoded) > whole * _BASE64_LINE:
        lines.append(encoded[whole * _BASE64_LINE:])
    return b"\n".join(lines) + b"\n"


@lru_cache(maxsize=16)
def _lines(count: int) -> struct.Struct:
    """The layout of `count` base64 lines one after the other."""
    return struct.Struct(f"{_BASE64_LINE}s" * count)


def compose_related(
    *,
    sender: str,
    sender_name: str,
    to: Sequence[str],
    subject: str,
    body: str,
    html: str,
    pictures: Sequence[Attachment],
    message_id: str,
    reply_to: ReplyTo | None = None,
    auto_submitted: str = "auto-replied",
    date: datetime | None = None,
) -> RawMessage | None:
    """The message of `body`, `html` and the `pictures` it shows (each with its content id),
    written directly; None unless it is of the simple kind (see the module docstring):
    compose_report's with no files."""
    if not all(picture.content_id for picture in pictures):
        return None  # a picture not shown: the email package's
    return compose_report(sender=sender, sender_name=sender_name, to=to, subject=subject,
                          body=body, html=html, attachments=pictures, message_id=message_id,
                          reply_to=reply_to, auto_submitted=auto_submitted, date=date)


def _alternative(
    *, sender: str, sender_name: str, to: Sequence[str], subject: str, body: str, html: str,
    pictures: Sequence[Attachment], message_id: str, reply_to: ReplyTo | None,
    auto_submitted: str, date: datetime | None,
) -> tuple[RawMessage, list[str], bytes, bytes] | None:
    """The plain message of the same headers (compose_plain), its header lines but the
    content ones, and the multipart/alternative of `body`, `html` and the `pictures` it shows,
    from its Content-Type header on, and its LF form; None unless it is of the simple kind."""
    if not pictures or any(p.content_id is None for p in pictures):
        return None
    head = compose_plain(sender=sender, sender_name=sender_name, to=to, subject=subject,
                         body=body, message_id=message_id, reply_to=reply_to,
                         auto_submitted=auto_submitted, date=date)
    encoded = html_payload(html)
    if head is None or encoded is None:
        return None
    cte, payload = encoded
    text = head.data.decode("ascii")
    headers, _, text_body = text.partition(_CRLF + _CRLF)
    kept = [line for line in headers.split(_CRLF) if not line.startswith(
        ("Content-Type:", "Content-Transfer-Encoding:", "MIME-Version:"))]
    outer, inner = _boundary(), _boundary()
    parts = [
        f'Content-Type: multipart/alternative;{_CRLF} boundary="{outer}"',
        "",
        f"--{outer}",
        'Content-Type: text/plain; charset="utf-8"',
        "Content-Transfer-Encoding: 7bit",
        "",
        text_body,  # ends with its line end
        f"--{outer}",
        "MIME-Version: 1.0",
        f'Content-Type: multipart/related;{_CRLF} boundary="{inner}"',
        "",
        f"--{inner}",
        'Content-Type: text/html; charset="utf-8"',
        f"Content-Transfer-Encoding: {cte}",
        "",
        _crlf(payload),
    ]
    # pieces in both forms, each ending with a whole line end (converted alone, as a whole)
    pieces = [_both(_CRLF.join(parts).encode("ascii"))]  # ends with the HTML's line end
    delimiter = _both(f"{_CRLF}--{inner}{_CRLF}".encode("ascii"))
    for picture in pictures:
        assert picture.content_id is not None
        pieces += [delimiter, _picture_part(picture.filename, picture.content_type,
                                            picture.content_id, picture.data)]
    pieces.append(_both(f"{_CRLF}--{inner}--{_CRLF}{_CRLF}--{outer}--{_CRLF}".encode("ascii")))
    return (head, kept, b"".join(crlf for crlf, _ in pieces),
            b"".join(lf for _, lf in pieces))


def compose_report(
    *,
    sender: str,
    sender_name: str,
    to: Sequence[str],
    subject: str,
    body: str,
    html: str,
    attachments: Sequence[Attachment],
    message_id: str,
    reply_to: ReplyTo | None = None,
    auto_submitted: str = "auto-generated",
    date: datetime | None = None,
    text_part: Callable[[Attachment], bytes] = text_attachment_part,
) -> RawMessage | None:
    """The message compose_message makes of `body`, `html`, the pictures it shows (the
    `attachments` with a content id) and the other `attachments` as files, written directly;
    None unless it is of the simple kind (see the module docstring). `text_part` writes a text
    file's part (as gm.mail.compose.text_attachment_part does: gm.mail.text_parts)."""
    pictures = [a for a in attachments if a.content_id]
    files = [a for a in attachments if not a.content_id]
    written = _alternative(sender=sender, sender_name=sender_name, to=to, subject=subject,
                           body=body, html=html, pictures=pictures, message_id=message_id,
                           reply_to=reply_to, auto_submitted=auto_submitted, date=date)
    if written is None:
        return None
    head, kept, alternative, alternative_lf = written
    if not files:
        start = _both(_CRLF.join([*kept, "MIME-Version: 1.0", ""]).encode("ascii"))
        return RawMessage(message_id=head.message_id, sender=head.sender,
                          recipients=head.recipients, data=start[0] + alternative,
                          lf=start[1] + alternative_lf, smtp_form=True)  # CRLF ends only
    mixed = _boundary()
    delimiter = _both(f"{_CRLF}--{mixed}{_CRLF}".encode("ascii"))
    start = _both(_CRLF.join([*kept, "MIME-Version: 1.0",
                              f'Content-Type: multipart/mixed;{_CRLF} boundary="{mixed}"',
                              "", f"--{mixed}", ""]).encode("ascii"))
    pieces = [(start[0] + alternative, start[1] + alternative_lf)]
    for item in files:
        maintype, subtype = mime_type(item.content_type)
        pieces.append(_both(text_part(item)) if maintype == "text" else _file_part(
            item.filename, maintype, subtype, item.data))
    end = _both(f"{_CRLF}--{mixed}--{_CRLF}".encode("ascii"))
    return RawMessage(message_id=head.message_id, sender=head.sender,
                      recipients=head.recipients,
                      data=delimiter[0].join(crlf for crlf, _ in pieces) + end[0],
                      lf=delimiter[1].join(lf for _, lf in pieces) + end[1])


def _folded(start: str, rest: str) -> str:
    """A header field of two words, on one line if it fits, else folded between them."""
    line = f"{start} {rest}"
    return line if len(line) <= _LINE else f"{start}{_CRLF} {rest}"


@lru_cache(maxsize=4)
def _file_part(filename: str, maintype: str, subtype: str, data: bytes
               ) -> tuple[bytes, bytes]:
    """An attached (not shown) binary file's MIME part, as compose_message writes it, and
    its LF form."""
    name = part_filename(filename)
    return _binary_forms(name, maintype, subtype, "attachment", None, data) or _both(flatten(
        binary_part(data, maintype, subtype, filename=name, disposition="attachment")))
