"""A report's copies are written from its first: the same bytes as each composed whole."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

from gm.mail.compose import to_raw
from gm.mail.maildir import MaildirSink
from gm.mail.transport import RawMessage
from gm.service.sender import compose
from gm.service.shared_compose import SharedComposer
from gm.store.rows import Attachment, BodyPart, OutboundRecord
from gm.store.statuses import OutboundStatus
from tests.support.service_support import maildir_config

_BOUNDARY = re.compile(rb"=_gm_[0-9a-f]{32}")
RECIPIENTS = tuple(f"a.rather.long.address.{n}@players.example.org" for n in range(4))
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


def _ics(power: str) -> bytes:
    return ("BEGIN:VCALENDAR\r\nMETHOD:PUBLISH\r\nBEGIN:VEVENT\r\n"
            f"SUMMARY:{power}: orders due\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode()


def _report(number: int, recipients: tuple[str, ...], text: str = "Spring 1901 results\n",
            power: str = "France", html: str = '<p>Résultats</p><img src="cid:orders.png@gm">'
            ) -> OutboundRecord:
    return OutboundRecord(
        id=number, message_id=f"<report{number}@example.org>", recipients=recipients,
        headers=(("Subject", "Game élan: Spring 1901 adjudicated"),),
        parts=(BodyPart("text/plain", text), BodyPart("text/html", html)),
        attachments=(Attachment("deadline.ics", "text/calendar", _ics(power)),
                     Attachment("orders.png", "image/png", PNG),
                     Attachment("orders.svg", "image/svg+xml", b"<svg/>")),
        status=OutboundStatus.QUEUED, attempts=0, next_attempt_at=None, last_error=None,
        created_at=datetime(2026, 3, 5, 12, 0, tzinfo=UTC), sent_at=None, game_id=1,
        inbound_id=None)


def test_copies_read_as_messages_composed_whole(tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    first = compose(_report(1, ("france@example.org",)), config, shared)
    second = compose(_report(2, RECIPIENTS, power="England"), config, shared)
    assert shared.composed == 1  # the second was written from the first
    assert isinstance(first, RawMessage) and isinstance(second, RawMessage)
    assert second.recipients == RECIPIENTS
    assert second.message_id == "<report2@example.org>"
    whole = compose(_report(2, RECIPIENTS, power="England"), config)
    assert not isinstance(whole, RawMessage)
    expected = to_raw(whole).data
    assert b"\r\n " in expected.partition(b"\r\n\r\n")[0]  # a folded To header
    assert _BOUNDARY.sub(b"B", second.data) == _BOUNDARY.sub(b"B", expected)
    read = message_from_bytes(second.data, policy=policy.default)
    assert [a.addr_spec for a in read["To"].addresses] == list(RECIPIENTS)
    assert read["Message-ID"] == "<report2@example.org>"
    png = [p for p in read.walk() if p.get_content_type() == "image/png"]
    assert png and png[0].get_content() == PNG
    (ics,) = [p for p in read.walk() if p.get_content_type() == "text/calendar"]
    assert "England: orders due" in ics.get_content()
    assert b"France: orders due" in first.data and b"France" not in second.data


def test_other_content_is_composed_anew(tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    compose(_report(1, ("france@example.org",)), config, shared)
    other = compose(_report(2, ("england@example.org",), text="Fall 1901 results\n"), config,
                    shared)
    assert shared.composed == 2
    assert isinstance(other, RawMessage) and b"Fall 1901 results" in other.data
    assert b"Spring 1901 results" not in other.data


def test_the_gms_copy_is_written_from_the_players_with_its_own_html(tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    html = ("<p>Résultats de la saison, assez longs pour que la ligne soit coupée en quoted-"
            "printable</p><img src=\"cid:orders.png@gm\">\n")
    gm_html = html + ("<p>GM: the players got this report; in yours the press above names "
                      "every sender, also of grey press.</p>\n")
    compose(_report(1, ("france@example.org",), html=html), config, shared)
    gm = compose(_report(2, ("gm@example.org",), power="GM", html=gm_html), config, shared)
    assert shared.composed == 1  # written from the players' copy
    whole = compose(_report(2, ("gm@example.org",), power="GM", html=gm_html), config)
    assert isinstance(gm, RawMessage) and not isinstance(whole, RawMessage)
    assert _BOUNDARY.sub(b"B", gm.data) == _BOUNDARY.sub(b"B", to_raw(whole).data)
    read = message_from_bytes(gm.data, policy=policy.default)
    (part,) = [p for p in read.walk() if p.get_content_type() == "text/html"]
    assert "GM: the players got this report" in part.get_content()
    again = compose(_report(3, ("england@example.org",), power="England", html=html), config,
                    shared)
    assert shared.composed == 1 and b"GM: the players" not in again.data


def test_an_html_written_otherwise_is_composed_anew(tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    html = '<p>Results</p><img src="cid:orders.png@gm">\n'  # 7bit
    gm_html = html + "<p>GM: the players got this report; in yours the press names its sé" \
                     "nders, every one of them, also of grey press.</p>\n"  # quoted-printable
    compose(_report(1, ("france@example.org",), html=html), config, shared)
    gm = compose(_report(2, ("gm@example.org",), power="GM", html=gm_html), config, shared)
    assert shared.composed == 2
    whole = compose(_report(2, ("gm@example.org",), power="GM", html=gm_html), config)
    assert not isinstance(whole, RawMessage)
    assert _BOUNDARY.sub(b"B", gm.data) == _BOUNDARY.sub(b"B", to_raw(whole).data)


async def test_copies_are_stored_as_their_crlf_bytes_would_be(tmp_path: Path) -> None:
    """A copy written from the kept bytes carries its LF form (made from the kept parts'):
    the same bytes as its CRLF data converted whole, and a Maildir stores exactly those."""
    config = maildir_config(tmp_path)
    shared = SharedComposer()
    html = ("<p>Résultats de la saison, assez longs pour que la ligne soit coupée en quoted-"
            "printable</p><img src=\"cid:orders.png@gm\">\n")
    first = compose(_report(1, ("france@example.org",), html=html), config, shared)
    copies = [compose(_report(2, RECIPIENTS, power="England", html=html), config, shared),
              compose(_report(3, ("gm@example.org",), power="GM",
                              html=html + "<p>GM: the players got this report.</p>\n"),
                      config, shared),
              compose(_report(4, ("italy@example.org",), power="Italy", html=html), config,
                      shared)]
    assert shared.composed == 1
    assert isinstance(first, RawMessage) and first.lf is None  # composed whole: none made
    written = [c for c in copies if isinstance(c, RawMessage) and c.lf is not None]
    assert len(written) == 3
    for copy in written:
        assert copy.lf == copy.data.replace(b"\r\n", b"\n")
    assert b"Italy: orders due" in written[2].lf and b"England" not in written[2].lf
    with_lf, without = tmp_path / "with", tmp_path / "without"
    for copy in written:
        await MaildirSink(with_lf).send(copy, envelope_from="gm+b.1@example.org")
        whole = RawMessage(copy.message_id, copy.sender, copy.recipients, copy.data)
        await MaildirSink(without).send(whole, envelope_from="gm+b.1@example.org")
    stored = sorted(os.listdir(with_lf / "new"))
    assert stored == sorted(os.listdir(without / "new")) and len(stored) == 3
    for name in stored:
        data = (with_lf / "new" / name).read_bytes()
        assert data == (without / "new" / name).read_bytes()
        assert data.startswith(b"Return-Path: <gm+b.1@example.org>\n")
        assert b"\r\n" not in data
