"""An acknowledgement written directly (gm.mail.compose_direct) is byte for byte what the email
package builds (compose_message; only the random boundaries differ): text, HTML in 7-bit or
quoted-printable, and each inline picture; anything else is left to the package (None)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest

from gm.mail.compose import Attachment, ReplyTo, compose_message, make_address, to_raw
from gm.mail.compose_direct import compose_related

PNG = bytes(range(256)) * 40
ORDERS = Attachment("bench-spring-1901-movement-france-orders.png", "image/png", PNG,
                    "bench-spring-1901-movement-france-orders.png@picture.gm")
SMALL = Attachment("a.png", "image/png", PNG[:300], "a.png@picture.gm")
TEXT = ("Orders of France for Spring 1901, Movement:\n  A Par - Bur\n\n-- \n"
        "Judge: send HELP for help.\n")
LONG_HTML = ('<html><body><pre style="font-family:monospace">A Par - Bur</pre>\n'
             + '<p style="margin:10px 0"><img src="cid:bench-spring-1901-movement-france-'
             'orders.png@picture.gm" alt="bench: Spring 1901, the orders of France as they '
             'stand" width="100%"></p>\n' * 12 + "</body></html>")


def _both(body: str, html: str, pictures: list[Attachment],
          to: str = "france@example.org") -> tuple[bytes, bytes | None]:
    common = dict(subject="[bench] Re: orders 2", body=body, message_id="<a.b@example.org>",
                  reply_to=ReplyTo("<x@example.org>", ["<w@example.org>"]),
                  date=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    built = to_raw(compose_message(sender=make_address("judge@example.org", "Judge"),
                                   to=[make_address(to)], html=html, attachments=pictures,
                                   **common)).data  # type: ignore[arg-type]
    direct = compose_related(sender="judge@example.org", sender_name="Judge", to=[to],
                             html=html, pictures=pictures, **common)  # type: ignore[arg-type]
    return _unbounded(built), None if direct is None else _unbounded(direct.data)


def _unbounded(data: bytes) -> bytes:
    found = re.findall(rb"=_gm_[0-9a-f]{32}", data)
    assert len(set(found)) == 2  # the alternative's and the related part's
    return re.sub(rb"=_gm_[0-9a-f]{32}", b"=_gm_BOUNDARY", data)


@pytest.mark.parametrize(("html", "pictures", "encoding"), [
    (LONG_HTML, [ORDERS], b"quoted-printable"),  # lines over 78: quoted-printable
    (LONG_HTML[:400], [ORDERS], b"quoted-printable"),  # ten lines or fewer
    ("<p>Orders</p>\n<img src='cid:a.png@picture.gm'>", [SMALL, ORDERS], b"7bit"),
], ids=["quoted-printable", "quoted-printable, ten lines", "7bit, two pictures"])
def test_written_as_the_email_package_writes_it(html: str, pictures: list[Attachment],
                                                encoding: bytes) -> None:
    built, direct = _both(TEXT, html, pictures)
    assert direct == built
    assert b"Content-Transfer-Encoding: " + encoding in direct
    read = message_from_bytes(direct, policy=default)
    assert isinstance(read, EmailMessage)
    text, shown = (read.get_body((kind,)) for kind in ("plain", "html"))
    assert text is not None and shown is not None
    assert text.get_content().replace("\r\n", "\n") == TEXT
    assert shown.get_content().replace("\r\n", "\n") == html + "\n"
    images = [p for p in read.walk() if p.get_content_type() == "image/png"]
    assert [p.get_content() for p in images] == [p.data for p in pictures]


@pytest.mark.parametrize(("body", "html", "pictures", "to"), [
    (TEXT, "<p>caf\u00e9</p>", [SMALL], "france@example.org"),  # 8-bit HTML
    (TEXT, "<p>" + "\u00e9t\u00e9 " * 60 + "</p>", [SMALL], "france@example.org"),  # base64
    ("caf\u00e9\n", "<p>x</p>", [SMALL], "france@example.org"),  # 8-bit text
    (TEXT, "<p>x</p>", [], "france@example.org"),  # no picture
    (TEXT, "<p>x</p>", [Attachment("a.svg", "image/svg+xml", b"<svg/>")], "france@example.org"),
    (TEXT, "<p>x</p>", [SMALL], "fran\u00e7e@example.org"),  # an address to encode
], ids=["8-bit html", "base64 html", "8-bit text", "no picture", "not inline", "address"])
def test_anything_else_is_left_to_the_email_package(body: str, html: str,
                                                    pictures: list[Attachment],
                                                    to: str) -> None:
    direct = compose_related(sender="judge@example.org", sender_name="Judge", to=[to],
                             subject="s", body=body, html=html, pictures=pictures,
                             message_id="<a.b@example.org>")
    assert direct is None
