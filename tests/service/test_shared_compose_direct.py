"""A report of the simple kind (ASCII headers and text, plain addresses) is written without the
email package: its first copy by gm.mail.compose_direct.compose_report, each later copy from
those bytes with its To and Message-ID written directly (gm.mail.compose.plain_fields). Every
copy is byte for byte the message composed whole by the email package (only the random
boundaries differ), the players', the GM's (its own HTML) and one to many recipients; and
each carries its LF form (a Maildir's), made from the first copy's pieces'."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.headerregistry import Address
from pathlib import Path

import pytest

from gm.mail.compose import (
    ComposeError,
    checked_message_id,
    header_fields,
    make_address,
    plain_fields,
    to_raw,
)
from gm.mail.pieced import PiecedMessage
from gm.mail.transport import RawMessage
from gm.service.sender import compose
from gm.service.shared_compose import SharedComposer
from gm.store.rows import Attachment, BodyPart, OutboundRecord
from gm.store.statuses import OutboundStatus
from tests.support.service_support import maildir_config

_BOUNDARY = re.compile(rb"=_gm_[0-9a-f]{32}")
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
TEXT = "bench1: results of Spring 1901, Movement\n\nA Par - Bur  (succeeds)\n\n-- \ngm\n"
HTML = ('<p>Results of Spring 1901</p>\n<img src="cid:bench1-orders.png@picture.gm" '
        'alt="the orders of Spring 1901, Movement, in the game bench1" width="100%">\n')
GM_HTML = HTML + "<p>GM: the players got this report; in yours the press names its senders.</p>\n"
MANY = tuple(f"player.number.{n}@example.org" for n in range(4))  # a To over 78 characters


def _ics(power: str) -> bytes:
    return ("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\n"
            f"SUMMARY:{power}: orders due\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode()


def _report(number: int, recipients: tuple[str, ...], power: str, html: str = HTML
            ) -> OutboundRecord:
    return OutboundRecord(
        id=number, message_id=f"<report{number}.bench1@example.org>", recipients=recipients,
        headers=(("Subject", "[bench1] Spring 1901, Movement: results"),
                 ("Auto-Submitted", "auto-generated")),
        parts=(BodyPart("text/plain", TEXT), BodyPart("text/html", html)),
        attachments=(Attachment("deadline.ics", "text/calendar", _ics(power)),
                     Attachment("bench1-orders.png", "image/png", PNG),
                     Attachment("bench1-orders.svg", "image/svg+xml", b"<svg/>")),
        status=OutboundStatus.QUEUED, attempts=0, next_attempt_at=None, last_error=None,
        created_at=datetime(2026, 3, 5, 12, 0, tzinfo=UTC), sent_at=None, game_id=1,
        inbound_id=None)


def test_every_copy_is_the_message_composed_whole(tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    records = [_report(1, ("france1@example.org",), "France"),
               _report(2, ("england1@example.org",), "England"),
               _report(3, MANY, "Italy"),
               _report(4, ("gm1@example.org",), "GM", GM_HTML)]
    copies = [compose(r, config, shared) for r in records]
    assert shared.composed == 1  # the first written directly, the others from its bytes
    for record, copy in zip(records, copies, strict=True):
        whole = compose(record, config)  # without a SharedComposer: the email package's
        assert isinstance(copy, RawMessage) and not isinstance(whole, RawMessage)
        assert _BOUNDARY.sub(b"B", copy.data) == _BOUNDARY.sub(b"B", to_raw(whole).data)
        assert copy.recipients == record.recipients
        assert copy.lf is not None  # each carries its LF form, made from the kept ones
        assert copy.lf == copy.data.replace(b"\r\n", b"\n")
    read = message_from_bytes(copies[1].data, policy=policy.default)
    assert read["To"] == "england1@example.org"
    (ics,) = [p for p in read.walk() if p.get_content_type() == "text/calendar"]
    assert "England: orders due" in ics.get_content()
    assert b"\r\n " in copies[2].data.partition(b"\r\n\r\n")[0]  # the long To folded
    (html,) = [p for p in message_from_bytes(copies[3].data, policy=policy.default).walk()
               if p.get_content_type() == "text/html"]
    assert "GM: the players got this report" in html.get_content()


def test_the_copies_hold_the_first_ones_pictures_once(tmp_path: Path) -> None:
    """A later copy is held as pieces of the kept body (gm.mail.pieced): the players' copies
    share the piece with the pictures, not a copy each; the GM's puts its HTML among them."""
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    records = [_report(1, ("france1@example.org",), "France"),
               _report(2, ("england1@example.org",), "England"),
               _report(3, ("italy1@example.org",), "Italy"),
               _report(4, ("gm1@example.org",), "GM", GM_HTML)]
    copies = [compose(r, config, shared) for r in records]
    later = [c for c in copies[1:] if isinstance(c, PiecedMessage)]
    assert len(later) == 3 and shared.composed == 1
    england, italy, gm = (max(c.pieces, key=len) for c in later)
    assert england is italy and len(england) > len(PNG)  # the one piece of both
    assert b"GM: the players got this report" in b"".join(later[2].pieces)
    assert len(gm) > len(PNG) and b"GM: the players" not in b"".join(later[0].pieces)


@pytest.mark.parametrize("to", [
    ("france1@example.org",),
    ("france1@example.org", "second.player@example.org"),
    ("o'brien+diplomacy@mail.example.co.uk",),
])
def test_plain_fields_are_the_email_packages(to: tuple[str, ...]) -> None:
    mid = checked_message_id("<report1.bench1@example.org>")
    addresses = [make_address(a) for a in to]
    plain = plain_fields(addresses, mid)
    assert plain is not None
    assert b"\r\n".join(plain) == header_fields([("To", addresses), ("Message-ID", mid)])


@pytest.mark.parametrize(("to", "message_id"), [
    (MANY, "<a@example.org>"),  # folded
    (("Fran Cois <france1@example.org>",), "<a@example.org>"),  # a display name
    (("france1@example.org",), "<" + "a" * 70 + "@example.org>"),  # a long Message-ID
])
def test_anything_else_is_left_to_the_email_package(to: tuple[str, ...],
                                                    message_id: str) -> None:
    addresses = [make_address(*reversed(a[:-1].split(" <"))) if "<" in a else make_address(a)
                 for a in to]
    assert plain_fields(addresses, message_id) is None


@pytest.mark.parametrize("spec", [
    "france1@example.org", " o'brien+diplomacy@mail.example.co.uk ", "a.b-c_d@x-y.example",
    "UPPER@Example.ORG",
])
def test_a_plain_address_is_the_one_the_header_parser_reads(spec: str) -> None:
    made = make_address(spec, "The GM")
    parsed = Address(display_name="The GM", addr_spec=spec.strip())
    assert made == parsed
    assert (made.username, made.domain, str(made)) == (
        parsed.username, parsed.domain, str(parsed))


@pytest.mark.parametrize("spec", ["a=?b@example.org", "a@b", "a..b@example.org", "@x.org"])
def test_an_address_that_is_not_plain_is_read_by_the_parser_or_refused(spec: str) -> None:
    try:
        made = make_address(spec)
    except ComposeError:
        return
    assert made == Address(addr_spec=spec)
