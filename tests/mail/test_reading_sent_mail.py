"""The tests' reading of the mail gm sends (tests/support/raw_mail.py) is the email parser's:
a message read by its header first and its body when used gives the same headers, parts,
texts and bytes as message_from_bytes with policy.default."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

from tests.support.raw_mail import LazyMail, head_of, parse_head


def _sent() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Judge <judge@example.org>"
    msg["To"] = "france@example.org"
    msg["Subject"] = "[g] Spring 1901, Movement: results \u00e9t\u00e9"
    msg["In-Reply-To"] = "<orders-1@example.org>"
    msg.set_content("Your orders:\n  A Par - Bur\n" * 20)
    msg.add_alternative("<p>Your orders</p>", subtype="html")
    msg.add_attachment(bytes(range(256)) * 40, maintype="image", subtype="png",
                       filename="spring-1901.png")
    return msg.as_bytes(policy=default.clone(linesep="\r\n"))


def _shape(msg: EmailMessage) -> list[object]:
    return [[(k, str(v)) for k, v in part.items()] + [part.get_content_type(),
                                                      part.get_payload(decode=True)]
            for part in msg.walk()]


def test_the_header_alone_is_the_whole_message_s_header() -> None:
    raw = _sent()
    whole = message_from_bytes(raw, policy=default)
    head = parse_head(raw)
    assert head_of(raw).endswith(b"\r\n\r\n") and b"Your orders" not in head_of(raw)
    assert [(k, str(v)) for k, v in head.items()] == [(k, str(v)) for k, v in whole.items()]
    assert head_of(b"Subject: no body") == b"Subject: no body"
    assert head_of(b"Subject: x\n\nbody\n\nmore") == b"Subject: x\n\n"


def test_a_lazily_read_message_is_the_parsed_message() -> None:
    raw = _sent()
    whole = message_from_bytes(raw, policy=default)
    assert isinstance(whole, EmailMessage)
    lazy = LazyMail(raw)
    assert str(lazy["Subject"]) == str(whole["Subject"]) and lazy["In-Reply-To"]
    assert "_raw" in lazy.__dict__  # the header read, the body not yet
    body = lazy.get_body(preferencelist=("plain",))
    expected = whole.get_body(preferencelist=("plain",))
    assert body is not None and expected is not None
    assert body.get_content() == expected.get_content()  # type: ignore[attr-defined]
    assert "_raw" not in lazy.__dict__
    assert _shape(lazy) == _shape(whole)
    assert [p.get_filename() for p in lazy.walk()] == [p.get_filename() for p in whole.walk()]
    assert lazy.as_bytes() == whole.as_bytes()
    # read in any order: the parts first, then the header
    other = LazyMail(raw)
    assert other.is_multipart() and len(list(other.iter_parts())) == 2
    assert [(k, str(v)) for k, v in other.items()] == [(k, str(v)) for k, v in whole.items()]
