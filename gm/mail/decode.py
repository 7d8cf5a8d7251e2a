"""Read a raw message into what the service needs: who sent it, about what, and the text.

`decode_message` never raises: whatever arrives (broken MIME, unknown charsets, binary junk,
forged headers) it returns a `DecodedMessage`, with what went wrong listed in `problems`. The
body is chosen as a reader would: text/plain is preferred, text/html is converted to text,
attachments are skipped but listed, and a message over the size limit is not read at all
(`too_large`), so the caller can say so in its reply.
"""

from __future__ import annotations

import base64
import codecs
import email
import email.policy
import quopri
import re
import time
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import Message
from email.utils import parseaddr, parsedate_to_datetime

from gm.mail.clean import clean_body
from gm.mail.compose import HEADERS
from gm.mail.loops import Automatic, detect_automatic

MAX_DEPTH = 20  # nesting of multiparts followed
MAX_PARTS = 500  # parts looked at
MAX_LINE = 20_000  # characters kept of one line
MAX_HEADER = 2_000  # characters kept of one header value
MAX_BOUNDARY_LINES = 5_000  # more "--" lines than this: the MIME structure is not parsed
MAX_HEADER_BLOCK = 256 * 1024  # header block read (the fields past it are dropped)
_HEADER_BYTES = MAX_HEADER_BLOCK
MAX_FIELD_BYTES = 16 * 1024  # bytes kept of one header field, cut before it is parsed
MAX_FIELDS = 5_000  # header fields kept
MAX_ADDRESS_CHARS = MAX_HEADER  # characters of an address header given to the address parser

MAX_READ_SECONDS = 20.0  # time given to reading one message's body (decode_message's default)

_MSGID_RE = re.compile(r"<([\x21-\x3b\x3d\x3f-\x7e]{1,500})>")  # printable ASCII, no <>
_ADDR_SPEC_RE = re.compile(r"^[^\s@<>()\[\],;:\"\\]{1,200}@[A-Za-z0-9.\-\[\]:_]{1,255}$")
_UTF8_SEQUENCE_RE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_ANGLE_ADDR_RE = re.compile(r"<([^<>\s@]+@[^<>\s@]+)>\s*$")
# The common address forms, "local@domain" and "Plain Name <local@domain>" (atoms and single
# spaces only: no quotes, comments, encoded words or groups), read without the header parser,
# which gives the same result for them at a tenth of the cost; anything else goes to the parser.
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = rf"{_ATEXT}(?:\.{_ATEXT})*"
_PLAIN_SPEC = rf"{_DOT_ATOM}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_PLAIN_ADDRESS_RE = re.compile(
    rf"^[ \t]*(?:(?P<name>[A-Za-z0-9'-]+(?: [A-Za-z0-9'-]+)*)[ \t]*<(?P<angled>{_PLAIN_SPEC})>"
    rf"|<(?P<bracketed>{_PLAIN_SPEC})>|(?P<bare>{_PLAIN_SPEC}))[ \t]*\Z")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class AttachmentInfo:
    """A part that was not read as text."""

    content_type: str
    filename: str | None
    size: int


@dataclass(frozen=True)
class DecodedMessage:
    """A message as the service sees it.

    `text` is what the sender wrote for us: quotes and signature cut, nothing after SIGNOFF.
    `body` is the whole decoded text before cutting. `sender` is the From address, lower case
    (None when unreadable); `reply_to` the Reply-To address. Header texts are single-line with
    control characters removed. `automatic` says why the message must not be answered.
    """

    text: str = ""
    body: str = ""
    sender: str | None = None
    sender_name: str = ""
    reply_to: str | None = None
    return_path: str | None = None
    subject: str = ""
    message_id: str | None = None
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    date: datetime | None = None
    attachments: tuple[AttachmentInfo, ...] = ()
    automatic: Automatic | None = None
    size: int = 0
    too_large: bool = False
    over_bound: str | None = None  # why the body was not read: it took too long
    signoff: bool = False
    cuts: tuple[str, ...] = ()
    problems: tuple[str, ...] = field(default=())
    # what a limit left unread, for the reply to say ("only the first 500 MIME parts were
    # read"); and each line cut to MAX_LINE characters, as kept, with its real length
    unread: tuple[str, ...] = ()
    long_lines: tuple[tuple[str, int], ...] = ()
    # the message as parsed, when all of it was (None when only its headers were read): a
    # reader of its MIME parts (a bounce's report, gm.mail.bounces) needs not parse it again
    parsed: Message | None = field(default=None, compare=False, repr=False)

    @property
    def is_automatic(self) -> bool:
        return self.automatic is not None

    @property
    def reply_address(self) -> str | None:
        """Where an answer goes: the From address (Reply-To is not trusted for replies)."""
        return self.sender


