"""A phase's report written directly (gm.mail.compose_direct.compose_report) is byte for byte
what the email package builds (compose_message; only the random boundaries differ): its text,
its HTML showing the pictures, and the files after them (a calendar entry, SVG pictures);
anything else is left to the package (None)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest

from gm.mail.compose import (
    Attachment,
    binary_part,
    compose_message,
    flatten,
    inline_content_id,
    make_address,
    to_raw,
)
from gm.mail.compose_direct import compose_related, compose_report, simple_binary_part
from gm.mail.text_parts import TextParts

PNG = bytes(range(256)) * 40
ORDERS = Attachment("bench1-spring-1901-movement-orders.png", "image/png", PNG,
                    "bench1-spring-1901-movement-orders.png@picture.gm")
MAP = Attachment("bench1-fall-1901-movement.png", "image/png", PNG[::-1],
                 "bench1-fall-1901-movement.png@picture.gm")
ICS = Attachment("deadline.ics", "text/calendar", (
    b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:Orders due: bench1 Fall "
    b"1901\\, Movement (France)\r\nATTENDEE;PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT;RSVP=FAL"
    b"SE:mailto:fran\r\n ce1@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
SVG = Attachment("bench1-fall-1901-movement.svg", "image/svg+xml", b"<svg>" + b"x" * 900
                 + b"</svg>")
TEXT = ("bench1 (Standard, 2000 rulebook): results of Spring 1901, Movement\n\n"
        "Austria:\n  A Vie - Gal  (fails: bounced with A War (1 against 1))\n\n-- \ngm\n")
HTML = ('<!DOCTYPE html>\n<html><body><p style="margin:10px 0"><img src="cid:bench1-spring-'
        '1901-movement-orders.png@picture.gm" alt="the orders" width="100%"></p>\n'
        '<p><img src="cid:bench1-fall-1901-movement.png@picture.gm" alt="the map"></p>\n'
        + "<p>Austria: A Vie - Gal</p>\n" * 3 + "</body></html>")
_BOUNDARY = re.compile(rb"=_gm_[0-9a-f]{32}")


def _both(attachments: list[Attachment], *, html: str = HTML, body: str = TEXT,
          to: tuple[str, ...] = ("france1@example.org",),
          subject: str = "[bench1] Spring 1901, Movement: results"
          ) -> tuple[bytes, bytes | None, bytes]:
    """The message built by the email package and written directly, their boundaries made
    alike, and the one written directly as it is (b"" if it was not)."""
    common = dict(subject=subject, body=body, message_id="<a.b@example.org>",
                  auto_submitted="auto-generated", date=datetime(2026, 3, 5, 12, 0, tzinfo=UTC))
    built = to_raw(compose_message(sender=make_address("judge@example.org", "gm"),
                                   to=[make_address(a) for a in to], html=html,
                                   attachments=attachments, **common)).data  # type: ignore[arg-type]
    direct = compose_report(sender="judge@example.org", sender_name="gm", to=to, html=html,
                            attachments=attachments, text_part=TextParts().write,
                            **common)  # type: ignore[arg-type]
    if direct is not None:  # its LF form (a Maildir's) joined from its pieces' LF forms
        assert direct.lf == direct.data.replace(b"\r\n", b"\n")
    return (_unbounded(built), None if direct is None else _unbounded(direct.data),
            b"" if direct is None else direct.data)


def _unbounded(data: bytes) -> bytes:
    return _BOUNDARY.sub(b"=_gm_BOUNDARY", data)


@pytest.mark.parametrize("attachments", [
    [ICS, ORDERS, MAP],  # a player's report: the deadline's calendar entry and two pictures
    [ORDERS, MAP],  # no file: the alternative alone
    [ICS, ORDERS, MAP, SVG],  # SET PICTURES ALL: the SVG attached too
    [SVG, MAP, ICS],
], ids=["calendar", "no file", "calendar and svg", "svg first"])
def test_written_as_the_email_package_writes_it(attachments: list[Attachment]) -> None:
    built, direct, raw = _both(attachments)
    assert direct == built
    read = message_from_bytes(raw, policy=default)
    assert isinstance(read, EmailMessage)
    files = [a for a in attachments if not a.content_id]
    assert read.get_content_type() == ("multipart/mixed" if files else "multipart/alternative")
    assert [p.get_filename() for p in read.walk()
            if p.get_content_disposition() == "attachment"] == [a.filename for a in files]


@pytest.mark.parametrize(("change", "value"), [
    ("body", "Résultats du printemps\n"),  # not ASCII: the package encodes it
    ("html", "<p>no picture shown</p>"),
    ("subject", "[bench1] " + "a long subject " * 8),  # folded by the package
    ("to", ("Fran\u00e7ois <france1@example.org>",)),
], ids=["text not ASCII", "pictures not shown", "long subject", "display name"])
def test_anything_else_is_left_to_the_email_package(change: str, value: object) -> None:
    attachments = [ICS, ORDERS, MAP]
    if change == "html":
        attachments = [ICS, Attachment(ORDERS.filename, ORDERS.content_type, ORDERS.data)]
    if change == "to":
        assert compose_report(
            sender="judge@example.org", sender_name="gm", to=value,  # type: ignore[arg-type]
            subject="s", body=TEXT, html=HTML, attachments=attachments,
            message_id="<a.b@example.org>") is None
        return
    built, direct, _ = _both(attachments, **{change: value})  # type: ignore[arg-type]
    assert direct is None
    assert built.startswith(b"From: gm <judge@example.org>")


@pytest.mark.parametrize("name", [
    "bench1-spring-1901-movement-orders.png",
    "a-game-of-a-rather-long-name-spring-1901-movement-orders-of-every-power.png",  # folded
    "orders of spring.png",  # a space: its content id is made of dashes
    "Frühling-1901.png",  # not ASCII: an encoded file name
], ids=["simple", "long name", "space", "not ascii"])
def test_a_picture_of_any_name_is_written_as_the_email_package_writes_it(name: str) -> None:
    cid = inline_content_id(name)
    picture = Attachment(name, "image/png", PNG, cid)
    svg = Attachment(name.replace(".png", ".svg"), "image/svg+xml", b"<svg/>")
    built, direct, _ = _both([ICS, picture, svg], html=f'<p><img src="cid:{cid}"></p>\n')
    assert direct == built


def test_a_picture_part_of_any_name_length_is_the_email_packages() -> None:
    """A picture's part is written without the package where its head is simple, its file
    name and content id folded onto their own lines as the package folds them."""
    data = PNG[:500]
    for length in range(1, 90):
        name = "g" * length + ".png"
        for cid in (f"<{name}@picture.gm>", None):
            disposition = "inline" if cid else "attachment"
            direct = simple_binary_part(name, "image", "png", disposition, cid, data)
            built = flatten(binary_part(data, "image", "png", filename=name,
                                        disposition=disposition, cid=cid))
            assert direct in (None, built), (length, disposition)
            if length <= 40:  # the names a game's pictures have: written here
                assert direct == built, (length, disposition)


def test_an_acknowledgement_carries_its_lf_form() -> None:
    written = compose_related(
        sender="judge@example.org", sender_name="Judge", to=["france1@example.org"],
        subject="[bench1] Re: orders", body=TEXT, html=HTML, pictures=[ORDERS, MAP],
        message_id="<a.b@example.org>")
    assert written is not None and written.lf is not None
    assert written.lf == written.data.replace(b"\r\n", b"\n")
    assert b"\r" not in written.lf
