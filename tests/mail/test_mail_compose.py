"""Composing replies: headers, structure, and no header injection from player text."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

import pytest

from gm.mail.compose import (
    Attachment,
    ComposeError,
    ReplyTo,
    build_subject,
    checked_message_id,
    compose_message,
    flatten,
    header_safe,
    make_address,
    new_message_id,
    to_raw,
)
from gm.mail.decode import decode_message

GM = make_address("gm@example.org", "Diplomacy judge")


def reply(**overrides: object) -> bytes:
    arguments: dict[str, object] = {
        "sender": GM,
        "to": [make_address("anna@example.org", "Anna")],
        "subject": build_subject("Orders received", game="alpha", phase="Spring 1901 Movement"),
        "body": "Your orders:\nA Par - Bur\n",
        "message_id": "<fixed-1@example.org>",
        "reply_to": ReplyTo("<orig@example.org>", ["<older@example.org>"]),
        "date": datetime(2025, 1, 6, 10, 0, tzinfo=UTC),
    }
    arguments.update(overrides)
    return compose_message(**arguments).as_bytes()  # type: ignore[arg-type]


def parsed(raw: bytes) -> email.message.EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, email.message.EmailMessage)
    return message


def test_reply_headers() -> None:
    message = parsed(reply())
    assert message["From"] == "Diplomacy judge <gm@example.org>"
    assert message["To"] == "Anna <anna@example.org>"
    assert message["Subject"] == "[alpha] Spring 1901 Movement: Orders received"
    assert message["Message-ID"] == "<fixed-1@example.org>"
    assert message["In-Reply-To"] == "<orig@example.org>"
    assert message["References"] == "<older@example.org> <orig@example.org>"
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["X-Auto-Response-Suppress"] == "All"
    assert message["Date"] == "Mon, 06 Jan 2025 10:00:00 +0000"
    assert message.get_content_type() == "text/plain"
    assert message.get_content().replace("\r\n", "\n") == "Your orders:\nA Par - Bur\n"
    assert b"\r\n" in reply()  # policy.SMTP line ends


def test_message_id_is_stable_when_given_and_fresh_otherwise() -> None:
    assert parsed(reply())["Message-ID"] == parsed(reply())["Message-ID"]
    first, second = new_message_id("example.org"), new_message_id("example.org")
    assert first != second
    assert first.endswith("@example.org>") and checked_message_id(first) == first
    assert checked_message_id("abc@x") == "<abc@x>"
    for bad in ["", "<a@b>\r\nBcc: x@y", "no-at-sign", "<a b@c>", "<a@b> <c@d>"]:
        with pytest.raises(ComposeError):
            checked_message_id(bad)


def test_subjects() -> None:
    assert build_subject("Orders received") == "Orders received"
    assert build_subject("Report", game="alpha") == "[alpha]: Report"
    assert build_subject("Report", phase="Fall 1901 Retreat") == "Fall 1901 Retreat: Report"
    assert len(build_subject("x" * 1000, game="g" * 1000)) <= 200


@pytest.mark.parametrize("hostile", [
    "alpha\r\nBcc: victim@example.org",
    "alpha\nBcc: victim@example.org",
    "alpha\rBcc: victim@example.org",
    "alpha\x00\x0bBcc: victim@example.org",
    "alpha\u2028Bcc: victim@example.org",
    "alpha\u0085Bcc: victim@example.org",
    "=?utf-8?q?x=0D=0ABcc:_victim@example.org?=",
])
def test_no_header_injection(hostile: str) -> None:
    raw = reply(
        to=[make_address("anna@example.org", hostile)],
        subject=build_subject(hostile, game=hostile, phase=hostile),
        attachments=[Attachment(hostile, "text/plain", b"x")],
        body=hostile,
    )
    message = parsed(raw)
    assert message["Bcc"] is None
    assert [str(a.addr_spec) for a in message["To"].addresses] == ["anna@example.org"]
    header_block = raw.split(b"\r\n\r\n", 1)[0]
    for line in header_block.split(b"\r\n"):
        assert not line.lower().startswith(b"bcc:"), line
    for part in message.walk():
        assert part["Bcc"] is None
        filename = part.get_filename()
        assert filename is None or ("\n" not in filename and "\r" not in filename)


@pytest.mark.parametrize("bad", ["", "anna", "anna@", "@example.org", "a@b@c",
                                 "anna@example.org\r\nBcc: x@y", "anna@example.org, b@c",
                                 "Anna <anna@example.org>", "a b@example.org"])
def test_bad_addresses_are_refused(bad: str) -> None:
    with pytest.raises(ComposeError):
        make_address(bad)


def test_header_safe() -> None:
    assert header_safe("  a\r\n\tb\x00c\u202e  ") == "a b c"
    assert header_safe("x" * 500, 10) == "x" * 10


def test_html_alternative_inline_picture_and_attachment() -> None:
    raw = reply(
        html="<p>Your orders</p><img src='cid:map@gm'>",
        attachments=[Attachment("map.png", "image/png", b"\x89PNG\r\n", content_id="<map@gm>"),
                     Attachment("map.svg", "image/svg+xml", b"<svg/>")],
    )
    message = parsed(raw)
    assert message.get_content_type() == "multipart/mixed"
    types = [p.get_content_type() for p in message.walk()]
    assert types == ["multipart/mixed", "multipart/alternative", "text/plain",
                     "multipart/related", "text/html", "image/png", "image/svg+xml"]
    png = next(p for p in message.walk() if p.get_content_type() == "image/png")
    assert png["Content-ID"] == "<map@gm>"
    assert png.get_content_disposition() == "inline"
    assert png.get_content() == b"\x89PNG\r\n"
    svg = next(p for p in message.walk() if p.get_content_type() == "image/svg+xml")
    assert svg.get_filename() == "map.svg"
    # and our own decoder reads such a reply back as the text part
    decoded = decode_message(raw)
    assert decoded.text == "Your orders:\nA Par - Bur"
    assert decoded.is_automatic  # Auto-Submitted: a robot must not answer it


def test_pictures_are_written_as_the_email_package_reads_and_writes_them() -> None:
    """Attachments are base64 in 76-character lines, every multipart has its own random
    boundary, and `flatten` writes what `as_bytes` writes (faster); `to_raw` is that with CRLF,
    the envelope from the headers and no Bcc."""
    picture = bytes(range(256)) * 300  # 76,800 bytes, every byte value
    message = compose_message(
        sender=GM, to=[make_address("anna@example.org", "Anna")],
        bcc=[make_address("gm-copy@example.org")], subject="results", body="Orders\n",
        html="<img src='cid:map@gm'>", message_id="<pictures@example.org>",
        attachments=[Attachment("map.png", "image/png", picture, content_id="<map@gm>"),
                     Attachment("map.svg", "image/svg+xml", b"<svg/>" * 5000)])
    raw = flatten(message)
    assert raw == message.as_bytes()
    assert flatten(message, "\n") == message.as_bytes(policy=message.policy.clone(linesep="\n"))
    back = parsed(raw)
    png = next(p for p in back.walk() if p.get_content_type() == "image/png")
    assert png.get_content() == picture and png["Content-Transfer-Encoding"] == "base64"
    assert png.get_filename() == "map.png" and png["Content-ID"] == "<map@gm>"
    encoded = png.get_payload().splitlines()
    assert {len(line) for line in encoded[:-1]} == {76} and 0 < len(encoded[-1]) <= 76
    svg = next(p for p in back.walk() if p.get_content_type() == "image/svg+xml")
    assert svg.get_content() == b"<svg/>" * 5000 and svg.get_content_disposition() == "attachment"
    boundaries = [p.get_boundary() for p in back.walk() if p.is_multipart()]
    assert len(boundaries) == 3 and len(set(boundaries)) == 3
    assert all(b is not None and b.startswith("=_gm_") and len(b) == 37 for b in boundaries)
    sent = to_raw(message)
    assert sent is not None
    assert sent.sender == "gm@example.org" and sent.message_id == "<pictures@example.org>"
    assert sent.recipients == ("anna@example.org", "gm-copy@example.org")
    assert b"gm-copy" not in sent.data and parsed(sent.data)["To"] == message["To"]


def test_non_ascii_text_and_names() -> None:
    raw = reply(to=[make_address("zoe@example.org", "Zoë Ölm")], body="Ordres: A Par - Pic ✓\n",
                subject=build_subject("Été 1901", game="partie-été"))
    message = parsed(raw)
    assert message["To"].addresses[0].display_name == "Zoë Ölm"
    assert message["Subject"] == "[partie-été]: Été 1901"
    assert message.get_content().replace("\r\n", "\n") == "Ordres: A Par - Pic ✓\n"
    assert all(byte < 128 for byte in raw.split(b"\r\n\r\n", 1)[0])  # headers encoded


def test_compose_refuses_unusable_input() -> None:
    with pytest.raises(ComposeError):
        reply(to=[])
    with pytest.raises(ComposeError):
        reply(auto_submitted="no")
    with pytest.raises(ComposeError):
        reply(attachments=[Attachment("x", "text/plain\r\nBcc: y", b"")])
    assert parsed(reply(auto_submitted="auto-generated"))["Auto-Submitted"] == "auto-generated"


def _both(**overrides: object) -> tuple[bytes, bytes | None]:
    """The email package's bytes and compose_plain's for the same plain-text message."""
    from gm.mail.compose import ReplyTo, compose_plain

    values: dict[str, object] = {
        "sender": "judge@example.org", "sender_name": "Judge",
        "to": ["england@example.org"], "subject": "[kappa] Re: orders 7",
        "body": "Orders for England, Spring 1901:\n  F Lon - Nth\nUnits without orders: none.\n",
        "message_id": "<18eab.9aaf@example.org>",
        "reply_to": ReplyTo("<orders-7@example.org>", ["<orders-1@example.org>"]),
        "auto_submitted": "auto-replied", "date": datetime(2026, 11, 23, 17, 0, tzinfo=UTC)}
    values.update(overrides)
    from gm.mail.compose import compose_message, make_address

    built = compose_message(
        sender=make_address(str(values["sender"]), str(values["sender_name"])),
        to=[make_address(str(a)) for a in values["to"]],  # type: ignore[attr-defined]
        subject=str(values["subject"]), body=str(values["body"]),
        message_id=str(values["message_id"]), reply_to=values["reply_to"],  # type: ignore[arg-type]
        auto_submitted=str(values["auto_submitted"]), date=values["date"])  # type: ignore[arg-type]
    plain = compose_plain(**values)  # type: ignore[arg-type]
    return built.as_bytes(), None if plain is None else plain.data


@pytest.mark.parametrize("overrides", [
    {},
    {"to": ["a@example.org", "b.c+d@mail.example.co.uk"]},
    {"sender_name": ""},
    {"reply_to": None, "auto_submitted": "auto-generated"},
    {"body": "no newline at the end"},
    {"body": "CRLF\r\nand CR\rlines\n\n.leading dot\n"},
    {"subject": "a subject\twith a tab and a\nnewline"},
])
def test_plain_messages_are_written_as_the_email_package_writes_them(
        overrides: dict[str, object]) -> None:
    built, plain = _both(**overrides)
    assert plain == built


@pytest.mark.parametrize("overrides", [
    {"subject": "Jörg's orders"},  # not ASCII
    {"body": "caf\u00e9\n"},
    {"body": "x" * 79 + "\n"},  # a line the email package encodes (quoted-printable)
    {"subject": "word " * 20},  # a header the email package folds
    {"sender_name": "Judge, Esq."},  # a name that needs quoting
    {"to": ["Someone <a@example.org>"]},  # not a plain addr-spec
    {"to": []},
    {"auto_submitted": "no"},
    {"subject": "=?utf-8?q?injected?= subject"},  # carried encoded (test below)
])
def test_other_messages_are_left_to_the_email_package(overrides: dict[str, object]) -> None:
    assert _plain_only(**overrides) is None


@pytest.mark.parametrize("subject", [
    "Re: =?x-klingon?q?hi?=", "=?utf-8?q?x=0D=0ABcc:_victim@example.org?=",
    "[kappa] Re: =?utf-8?b?!!!?= caf\u00e9 " + "x" * 150])
def test_a_subject_that_reads_as_encoded_words_arrives_as_written(subject: str) -> None:
    raw = reply(subject=build_subject(subject))
    assert parsed(raw)["Subject"] == subject
    assert b"= ?" not in raw and b"\r\nBcc" not in raw


def _plain_only(**overrides: object) -> bytes | None:
    from gm.mail.compose import compose_plain

    values: dict[str, object] = {
        "sender": "judge@example.org", "sender_name": "Judge", "to": ["e@example.org"],
        "subject": "s", "body": "b\n", "message_id": "<1.2@example.org>"}
    values.update(overrides)
    plain = compose_plain(**values)  # type: ignore[arg-type]
    return None if plain is None else plain.data


def test_a_plain_message_keeps_header_injection_out() -> None:
    from gm.mail.compose import ComposeError, compose_plain

    with pytest.raises(ComposeError):
        compose_plain(sender="judge@example.org", sender_name="Judge", to=["e@example.org"],
                      subject="s", body="b", message_id="<x@y>\r\nBcc: victim@example.org")
    raw = compose_plain(sender="judge@example.org", sender_name="Judge",
                        to=["e@example.org"], subject="s\r\nBcc: victim@example.org",
                        body="b", message_id="<1.2@example.org>")
    assert raw is not None
    parsed = email.message_from_bytes(raw.data, policy=email.policy.default)
    assert parsed["Bcc"] is None and "Bcc" in str(parsed["Subject"])
    assert raw.recipients == ("e@example.org",)
