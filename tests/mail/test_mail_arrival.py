"""When the mail system received a message (gm.mail.arrival): IMAP's INTERNALDATE, the local
mail server's Received line for mail handed over late, never the sender's own Date or the
Received lines the sender wrote."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.mail.arrival import MAX_QUEUED, handed_over, internaldate, top_received

AT = datetime(2026, 11, 28, 21, 40, 0, tzinfo=UTC)
TRUSTED = ("judge.example.org",)  # the local mail server, which adds the topmost line


def test_internaldate_is_read_with_its_zone() -> None:
    items = b'* 3 FETCH (UID 9 RFC822.SIZE 120 INTERNALDATE "28-Nov-2026 22:37:58 +0100" BODY[]'
    assert internaldate(items) == datetime(2026, 11, 28, 21, 37, 58, tzinfo=UTC)
    # a day of one digit is written with a space (RFC 3501 date-day-fixed)
    assert internaldate(b'INTERNALDATE " 1-Dec-2026 00:00:01 -0500"') == datetime(
        2026, 12, 1, 5, 0, 1, tzinfo=UTC)


def test_no_or_a_broken_internaldate_gives_none() -> None:
    assert internaldate(b"* 3 FETCH (UID 9 RFC822.SIZE 120 BODY[]") is None
    assert internaldate(b'INTERNALDATE "31-Foo-2026 10:00:00 +0000"') is None
    assert internaldate(b'INTERNALDATE "31-Feb-2026 10:00:00 +0000"') is None


def _queued(received: str, *, date: str = "Mon, 01 Jan 2001 00:00:00 +0000") -> bytes:
    return (
        f"Received: from mx.example.net (mx.example.net [192.0.2.1])\r\n"
        f"\tby judge.example.org (Postfix) with ESMTPS id 4Xyz;\r\n\t{received}\r\n"
        "Received: from forged.example (forged [198.51.100.9]); Mon, 01 Jan 2001 00:00:00 +0000\r\n"
        f"Date: {date}\r\nFrom: france@example.org\r\nSubject: orders\r\n\r\n"
        "SIGNON France g pw\r\nA Par-Bur\r\n").encode()


def test_the_topmost_received_line_is_the_local_mail_servers() -> None:
    raw = _queued("Sat, 28 Nov 2026 21:37:58 +0000 (UTC)")
    assert top_received(raw) == datetime(2026, 11, 28, 21, 37, 58, tzinfo=UTC)


def test_mail_queued_while_gm_was_down_arrived_when_the_server_took_it() -> None:
    raw = _queued("Sat, 28 Nov 2026 21:37:58 +0000")
    assert handed_over(raw, AT, TRUSTED) == datetime(2026, 11, 28, 21, 37, 58, tzinfo=UTC)


def test_the_senders_date_and_lower_received_lines_count_for_nothing() -> None:
    no_received = b"Date: Mon, 01 Jan 2001 00:00:00 +0000\r\nFrom: a@example.org\r\n\r\nbody"
    assert handed_over(no_received, AT, TRUSTED) == AT
    # only the topmost line is read: a forged one under it cannot move the arrival
    raw = _queued("Sat, 28 Nov 2026 21:39:00 +0000")
    assert handed_over(raw, AT, TRUSTED) == datetime(2026, 11, 28, 21, 39, tzinfo=UTC)


def test_an_unbelievable_received_date_is_not_used() -> None:
    too_old = (AT - MAX_QUEUED - timedelta(minutes=1)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    assert handed_over(_queued(too_old), AT, TRUSTED) == AT
    later = (AT + timedelta(hours=1)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    assert handed_over(_queued(later), AT, TRUSTED) == AT
    assert handed_over(_queued("not a date"), AT, TRUSTED) == AT
    # a Received line without its date
    raw = b"Received: from x by y with SMTP id 1\r\nFrom: a@example.org\r\n\r\nbody"
    assert handed_over(raw, AT, TRUSTED) == AT


def test_a_received_line_from_no_trusted_host_is_not_believed() -> None:
    """Where nothing upstream adds its own line (a script's Maildir, `gm ingest` from a pipe),
    the topmost line is the sender's: its early date must not make late orders count."""
    forged = (b"Received: from x by forged.example.net; Sat, 28 Nov 2026 21:00:00 +0000\r\n"
              b"From: a@example.org\r\n\r\nSIGNON France g pw\r\n")
    assert handed_over(forged, AT, TRUSTED) == AT
    assert handed_over(forged, AT) == AT  # no host trusted: the time of the hand-over
    # the local server's line is believed only when a host is trusted, and by its own name
    raw = _queued("Sat, 28 Nov 2026 21:37:58 +0000")
    assert handed_over(raw, AT) == AT
    assert handed_over(raw, AT, ("JUDGE.example.org.",)) == datetime(
        2026, 11, 28, 21, 37, 58, tzinfo=UTC)
    assert handed_over(raw, AT, ("mx.example.net",)) == AT  # the "from" host is not the "by"