def header_text(value: object, limit: int = MAX_HEADER) -> str:
    """A header value as one clean line: encoded words decoded, controls removed."""
    text = value if isinstance(value, str) else str(value)
    if any("\udc80" <= c <= "\udcff" for c in text):
        # undecoded 8-bit bytes (the parser keeps them as surrogates): most often UTF-8
        raw = text.encode("ascii", "surrogateescape")
        text = _decode_bytes(raw, None, [])
    if "=?" in text:
        text = _decoded_words(text[: limit * 8])
    text = text[: limit * 4]
    if not text.isprintable():
        text = _printable(_CONTROL_RE.sub(" ", text))
    return " ".join(text.split())[:limit]


_ENCODED_WORD_RE = re.compile(r"=\?([^?\s]+)\?([qQbB])\?([^?\s]*)\?=")
_BAD_QP_RE = re.compile(r"=(?![0-9A-Fa-f]{2})")


def _word_bytes(match: re.Match[str]) -> tuple[bytes, str] | None:
    """The bytes of one RFC 2047 encoded word and the codec of its charset; None when it
    cannot be read (an unknown charset, broken base64 or quoted-printable)."""
    codec = _charset_codec(match.group(1).split("*")[0])  # RFC 2231 language after "*"
    if codec is None:
        return None
    data = match.group(3)
    try:
        if match.group(2) in "bB":
            if len(data) % 4 == 1 or not re.fullmatch(r"[A-Za-z0-9+/]*=*", data):
                return None
            return base64.b64decode(data + "=" * (-len(data) % 4)), codec.name
        if _BAD_QP_RE.search(data):
            return None
        return quopri.decodestring(data.encode("ascii"), header=True), codec.name
    except ValueError:
        return None


_Word = tuple[str, re.Match[str], bytes, str]  # white space before it, the word, bytes, codec


def _decoded_run(run: list[_Word]) -> list[str]:
    """Adjacent encoded words of one charset: decoded together (a character may be split
    between two), else each on its own, else as it came (with the white space around it)."""
    try:
        return [b"".join(data for _, _, data, _ in run).decode(run[0][3])]
    except UnicodeError:
        pass
    out: list[str] = []
    kept_before = False
    for index, (between, match, data, codec) in enumerate(run):
        try:
            text, kept = data.decode(codec), False
        except UnicodeError:
            text, kept = match.group(0), True
        if index and (kept or kept_before):
            out.append(between)
        out.append(text)
        kept_before = kept
    return out


def _decoded_words(text: str) -> str:
    """A header's encoded words decoded (white space between two of them is dropped, RFC 2047
    6.2); a word that cannot be decoded stays as it came, so the reader sees what was sent
    rather than nothing."""
    out: list[str] = []
    run: list[_Word] = []
    end = 0
    for match in _ENCODED_WORD_RE.finditer(text):
        between = text[end:match.start()]
        found = _word_bytes(match)
        joined = run and not between.strip(" \t")
        if found is not None and joined and run[-1][3] == found[1]:
            run.append((between, match, *found))
        else:
            if run:
                out.extend(_decoded_run(run))
                run = []
            if not (found is not None and joined):
                out.append(between)
            if found is None:
                out.append(match.group(0))
            else:
                run.append((between, match, *found))
        end = match.end()
    if run:
        out.extend(_decoded_run(run))
    out.append(text[end:])
    return "".join(out)


def _charset_codec(name: str | None) -> codecs.CodecInfo | None:
    if not name:
        return None
    try:
        info = codecs.lookup(name.strip().strip('"').lower())
    except Exception:
        return None
    # bytes.decode only takes text encodings; this also refuses "zlib", "base64", "rot13" ...
    return info if getattr(info, "_is_text_encoding", True) else None


