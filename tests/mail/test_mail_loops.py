"""Recognising mail that must not be answered."""

from __future__ import annotations

import email

import pytest

from gm.mail.loops import AutoKind, detect_automatic

OWN = ["gm@example.org"]


def kind(headers: str) -> AutoKind | None:
    message = email.message_from_string(headers + "\n\nbody\n")
    found = detect_automatic(message, OWN)
    return found.kind if found else None


@pytest.mark.parametrize(("headers", "expected"), [
    ("From: a@example.org", None),
    ("From: a@example.org\nAuto-Submitted: no", None),
    ("From: a@example.org\nAuto-Submitted: auto-replied", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nAuto-Submitted: auto-generated; owner-email=x@y", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nPrecedence: bulk", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nPrecedence: junk", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nPrecedence: list", AutoKind.LIST),
    ("From: a@example.org\nList-Id: <players.example.org>", AutoKind.LIST),
    ("From: a@example.org\nList-Unsubscribe: <mailto:u@example.org>", AutoKind.LIST),
    ("From: a@example.org\nReturn-Path: <>", AutoKind.BOUNCE),
    ("From: a@example.org\nReturn-Path: < >", AutoKind.BOUNCE),
    ("From: a@example.org\nReturn-Path: <a@example.org>", None),
    ("From: MAILER-DAEMON@mx.example.org", AutoKind.BOUNCE),
    ("From: Mail System <mailer-daemon@mx.example.org>", AutoKind.BOUNCE),
    ("From: postmaster@example.org", AutoKind.BOUNCE),
    ("From: no-reply@example.org", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nSender: noreply@example.org", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nX-Autoreply: yes", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nX-Auto-Response-Suppress: All", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nX-Auto-Response-Suppress: DR, OOF", AutoKind.AUTO_REPLY),
    ("From: a@example.org\nX-Auto-Response-Suppress: DR, RN, NRN", None),
    ("From: a@example.org\nX-Failed-Recipients: b@example.org", AutoKind.BOUNCE),
    ("From: a@example.org\nContent-Type: multipart/report; report-type=delivery-status",
     AutoKind.BOUNCE),
    ("From: GM <GM@Example.ORG>", AutoKind.OWN),
    ("From: a@example.org\nSender: gm@example.org", AutoKind.OWN),
    ("From: a@example.org\nX-Loop: gm@example.org", AutoKind.OWN),
])
def test_detection(headers: str, expected: AutoKind | None) -> None:
    assert kind(headers) == expected


def test_reason_names_the_header() -> None:
    message = email.message_from_string("From: a@example.org\nPrecedence: bulk\n\nx")
    found = detect_automatic(message, OWN)
    assert found is not None
    assert str(found) == "auto-reply: Precedence: bulk"


def test_garbage_headers_do_not_raise() -> None:
    message = email.message_from_bytes(
        b"From: \xff\xfe<<<@@@>>>\nReturn-Path: \x00\nPrecedence: \xc3\n\nx")
    assert detect_automatic(message, OWN) is None
