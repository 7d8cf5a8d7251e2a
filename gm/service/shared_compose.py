"""A report's message composed once for all its recipients.

A phase's report goes out as one queued message a recipient (each power's players, the GM),
the same text, HTML and pictures in each and a small attachment of its own (the deadline's
calendar entry names the power): the email package takes milliseconds to build and write such
a message, most of a report's sending cost after its pictures. `SharedComposer` composes the
first copy (written directly, gm.mail.compose_direct.compose_report, or by
`gm.mail.compose.compose_message`) and keeps its bytes; a later message of the
same content is written from them: its To and Message-ID headers new (written directly
where they are plain: gm.mail.compose.plain_fields), and each attachment of
its own written alone and put in the place of the first copy's (by the same email package
policy, or as it writes them: gm.mail.text_parts; the message reads exactly as one composed
whole). The GM's copy, whose HTML alone differs (a word on the press the players saw), is
written from the players' too, its HTML part written as the package writes it
(gm.mail.compose_direct.html_body). The copies share their MIME boundaries: random, and
chosen after their content was fixed. A copy written from the kept bytes carries its LF form
too (gm.mail.transport.RawMessage.lf, what a Maildir stores), made from the kept parts' LF
forms, each converted once for all the copies: the same bytes as converting the whole copy,
as no part ends with a CR before a joint beginning with an LF. It holds that form as pieces
that share the kept parts (gm.mail.pieced.PiecedMessage; the GM's copy its HTML put among
them, `_html_swap`), and joins its CRLF bytes only if a sink asks for them.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from email.headerregistry import Address
from functools import partial
from typing import cast

from gm.mail.compose import (
    Attachment,
    checked_message_id,
    header_fields,
    plain_fields,
    to_raw,
)
from gm.mail.compose_direct import html_body
from gm.mail.pieced import PiecedMessage
from gm.mail.text_parts import TextParts
from gm.mail.transport import OutgoingMessage, RawMessage

_END = b"\r\n\r\n"  # the end of a message's headers (compose_message writes CRLF)
_OWN = (b"to", b"message-id")  # the headers written anew for each copy
_MIXED = re.compile(rb'multipart/mixed;\s*boundary="?([^";\r\n]+)"?', re.I)
_BOUNDARY = re.compile(rb'boundary="([^"\r\n]+)"')


def _fields(head: bytes) -> list[bytes]:
    """The header fields of a header block, each with its folded lines."""
    fields: list[bytes] = []
    for line in head.split(b"\r\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += b"\r\n" + line
        else:
            fields.append(line)
    return fields


def _name(field: bytes) -> bytes:
    return field.split(b":", 1)[0].strip().lower()


def _parts(fields: list[bytes], body: bytes) -> tuple[bytes, list[bytes]] | None:
    """The delimiter and the pieces of a multipart/mixed body (the first, before the first
    part, empty; then each part behind its line end; then the closing one), None if the
    message is not multipart/mixed."""
    kind = next((f for f in fields if _name(f) == b"content-type"), b"")
    found = _MIXED.search(kind.replace(b"\r\n", b""))
    if found is None:
        return None
    delimiter = b"\r\n--" + found.group(1)
    return delimiter, (b"\r\n" + body).split(delimiter)


@dataclass(frozen=True)
class Own:
    """A message's own part: the `index`-th part of its multipart/mixed body, and how to
    write it (gm.mail.compose.text_attachment_part)."""

    index: int
    write: Callable[[], bytes]


class SharedComposer:
    """Composes messages, remembering the last few contents (by a key the caller gives: all
    that goes into the message but its recipients, its Message-ID and its own parts) and
    writing later messages of the same content from the bytes."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, tuple[list[bytes], bytes, str, str | None,
                                               dict[str, object]]] = OrderedDict()
        self.composed = 0  # messages built whole (the others written from their bytes here)
        self.text_parts = TextParts()  # each copy's own text part (its calendar entry)

    def text_part(self, item: Attachment) -> bytes:
        """A copy's own text attachment part (gm.mail.text_parts)."""
        return self.text_parts.write(item)

    def message(self, key: Hashable, to: Sequence[Address], message_id: str,
                build: Callable[[], OutgoingMessage], own: Sequence[Own] = (),
                html: str | None = None) -> RawMessage:
        """The message `build` makes (compose_message's to `to`, with `message_id`, its HTML
        part `html`, which `key` leaves out; or its bytes), written from the one last built
        under `key` when there is one."""
        kept = self.kept.get(key)
        written = None
        if kept is not None and to:
            fields, body, sender, kept_html, lf = kept
            if html == kept_html:
                written = self._write((fields, body, sender), to, message_id, own, lf)
            elif own and (swap := _html_swap(fields, body, lf, kept_html, html)) is not None:
                # the GM's copy: the kept pieces, its HTML put in the place of the players'
                written = self._write((fields, body, sender), to, message_id, own, lf, swap)
            if written is None and html != kept_html:
                ours = _other_html(fields, body, kept_html, html)
                if ours is not None:
                    written = self._write((fields, ours, sender), to, message_id, own,
                                          _other_lf(lf, kept_html, html))
        if written is not None:
            self.kept.move_to_end(key)
            return written
        made = build()
        raw = made if isinstance(made, RawMessage) else to_raw(made)
        head, _, body = raw.data.partition(_END)
        fields = _fields(head)
        if sorted(n for n in map(_name, fields) if n in _OWN) == sorted(_OWN):
            # its body's LF form, where its writer made it (gm.mail.compose_direct)
            forms: dict[str, object] = {} if raw.lf is None else {
                "body": raw.lf.partition(b"\n\n")[2]}
            self.kept[key] = (fields, body, raw.sender, html, forms)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        self.composed += 1
        return raw

    @staticmethod
    def _write(kept: tuple[list[bytes], bytes, str], to: Sequence[Address], message_id: str,
               own: Sequence[Own], lf: dict[str, object],
               swap: tuple[bytes, bytes] | None = None) -> RawMessage | None:
        """The copy to `to` of the `kept` message; `lf`: the kept body's pieces and LF forms,
        made here once (its pieces', or the whole body's) and kept for the next copies (an
        empty dict for a body written anew); `swap`: its HTML part's content (CRLF), found
        once in the body by `_html_swap`, and the content written in its place."""
        fields, body, sender = kept
        if own:
            if "split" not in lf:  # the body's pieces, found once for all its copies
                lf["split"] = _parts(fields, body)
            split = cast("tuple[bytes, list[bytes]] | None", lf["split"])
            if split is None:
                return None
            delimiter, pieces = split[0], list(split[1])
            if "pieces" not in lf:
                lf["pieces"] = _lf_pieces(pieces, delimiter, lf.get("body"))
            pieces_lf = list(cast("list[bytes]", lf["pieces"]))
            for part in own:
                if part.index + 1 >= len(pieces) - 1:
                    return None
                pieces[part.index + 1] = b"\r\n" + part.write()
                pieces_lf[part.index + 1] = _lf(pieces[part.index + 1])
            body_lf = _joined(pieces_lf, _lf(delimiter))
            swapped = None
            if swap is not None:  # in one piece, the same in both forms (`_html_swap`)
                at = next((i for i, piece in enumerate(pieces) if swap[0] in piece), 0)
                before, found, after = pieces_lf[at].partition(_lf(swap[0]))
                if at == 0 or not found:  # across a delimiter: written whole (`_other_html`)
                    return None
                # the piece's place among `_joined`'s pieces: 2 * at - 1
                body_lf = (*body_lf[:2 * at - 1], before, _lf(swap[1]), after,
                           *body_lf[2 * at:])
                swapped = (at, *swap)
            crlf_body: Callable[[], bytes] = partial(_crlf_body, delimiter, pieces, swapped)
        else:
            if "body" not in lf:
                lf["body"] = _lf(body)
            body_lf = (cast(bytes, lf["body"]),)
            crlf_body = partial(_itself, body)
        mid = checked_message_id(message_id)
        plain = plain_fields(to, mid)  # most copies: written here, not by the email package
        new = ({b"to": plain[0], b"message-id": plain[1]} if plain is not None else
               {_name(f): f for f in _fields(header_fields([("To", list(to)),
                                                            ("Message-ID", mid)]))})
        head = b"\r\n".join(new.get(_name(f), f) for f in fields)
        # its LF form in pieces that share the kept body's; its CRLF bytes joined if asked for
        return PiecedMessage(mid, sender, tuple(a.addr_spec for a in to),
                             pieces=(_lf(head), b"\n\n", *body_lf),
                             crlf=partial(_crlf_message, head, crlf_body))