def _decode_bytes(data: bytes, charset: str | None, problems: list[str]) -> str:
    """Bytes to text: the declared charset, else UTF-8, else Windows-1252; never raises."""
    codec = _charset_codec(charset)
    if charset and codec is None:
        problems.append(f"unknown or unusable charset {header_text(charset, 60)!r}; "
                        "read as UTF-8")
    if codec is not None:
        try:
            return data.decode(codec.name)
        except Exception:
            pass
    try:
        text = data.decode("utf-8")
        if codec is not None:
            problems.append(f"text was not valid {codec.name}; read as UTF-8")
        return text
    except UnicodeDecodeError:
        pass
    if codec is not None:
        try:
            text = data.decode(codec.name, errors="replace")
            problems.append(f"text was not valid {codec.name}; bad bytes replaced")
            return text
        except Exception:
            pass
    if _UTF8_SEQUENCE_RE.search(data):
        problems.append("text was not valid UTF-8; bad bytes replaced")
        return data.decode("utf-8", errors="replace")
    problems.append("text was neither its declared charset nor UTF-8; read as Windows-1252")
    return data.decode("cp1252", errors="replace")


def _printable(line: str) -> str:
    """Drop control, format, surrogate, private and unassigned characters (what
    str.isprintable refuses) but keep tabs; other separators become spaces."""
    out: list[str] = []
    for char in line:
        if char == "\t" or char.isprintable():
            out.append(char)
        elif unicodedata.category(char)[0] == "Z":
            out.append(" ")
    return "".join(out)


