"""A text attachment's MIME part written without the email package: the same bytes as
gm.mail.compose.text_attachment_part.

A phase report's copies differ in one small part, the deadline's calendar entry (it names the
recipient's power). The email package takes a millisecond or more to make such a part, though
its head (Content-Transfer-Encoding, Content-Disposition with the file name, Content-Type with
the calendar's method) is the same in every copy of the same file name, type and method, and
a body of ASCII lines no longer than the policy's 78 characters is written as it is ("7bit"),
each line ending in CRLF. `TextParts` makes the head of each kind once, by the email package,
and writes such bodies behind it itself; any other body is left to the email package.
"""

from __future__ import annotations

from gm.mail.compose import Attachment, calendar_params, mime_type, text_attachment_part

_END = b"\r\n\r\n"  # a part's head ends with an empty line
LONGEST = 78  # the email package's policy's max_line_length: a longer line is encoded


class TextParts:
    """Writes text attachment parts, remembering the heads it has seen (by file name, type and
    calendar method)."""

    def __init__(self) -> None:
        self.heads: dict[tuple[str, str, str], bytes] = {}
        self.written = 0  # parts written here, not by the email package

    def write(self, item: Attachment) -> bytes:
        """The part `text_attachment_part(item)` makes."""
        lines = item.data.splitlines()
        if not lines or not item.data.isascii() or max(map(len, lines)) > LONGEST:
            return text_attachment_part(item)  # encoded, or not as plain: the email package's
        params = calendar_params(item.data, mime_type(item.content_type)[1]) or {}
        key = (item.filename, item.content_type, params.get("method", ""))
        body = b"\r\n".join(lines) + b"\r\n"
        head = self.heads.get(key)
        if head is None:
            whole = text_attachment_part(item)
            head, _, written = whole.partition(_END)
            if written == body:  # the email package writes it so: the head serves again
                self.heads[key] = head
            return whole
        self.written += 1
        return head + _END + body