def _joined(pieces: list[bytes], delimiter: bytes) -> tuple[bytes, ...]:
    """The pieces of `delimiter.join(pieces)[1:]` (a body split after a line end put before
    it), none of them copied but the first."""
    out = [(pieces[0] + delimiter)[1:]]
    for piece in pieces[1:-1]:
        out += (piece, delimiter)
    out.append(pieces[-1])
    return tuple(out)


def _crlf_body(delimiter: bytes, pieces: list[bytes],
               swap: tuple[int, bytes, bytes] | None = None) -> bytes:
    """A body's CRLF bytes from its `pieces` (split at `delimiter` after a CRLF put before);
    `swap`: a piece's index, and its content to replace and the content in its place."""
    if swap is not None:
        at, was, now = swap
        pieces = [*pieces[:at], pieces[at].replace(was, now), *pieces[at + 1:]]
    return delimiter.join(pieces)[2:]


def _itself(data: bytes) -> bytes:
    return data


def _crlf_message(head: bytes, body: Callable[[], bytes]) -> bytes:
    return head + _END + body()


def _lf(data: bytes) -> bytes:
    """`data` with LF line ends (a Maildir's)."""
    return data.replace(b"\r\n", b"\n")


def _lf_pieces(pieces: list[bytes], delimiter: bytes, body_lf: object) -> list[bytes]:
    """The LF forms of a body's `pieces` (split at `delimiter`): split from the body's LF
    form `body_lf` where there is one (each the same bytes, as no piece ends with a CR before
    the delimiter's line end), else each converted."""
    if isinstance(body_lf, bytes):
        split = (b"\n" + body_lf).split(_lf(delimiter))
        if len(split) == len(pieces):  # its delimiters and no other: the pieces' forms
            return split
    return [_lf(piece) for piece in pieces]