def _normalise_text(text: str, problems: list[str],
                    long_lines: list[tuple[str, int]] | None = None) -> str:
    """Unix newlines, no control or invisible formatting characters, lines of sane length (each
    line cut, as kept, with its real length, in `long_lines`)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    lines = text.split("\n")
    for index, line in enumerate(lines):
        length = len(line)
        if length > MAX_LINE:
            line = line[:MAX_LINE]
            problems.append(f"line {index + 1} cut to {MAX_LINE} characters")
        if not line.isprintable():  # isprintable is False for exactly the characters to fix
            line = _printable(line)
        lines[index] = line.rstrip()
        if length > MAX_LINE and long_lines is not None:
            long_lines.append((lines[index], length))
    return "\n".join(lines)


def _cut_line_note(kept: str, length: int) -> str:
    """What the reply says of a line cut to MAX_LINE characters: its length, and its first word
    when that is a word (never more of it: the line may hold a password)."""
    first = (kept.split(maxsplit=1) or [""])[0]
    named = f' (starting "{first}")' if first.isalpha() and len(first) <= 20 else ""
    return (f"a line of {length} characters{named} was cut to its first {MAX_LINE}; the rest of"
            " it was not read")


def _unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: join soft line breaks (lines ending in a space)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.endswith(" ") and line != "-- ":
            current += line[:-1] if delsp else line
        else:
            out.append(current + line)
            current = ""
    if current:
        out.append(current)
    return "\n".join(out)


class OverBound(Exception):
    """Reading the message took longer than it is given."""


class _Reader:
    """Walks a parsed message collecting body text, attachments and problems, within a time
    (`deadline`, by time.monotonic): past it, OverBound."""

    def __init__(self, deadline: float = float("inf"), seconds: float = 0.0) -> None:
        self.deadline = deadline
        self.seconds = seconds
        self.texts: list[str] = []
        self.attachments: list[AttachmentInfo] = []
        self.problems: list[str] = []
        self.unread: list[str] = []  # the problems of limits, for the reply
        self.parts_seen = 0
        self.deep_noted = False

    def _note_attachment(self, part: Message, content_type: str) -> None:
        try:
            filename = part.get_filename()
        except Exception:
            filename = None
        try:
            payload = part.get_payload(decode=True)
            size = len(payload) if isinstance(payload, bytes) else 0
        except Exception:
            size = 0
        name = header_text(filename, 200) if filename else None
        self.attachments.append(AttachmentInfo(content_type, name, size))

    def _is_attachment(self, part: Message) -> bool:
        try:
            disposition = (part.get_content_disposition() or "").lower()
        except Exception:
            disposition = ""
        return disposition == "attachment"

    def _text_of(self, part: Message, content_type: str) -> str | None:
        try:
            payload = part.get_payload(decode=True)
        except Exception:
            payload = None
        if not isinstance(payload, bytes):
            raw = part.get_payload()
            payload = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else b""
        for defect in getattr(part, "defects", []):
            name = type(defect).__name__
            if "Base64" in name:
                self.problems.append("a text part had broken base64; read what could be read")
                break
        try:
            charset = part.get_content_charset()
        except Exception:
            charset = None
        text = _decode_bytes(payload, charset, self.problems)
        self.check()
        if content_type == "text/html":
            from gm.mail.htmltext import html_to_text  # loaded for HTML mail only

            return html_to_text(text)
        try:
            flowed = (part.get_param("format") or "").lower() == "flowed"  # type: ignore[union-attr]
            delsp = (part.get_param("delsp") or "").lower() == "yes"  # type: ignore[union-attr]
        except Exception:
            flowed = delsp = False
        return _unflow(text.replace("\r\n", "\n"), delsp) if flowed else text

    def _content_type(self, part: Message) -> str:
        try:
            return part.get_content_type().lower()
        except Exception:
            return "text/plain"

    def check(self) -> None:
        """OverBound when the reading is past its deadline."""
        if time.monotonic() > self.deadline:
            raise OverBound(f"the message took more than {self.seconds:g} seconds to read")

    def read(self, part: Message, depth: int = 0) -> str | None:
        """The text of `part` (None when it has none), noting attachments on the way."""
        self.check()
        self.parts_seen += 1
        if self.parts_seen > MAX_PARTS:
            if self.parts_seen == MAX_PARTS + 1:
                self.problems.append(f"only the first {MAX_PARTS} MIME parts were read")
                self.unread.append(f"it has more than {MAX_PARTS} MIME parts, and only the "
                                   f"first {MAX_PARTS} were read")
            return None
        if depth > MAX_DEPTH:
            if not self.deep_noted:
                self.problems.append(f"MIME parts nested deeper than {MAX_DEPTH}: only their "
                                     "first text was read")
                self.unread.append(f"its MIME parts are nested deeper than {MAX_DEPTH}, and "
                                   "only the first text within them was read")
                self.deep_noted = True
            return self._first_text(part)
        content_type = self._content_type(part)
        if content_type.startswith("message/"):  # forwarded mail and reports are not read
            if content_type not in ("message/delivery-status",
                                    "message/disposition-notification"):
                self.attachments.append(AttachmentInfo(content_type, None, 0))
            return None
        if part.is_multipart():
            children = [c for c in part.get_payload() if isinstance(c, Message)]
            return self._multipart(content_type, children, depth)
        if content_type.startswith("multipart/"):
            self.problems.append(f"{content_type} without parts was read as plain text")
            return self._text_of(part, "text/plain")
        if self._is_attachment(part) or not content_type.startswith("text/") or content_type in (
            "text/calendar", "text/x-vcard", "text/vcard", "text/rtf", "text/csv",
        ):
            if content_type not in ("application/pgp-signature", "application/pkcs7-signature",
                                    "application/x-pkcs7-signature"):
                self._note_attachment(part, content_type)
            return None
        return self._text_of(part, content_type)

    def _first_text(self, part: Message) -> str | None:
        """The first plain text (else HTML) of a part nested too deep to read part by part:
        looked for without recursion, within MAX_PARTS parts."""
        stack, html = [part], None
        while stack and self.parts_seen <= MAX_PARTS:
            node = stack.pop()
            self.parts_seen += 1
            if node.is_multipart():
                stack.extend(reversed([c for c in node.get_payload() if isinstance(c, Message)]))
                continue
            kind = self._content_type(node)
            if kind not in ("text/plain", "text/html") or self._is_attachment(node):
                continue
            if kind == "text/plain":
                return self._text_of(node, kind)
            html = html or node
        return None if html is None else self._text_of(html, "text/html")

    def _multipart(self, content_type: str, children: list[Message], depth: int) -> str | None:
        if not children:
            self.problems.append(f"{content_type} without parts")
            return None
        if content_type == "multipart/encrypted":
            self.problems.append("the message is encrypted and cannot be read")
            return None
        if content_type == "multipart/alternative":
            return self._alternative(children, depth)
        if content_type in ("multipart/signed", "multipart/report"):
            first = self.read(children[0], depth + 1)
            for child in children[1:]:
                self.read(child, depth + 1)  # notes attachments; the text is not wanted
            return first
        texts = [t for t in (self.read(c, depth + 1) for c in children) if t is not None]
        return "\n\n".join(t for t in texts if t.strip()) if texts else None

    def _alternative(self, children: list[Message], depth: int) -> str | None:
        # RFC 2046 5.1.4: alternatives in increasing faithfulness; we want plain text first
        for wanted in ("text/plain", "text/html"):
            for child in children:
                if self._content_type(child) == wanted and not self._is_attachment(child):
                    self.parts_seen += 1
                    return self._text_of(child, wanted)
        for child in children:
            text = self.read(child, depth + 1)
            if text is not None:
                return text
        return None


def _address(value: str) -> tuple[str, str | None]:
    """(display name, lower-case addr-spec or None) from an address header value: the first
    address of its first MAX_ADDRESS_CHARS characters (the parser's cost grows much faster
    than the text: a value of thousands of addresses, or of deep comments, is never given it)."""
    value = value[:MAX_ADDRESS_CHARS]
    plain = _PLAIN_ADDRESS_RE.match(value) if "=?" not in value else None
    if plain is not None:
        spec = header_text(plain["angled"] or plain["bracketed"] or plain["bare"], 500).lower()
        return header_text(plain["name"] or "", 200), spec if _ADDR_SPEC_RE.match(spec) else None
    return _parsed_address(value)


def _parsed_address(value: str) -> tuple[str, str | None]:
    """`_address` by the header parser (any form)."""
    try:
        header = HEADERS("from", value)  # email.policy.default's, its classes kept
        addresses = getattr(header, "addresses", ())
        if addresses:
            first = addresses[0]
            name, spec = str(first.display_name or ""), str(first.addr_spec or "")
        else:
            name, spec = parseaddr(value)
    except Exception:  # e.g. an encoded word hiding CR/LF in the display name
        angle = _ANGLE_ADDR_RE.search(value)
        if angle:
            name, spec = value[: angle.start()].strip().strip('"'), angle.group(1)
        else:
            name, spec = parseaddr(value)
    # 8-bit bytes kept as surrogates are decoded (they cannot be stored or sent as they are)
    spec = header_text(spec, 500).lower()
    return header_text(name, 200), spec if _ADDR_SPEC_RE.match(spec) else None


def _all_headers(message: Message, name: str) -> list[str]:
    """Raw values (8-bit bytes kept as surrogates, decoded later by header_text)."""
    wanted = name.lower()
    try:
        return [v if isinstance(v, str) else str(v)
                for k, v in message.raw_items() if k.lower() == wanted]
    except Exception:
        return []


def _first_header(message: Message, name: str) -> str | None:
    values = _all_headers(message, name)
    return values[0] if values else None


def _message_ids(value: str | None) -> list[str]:
    if not value:
        return []
    return [f"<{m}>" for m in _MSGID_RE.findall(value[:20_000])]


def _own(own_addresses: str | Iterable[str]) -> Collection[str]:
    return [own_addresses] if isinstance(own_addresses, str) else list(own_addresses)


_FIELD_RE = re.compile(rb"[!-9;-~]+[ \t]*:")  # a header field's name and colon (RFC 5322)
_BLANK_RE = re.compile(rb"\r?\n\r?\n")


def cut_headers(raw: bytes, problems: list[str] | None = None) -> bytes:
    """`raw` with its header block bounded before anything parses it: each field cut to
    MAX_FIELD_BYTES, at most MAX_FIELDS fields and _HEADER_BYTES in all (what is past them is
    dropped), the body as it was. A header block without its blank line ends at the bound."""
    said: list[str] = [] if problems is None else problems
    end = _BLANK_RE.search(raw, 0, _HEADER_BYTES + 4)
    head_end = end.start() if end is not None else min(len(raw), _HEADER_BYTES)
    if end is None and len(raw) > _HEADER_BYTES:
        # no blank line within the bound: the rest up to the first blank line is headers too
        later = _BLANK_RE.search(raw, _HEADER_BYTES)
        rest = raw[later.start():] if later is not None else b""
        said.append(f"the headers are longer than {_HEADER_BYTES} bytes; the rest was dropped")
    else:
        rest = raw[head_end:]
    head = raw[:head_end]
    if len(head) <= MAX_FIELD_BYTES and end is not None:
        return raw  # the common case: nothing to cut
    kept: list[bytes] = []
    fields = field_bytes = 0
    cut_fields = 0
    for line in head.split(b"\n"):
        continued = line[:1] in (b" ", b"\t")
        if not continued:
            fields += 1
            field_bytes = 0
        if fields > MAX_FIELDS:
            continue
        if field_bytes + len(line) > MAX_FIELD_BYTES:
            if field_bytes == 0 or not continued:
                kept.append(line[:MAX_FIELD_BYTES].rstrip(b"\r"))
            if field_bytes < MAX_FIELD_BYTES:
                cut_fields += 1
            field_bytes = MAX_FIELD_BYTES
            continue
        field_bytes += len(line) + 1
        kept.append(line)
    if cut_fields:
        said.append(f"{cut_fields} header field(s) longer than {MAX_FIELD_BYTES} bytes were "
                    "cut")
    if fields > MAX_FIELDS:
        said.append(f"only the first {MAX_FIELDS} of {fields} header fields were read")
    return b"\n".join(kept) + rest


def _without_stray_header_lines(raw: bytes, problems: list[str]) -> bytes:
    """`raw` without the lines among its headers that are no header field (no colon) and are
    followed by header fields: a parser would take such a line for the start of the body, and
    the headers after it for text. A stray line followed by no header field is left: the
    message's text may start there (a message without the blank line after its headers)."""
    end = _BLANK_RE.search(raw, 0, _HEADER_BYTES)
    if end is None:
        return raw
    lines = raw[:end.start()].split(b"\n")
    kept: list[bytes] = []
    header_next = False  # the line after this one (going up) is a header field
    for line in reversed(lines):
        if _FIELD_RE.match(line) or line[:1] in (b" ", b"\t") or line.startswith(b"From "):
            kept.append(line)
            header_next = True
        elif header_next and line.strip(b"\r"):
            problems.append("a header line without a colon was ignored: "
                            f"{header_text(line.decode('utf-8', 'replace'), 80)!r}")
        else:
            return raw
    return b"\n".join(reversed(kept)) + raw[end.start():]


