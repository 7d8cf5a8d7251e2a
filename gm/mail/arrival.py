"""When the mail system received a message: what a deadline is kept by.

Never the sender's own Date header, which the sender writes. The sources give what their server
recorded: IMAP's INTERNALDATE (`internaldate`), a Maildir file's delivery time; a message handed
over (LMTP, or `gm ingest` piped from the mail server) arrived when it was handed over, or when
the local mail server received it if that was earlier (`handed_over`: the date of the topmost
Received line, which the last server adds above whatever the sender wrote), for mail the server
queued while gm was down. That line is believed only when it says it was added "by" a host the
configuration trusts (`trusted_received_hosts`, the local mail server's name): where nothing
upstream adds its own line (a script filling a Maildir, `gm ingest` from a pipe), the topmost
line is the sender's, and its date is what the sender chose.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

# how long a mail server keeps a message queued before it gives up (Postfix's
# maximal_queue_lifetime is 5 days): a Received date older than this is not believed
MAX_QUEUED = timedelta(days=5)
# a Received date this far after the hand-over is a clock out of step: not believed
MAX_SKEW = timedelta(minutes=5)

_MONTHS = {m: n for n, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_INTERNALDATE = re.compile(
    rb'INTERNALDATE "\s*(\d{1,2})-([A-Za-z]{3})-(\d{4}) '
    rb'(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})"')


def internaldate(fetch_items: bytes) -> datetime | None:
    """The INTERNALDATE in an IMAP FETCH response's items (RFC 3501 date-time), in UTC."""
    found = _INTERNALDATE.search(fetch_items)
    if found is None:
        return None
    day, month, year, hour, minute, second, sign, zh, zm = found.groups()
    number = _MONTHS.get(month.decode().lower())
    if number is None:
        return None
    try:
        local = datetime(int(year), number, int(day), int(hour), int(minute), int(second),
                         tzinfo=UTC)
    except ValueError:
        return None
    offset = timedelta(hours=int(zh), minutes=int(zm))
    return local - offset if sign == b"+" else local + offset


def _header_block(raw: bytes) -> bytes:
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        end = raw.find(b"\n\n")
    return raw if end < 0 else raw[:end]


_BY_RE = re.compile(rb"(?:^|[\s;()])by\s+\[?([A-Za-z0-9.:-]{1,255})", re.IGNORECASE)


def top_received(raw: bytes, trusted: Collection[str] | None = None) -> datetime | None:
    """The date of the message's topmost Received line (after its last ';'), in UTC; with
    `trusted`, only when the line's "by" host is one of those names (else None)."""
    lines = _header_block(raw).replace(b"\r\n", b"\n").split(b"\n")
    for index, line in enumerate(lines):
        if line[:9].lower() != b"received:":
            continue
        value = line[9:]
        for more in lines[index + 1:]:
            if more[:1] not in (b" ", b"\t"):
                break
            value += b" " + more.strip()
        stamp = value.rsplit(b";", 1)
        if len(stamp) != 2:
            return None
        if trusted is not None:
            by = _BY_RE.search(stamp[0])
            host = by.group(1).decode("ascii").lower().rstrip(".") if by else ""
            if host not in {name.lower().rstrip(".") for name in trusted}:
                return None
        try:
            when = parsedate_to_datetime(stamp[1].decode("ascii", "replace").strip())
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # "-0000": UTC by RFC 5322 3.3
            when = when.replace(tzinfo=UTC)
        return when.astimezone(UTC)
    return None


def handed_over(raw: bytes, at: datetime, trusted: Collection[str] = ()) -> datetime:
    """When a message handed over at `at` arrived: the topmost Received line's date when that
    line was added by one of the `trusted` hosts and its date is earlier (queued at the mail
    server meanwhile) and believable, else `at` (always `at` when no host is trusted)."""
    if not trusted:
        return at
    received = top_received(raw[:256 * 1024], trusted)
    if received is None or received > at + MAX_SKEW or received < at - MAX_QUEUED:
        return at
    return min(received, at)
