"""gm.mail.attached: the JSON files of a message as decode_message parsed it, by type or by
name, in order, and never the message's text."""

from __future__ import annotations

from email.message import EmailMessage

from gm.mail.attached import json_files
from gm.mail.decode import decode_message


def _message() -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "judge@example.org", "files"
    msg["Message-ID"] = "<m1@example.org>"
    msg.set_content("IMPORT REPLAY")
    msg.add_alternative("<p>IMPORT REPLAY</p>", subtype="html")
    return msg


def test_json_files_by_type_or_name_in_order() -> None:
    msg = _message()
    msg.add_attachment(b'{"a": 1}', maintype="application", subtype="json", filename="x.txt")
    msg.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="board.png")
    msg.add_attachment('{"b": 2}\n', subtype="plain", filename="Game.JSONL")
    msg.add_attachment(b'{"c": 3}', maintype="application", subtype="octet-stream",
                       filename="c.json")
    decoded = decode_message(bytes(msg))
    assert decoded.text.strip() == "IMPORT REPLAY"
    found = json_files(decoded.parsed)
    assert [(f.content_type, f.filename, f.data) for f in found] == [
        ("application/json", "x.txt", b'{"a": 1}'),
        ("text/plain", "Game.JSONL", b'{"b": 2}\n'),
        ("application/octet-stream", "c.json", b'{"c": 3}')]


def test_no_json_files_in_plain_mail_or_a_message_not_read_whole() -> None:
    msg = _message()
    assert json_files(decode_message(bytes(msg)).parsed) == ()
    msg.add_attachment(b'{"a": 1}', maintype="application", subtype="json", filename="g.json")
    too_large = decode_message(bytes(msg), max_bytes=100)
    assert too_large.too_large and json_files(too_large.parsed) == ()