def _parse(raw: bytes, problems: list[str]) -> Message:
    raw = _without_stray_header_lines(cut_headers(raw, problems), problems)
    try:
        return email.message_from_bytes(raw)
    except Exception as exc:  # RecursionError on absurd nesting, and other parser failures
        problems.append(f"the MIME structure could not be parsed ({type(exc).__name__}); "
                        "read as plain text")
    try:
        head, _, body = raw.partition(b"\n\n")
        message = email.message_from_bytes(head + b"\n\n")
        del message["Content-Type"]
        del message["Content-Transfer-Encoding"]
        message.set_payload(body.decode("ascii", "surrogateescape"))
        return message
    except Exception:
        message = Message()
        message.set_payload(raw.decode("ascii", "surrogateescape"))
        return message


def decode_message(
    raw: bytes,
    *,
    max_bytes: int | None = None,
    size: int | None = None,
    own_addresses: str | Iterable[str] = (),
    max_seconds: float = MAX_READ_SECONDS,
) -> DecodedMessage:
    """Decode `raw`; never raises.

    `size` is the whole message's size when `raw` was cut short by the source (InboundMail.size).
    A message over `max_bytes` is marked `too_large` and only its headers are read.
    `own_addresses` (the service's address) are treated as robots for loop detection. A body
    that takes longer than `max_seconds` to read is left unread, with `over_bound` saying so.
    """
    try:
        return _decode(raw, max_bytes, size, own_addresses, max_seconds)
    except Exception as exc:  # the last line of defence: a result, never a traceback
        return DecodedMessage(
            size=size if size is not None else len(raw),
            problems=(f"the message could not be read ({type(exc).__name__})",),
        )


