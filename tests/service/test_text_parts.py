"""A copy's own text part (its calendar entry) written without the email package is the part
the email package writes, byte for byte; what it would encode is left to it."""

from __future__ import annotations

import pytest

from gm.mail.compose import Attachment, text_attachment_part
from gm.mail.text_parts import TextParts


def _ics(power: str, method: str = "REQUEST", end: str = "\r\n") -> bytes:
    lines = ["BEGIN:VCALENDAR", f"METHOD:{method}", "BEGIN:VEVENT",
             f"SUMMARY:Game one: {power}'s orders due", "DTSTART:20260305T120000Z",
             "END:VEVENT", "END:VCALENDAR"]
    return (end.join(lines) + end).encode()


def _item(data: bytes, name: str = "deadline.ics") -> Attachment:
    return Attachment(name, "text/calendar", data)


def test_later_copies_are_written_as_the_email_package_writes_them() -> None:
    parts = TextParts()
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        item = _item(_ics(power))
        assert parts.write(item) == text_attachment_part(item)
    assert parts.written == 6  # the first by the email package, its head kept for the others
    assert b'method="REQUEST"' in next(iter(parts.heads.values()))


@pytest.mark.parametrize("data", [
    _ics("France", end="\n"),  # LF line ends: written with CRLF all the same
    _ics("France", end="\r\n").rstrip(b"\r\n"),  # no line end at the end
    _ics("France", method="CANCEL"),  # another method: another head
    _ics("Fran\u00e7e"),  # not ASCII: the email package encodes it
    _ics("France" + "x" * 80),  # a line too long for 7bit: encoded too
])
def test_other_bodies_come_out_as_the_email_package_writes_them(data: bytes) -> None:
    parts = TextParts()
    parts.write(_item(_ics("Austria")))
    assert parts.write(_item(data)) == text_attachment_part(_item(data))
    assert parts.write(_item(data, "other.ics")) == text_attachment_part(_item(data, "other.ics"))
