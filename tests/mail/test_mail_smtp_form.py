"""Messages gm writes directly (compose_plain, compose_related) say they are in SMTP form, and
are: every line end CRLF, whatever line ends their text and HTML came with. The SMTP client
takes their word for it (the check costs 0.2 ms for an acknowledgement with its picture) and
looks at any other message itself; the envelope's addresses are written as the library writes
them: through a real SMTP server (aiosmtpd on loopback)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from aiosmtplib.email import quote_address

from gm.mail.compose import Attachment, ReplyTo, compose_plain
from gm.mail.compose_direct import compose_related
from gm.mail.smtp import SmtpSink
from gm.mail.smtp_data import envelope_address, in_smtp_form
from gm.mail.transport import RawMessage
from tests.support.fixtures.mailservers import SmtpServer

PNG = bytes(range(256)) * 40
PICTURE = Attachment("orders.png", "image/png", PNG, "orders.png@picture.gm")
# text as it may come: CRLF, lone CR, lone LF, form feeds and other line breaks of str
TEXTS = ["A Par - Bur\r\nA Mar - Spa\n", "one\rtwo\r\r\nthree\n\n", "x\x0cy\x85z\u2028w\n",
         "no line end", ".\n..\r\n.dot first\n"]
HTMLS = ["<p>A Par - Bur</p>\r\n<img src='cid:orders.png@picture.gm'>\r",
         "<p>" + "long line " * 20 + "</p>\n<img src='cid:orders.png@picture.gm'>\n" * 12,
         "<p>\x0cform\rfeed</p>\n<img src='cid:orders.png@picture.gm'>",
         "<p>\x0cform\rfeed\x85</p>\n<img src='cid:orders.png@picture.gm'>"]
COMMON = dict(sender="judge@example.org", sender_name="Judge", to=["france@example.org"],
              subject="[bench] Re: orders", message_id="<a.b@example.org>",
              reply_to=ReplyTo("<x@example.org>", ["<w@example.org>"]),
              date=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


@pytest.mark.parametrize("text", TEXTS)
def test_a_plain_message_written_directly_is_in_smtp_form(text: str) -> None:
    message = compose_plain(body=text, **COMMON)  # type: ignore[arg-type]
    if message is None:  # not ASCII: left to the email package
        assert not text.isascii() or "\x0c" in text
        return
    assert message.smtp_form
    assert in_smtp_form(message.data)


@pytest.mark.parametrize("html", HTMLS)
@pytest.mark.parametrize("text", TEXTS[:3])
def test_an_acknowledgement_written_directly_is_in_smtp_form(text: str, html: str) -> None:
    message = compose_related(body=text, html=html, pictures=[PICTURE],
                              **COMMON)  # type: ignore[arg-type]
    if message is None:  # left to the email package: nothing said of its form
        assert not (text + html).isascii()
        return
    assert message.smtp_form
    assert in_smtp_form(message.data)


HEAD = (b"From: gm@example.org\r\nTo: anna@example.org\r\nSubject: form\r\n"
        b"Message-ID: <form-1@example.org>\r\n\r\n")


async def test_the_client_looks_only_at_messages_not_said_to_be_in_form(
        smtp_server: SmtpServer) -> None:
    """A message marked in form goes as written (here one whose writer was wrong: its lone LF
    arrives as it was), one not marked is looked at and made CRLF; both on one connection."""
    data = HEAD + b"line one\nline two\r\n"
    sink = SmtpSink(smtp_server.config(), envelope_from="gm@example.org", keep_open=True)
    sender, to = "gm@example.org", ("anna@example.org",)
    await sink.send(RawMessage("<form-1@example.org>", sender, to, data, smtp_form=True))
    await sink.send(RawMessage("<form-2@example.org>", sender, to, data))
    await sink.send(RawMessage("<form-3@example.org>", sender, to, data, smtp_form=True))
    marked, looked_at, marked_again = smtp_server.wait_for(3)
    assert b"line one\nline two\r\n" in marked.data
    assert b"line one\r\nline two\r\n" in looked_at.data
    assert marked_again.data == marked.data
    await sink.close()


@pytest.mark.parametrize("address", [
    "judge@example.org", "judge+b-0a1b2c3d=example.org@example.org", "a.b.c@d-e.f", "x@y",
    *(f"a{c}b@example.org" for c in "!#$%&'*+/=?^_`{|}~-"),
    # not plain: the library's reading
    "Judge <judge@example.org>", '"a b"@example.org', " spaced@example.org ", "a..b@x.org",
    ".a@x.org", "a@x..org", "", "<>", "jüdge@example.org", "a@[127.0.0.1]", "no-at-sign",
])
def test_envelope_addresses_as_aiosmtplib_writes_them(address: str) -> None:
    assert envelope_address(address) == quote_address(address)


async def test_mail_from_and_rcpt_to_reach_the_server(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), envelope_from="judge+b-0a1b=example.org@example.org")
    report = await sink.send(RawMessage("<form-4@example.org>", "gm@example.org",
                                        ("anna@example.org", "Bo <bo@example.org>"),
                                        HEAD + b"hello\r\n", smtp_form=True))
    [received] = smtp_server.wait_for(1)
    assert received.mail_from == "judge+b-0a1b=example.org@example.org"
    assert received.rcpt_tos == ("anna@example.org", "bo@example.org")
    assert report.accepted == ("anna@example.org", "Bo <bo@example.org>")
    await sink.close()