def _other_lf(lf: dict[str, object], html: str | None, other: str | None
              ) -> dict[str, object]:
    """The LF forms (`SharedComposer._write`'s `lf`) of a body whose HTML part `html` is
    written as `other` (`_other_html`): its LF body, from the kept body's, where the HTML is
    there once; else none (made from the new body)."""
    body_lf = lf.get("body")
    if not isinstance(body_lf, bytes) or html is None or other is None:
        return {}
    was, now = html_body(html), html_body(other)
    if was is None or now is None:
        return {}
    old, new = _lf(b"\r\n\r\n" + was[1] + b"\r\n--"), _lf(b"\r\n\r\n" + now[1] + b"\r\n--")
    if body_lf.count(old) != 1:
        return {}
    return {"body": body_lf.replace(old, new)}


def _html_swap(fields: list[bytes], body: bytes, lf: dict[str, object], html: str | None,
               other: str | None) -> tuple[bytes, bytes] | None:
    """The content of the HTML part `html` in `body` (a message's, under the header `fields`,
    made directly: its LF form in `lf`), with its line ends and the delimiter's start around
    it, and the same of `other`, as the email package writes it, to put in its place in the
    body's pieces (`SharedComposer._write`); None where `_other_html` is to write the body
    whole. The body's delimiters are found once for its copies (kept in `lf`)."""
    body_lf = lf.get("body")
    if html is None or other is None or not isinstance(body_lf, bytes):
        return None
    was, now = html_body(html), html_body(other)
    if was is None or now is None or was[0] != now[0]:  # the same Content-Transfer-Encoding
        return None
    old, new = b"\r\n\r\n" + was[1] + b"\r\n--", b"\r\n\r\n" + now[1] + b"\r\n--"
    if body.count(old) != 1 or body_lf.count(_lf(old)) != 1:
        return None
    if "boundaries" not in lf:
        lf["boundaries"] = [*_BOUNDARY.findall(b"".join(fields).replace(b"\r\n", b"")),
                            *_BOUNDARY.findall(body)]
    if any(b"--" + boundary in now[1] for boundary in cast("list[bytes]", lf["boundaries"])):
        return None  # a delimiter in the new text (the package would choose another)
    return old, new


def _other_html(fields: list[bytes], body: bytes, html: str | None, other: str | None
                ) -> bytes | None:
    """`body` (a message's, under the header `fields`) with its HTML part's content `html`
    written as `other`, as the email package writes it; None where that cannot be told."""
    if html is None or other is None:
        return None
    was, now = html_body(html), html_body(other)
    if was is None or now is None or was[0] != now[0]:  # the same Content-Transfer-Encoding
        return None
    old, new = b"\r\n\r\n" + was[1] + b"\r\n--", b"\r\n\r\n" + now[1] + b"\r\n--"
    if body.count(old) != 1:
        return None
    if any(b"--" + boundary in now[1] for boundary in _BOUNDARY.findall(
            b"".join(fields).replace(b"\r\n", b"") + body)):
        return None  # a delimiter in the new text (the package would choose another)
    return body.replace(old, new)
