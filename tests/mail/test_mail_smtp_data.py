"""A message in SMTP form (CRLF line ends) goes out as it is, its dots stuffed; any other goes
the library's way: through a real SMTP server (aiosmtpd on loopback), each arrives whole."""

from __future__ import annotations

import pytest

from gm.mail.smtp import SmtpSink
from gm.mail.smtp_data import dot_stuffed, in_smtp_form
from gm.mail.transport import RawMessage
from tests.support.fixtures.mailservers import SmtpServer

HEAD = (b"From: gm@example.org\r\nTo: anna@example.org\r\nSubject: dots\r\n"
        b"Message-ID: <dots-1@example.org>\r\n\r\n")
# a lone "." line would end the message early unless stuffed; ".." must arrive as ".."
BODY = b"Orders:\r\n.\r\n.hidden line\r\n..two dots\r\nA Par - Bur\r\n.\r\nend\r\n"


def raw(data: bytes, message_id: str = "<dots-1@example.org>") -> RawMessage:
    return RawMessage(message_id, "gm@example.org", ("anna@example.org",), data)


@pytest.mark.parametrize(("message", "smtp_form"), [
    (b"a\r\nb\r\n", True),
    (b"", True),
    (b"a\nb\r\n", False),  # a lone LF
    (b"a\rb\r\n", False),  # a lone CR
    (b"a\r\n\rb", False),
])
def test_in_smtp_form_only_with_crlf_line_ends(message: bytes, smtp_form: bool) -> None:
    assert in_smtp_form(message) is smtp_form


def test_dot_stuffed_doubles_leading_dots_and_closes() -> None:
    assert dot_stuffed(b".a\r\nb\r\n.\r\n..c") == b"..a\r\nb\r\n..\r\n...c\r\n.\r\n"
    assert dot_stuffed(b"x\r\n") == b"x\r\n.\r\n"


async def test_a_message_in_smtp_form_arrives_whole_with_its_dot_lines(
        smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), envelope_from="gm@example.org")
    report = await sink.send(raw(HEAD + BODY))
    assert report.accepted == ("anna@example.org",)
    [received] = smtp_server.wait_for(1)
    assert received.data.replace(b"\r\n", b"\n") == (HEAD + BODY).replace(b"\r\n", b"\n")
    await sink.close()


async def test_other_line_ends_are_made_crlf_and_arrive_whole(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), envelope_from="gm@example.org", keep_open=True)
    lone_lf = (HEAD + BODY).replace(b"\r\n", b"\n")
    await sink.send(raw(lone_lf, "<dots-2@example.org>"))
    await sink.send(raw(HEAD + BODY))  # the same connection, then the fast way
    first, second = smtp_server.wait_for(2)
    assert first.data.replace(b"\r\n", b"\n") == lone_lf
    assert b"\n.hidden line" in first.data and b"\n..two dots" in first.data
    assert second.data.replace(b"\r\n", b"\n") == lone_lf
    await sink.close()