def _multipart_head(raw: bytes) -> bool:
    """Whether the message's own Content-Type is multipart (only a multipart message has MIME
    boundaries: a plain one's "-- " lines are text)."""
    try:
        return email.message_from_bytes(_header_block(cut_headers(raw))).get_content_maintype() \
            == "multipart"
    except Exception:
        return True


def _header_block(raw: bytes) -> bytes:
    head = raw[:_HEADER_BYTES]
    end = re.search(rb"\r?\n\r?\n", head)
    return head[: end.start()] + b"\n\n" if end else head


def _decode(
    raw: bytes,
    max_bytes: int | None,
    size: int | None,
    own_addresses: str | Iterable[str],
    max_seconds: float = MAX_READ_SECONDS,
) -> DecodedMessage:
    started = time.monotonic()
    problems: list[str] = []
    total = max(size if size is not None else 0, len(raw))
    too_large = max_bytes is not None and total > max_bytes
    unread: list[str] = []
    whole = False
    if too_large:
        problems.append(f"the message is {total} bytes; the limit is {max_bytes} bytes")
        message = _parse(_header_block(raw), problems)
    # the count first: the head is parsed only for a message with many "--" lines
    elif raw.count(b"\n--") > MAX_BOUNDARY_LINES and _multipart_head(raw):
        problems.append(f"the message has more than {MAX_BOUNDARY_LINES} MIME boundaries; "
                        "only its headers were read")
        unread.append(f"it has more than {MAX_BOUNDARY_LINES} MIME boundary lines (the most "
                      "read), so none of its parts was read")
        message = _parse(_header_block(raw), problems)
    else:
        message = _parse(raw, problems)
        whole = True

    sender_name, sender = "", None
    from_value = _first_header(message, "From")
    if from_value is None:
        problems.append("no From header")
    else:
        sender_name, sender = _address(from_value)
        if sender is None:
            problems.append(f"unreadable From address {header_text(from_value, 200)!r}")
    reply_to_value = _first_header(message, "Reply-To")
    reply_to = _address(reply_to_value)[1] if reply_to_value else None
    return_path_value = _first_header(message, "Return-Path")
    return_path = None
    if return_path_value is not None:
        return_path = _address(return_path_value)[1] or ""

    subject_value = _first_header(message, "Subject")
    subject = header_text(subject_value) if subject_value is not None else ""
    message_ids = _message_ids(_first_header(message, "Message-ID"))
    message_id = message_ids[0] if message_ids else None
    if message_id is None:
        problems.append("no Message-ID")
    in_reply_to_ids = _message_ids(_first_header(message, "In-Reply-To"))
    references = tuple(_message_ids(" ".join(_all_headers(message, "References"))))[-50:]

    date = None
    date_value = _first_header(message, "Date")
    if date_value:
        try:
            date = parsedate_to_datetime(header_text(date_value, 200))
        except Exception:
            problems.append(f"unreadable Date {header_text(date_value, 100)!r}")

    automatic = detect_automatic(message, _own(own_addresses))

    body_text = ""
    attachments: tuple[AttachmentInfo, ...] = ()
    over_bound = None
    long_lines: list[tuple[str, int]] = []
    if not too_large:
        reader = _Reader(started + max_seconds, max_seconds)
        try:
            text = reader.read(message)
            if text is None:
                problems.append("the message has no text part")
                text = ""
            body_text = _normalise_text(text, problems, long_lines)
            reader.check()
        except OverBound as exc:
            over_bound, body_text = str(exc), ""
            problems.append(over_bound)
        attachments = tuple(reader.attachments)
        problems.extend(reader.problems)
        unread.extend(reader.unread)
        unread.extend(_cut_line_note(kept, length) for kept, length in long_lines[:10])
        if len(long_lines) > 10:
            unread.append(f"{len(long_lines) - 10} more lines were cut likewise")
    cleaned = clean_body(body_text)

    return DecodedMessage(
        text=cleaned.text,
        body=body_text,
        sender=sender,
        sender_name=sender_name,
        reply_to=reply_to,
        return_path=return_path,
        subject=subject,
        message_id=message_id,
        in_reply_to=in_reply_to_ids[0] if in_reply_to_ids else None,
        references=references,
        date=date,
        attachments=attachments,
        automatic=automatic,
        size=total,
        too_large=too_large,
        over_bound=over_bound,
        signoff=cleaned.signoff,
        cuts=cleaned.cuts,
        problems=tuple(dict.fromkeys(problems)),
        unread=tuple(unread),
        long_lines=tuple(long_lines),
        parsed=message if whole else None,
    )
