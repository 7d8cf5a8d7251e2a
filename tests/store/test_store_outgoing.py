"""The one outgoing-message type (gm.store.outgoing): its automatic headers, set in one place,
and how it is queued."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gm.store import outbound, outgoing
from gm.store.db import Database
from gm.store.errors import StoreError
from gm.store.outgoing import Answered, Outgoing
from gm.store.rows import BodyPart

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_a_notice_is_auto_generated_with_its_text_and_html() -> None:
    notice = Outgoing(("p@example.org",), "[g] results", "text", 7, html="<p>html</p>")
    assert notice.headers == [("Subject", "[g] results"), ("Auto-Submitted", "auto-generated")]
    assert notice.parts == [BodyPart("text/plain", "text"), BodyPart("text/html", "<p>html</p>")]
    assert Outgoing(("p@example.org",), "s", "text").parts == [BodyPart("text/plain", "text")]


def test_an_answer_is_auto_replied_and_threaded() -> None:
    answer = Outgoing(("p@example.org",), "Re: orders", "ok",
                      answers=Answered("<a@x>", ("<0@x>",)))
    assert answer.headers == [("Subject", "Re: orders"), ("Auto-Submitted", "auto-replied"),
                              ("In-Reply-To", "<a@x>"), ("References", "<0@x> <a@x>")]
    unthreaded = Outgoing(("p@example.org",), "Re: orders", "ok", answers=Answered(None))
    assert unthreaded.headers == [("Subject", "Re: orders"), ("Auto-Submitted", "auto-replied")]


def test_queued_with_its_headers_once_per_message_id(database: Database) -> None:
    notice = Outgoing(("p@example.org",), "reminder", "orders due", message_id="<r.1@x>")
    with database.transaction() as s:
        assert outgoing.queue_once(s, notice, now=NOW)
        assert not outgoing.queue_once(s, notice, now=NOW)  # the same Message-ID: queued once
        outgoing.queue(s, [Outgoing(("q@example.org",), "report", "body", html="<b>b</b>",
                                    message_id="<r.2@x>")], now=NOW)
    with database.read() as s:
        first, second = outbound.list_outbound(s)
    assert (first.message_id, second.message_id) == ("<r.1@x>", "<r.2@x>")
    assert first.headers == (("Subject", "reminder"), ("Auto-Submitted", "auto-generated"))
    assert first.parts == (BodyPart("text/plain", "orders due"),)
    assert second.recipients == ("q@example.org",)
    assert [p.content_type for p in second.parts] == ["text/plain", "text/html"]


def test_a_message_without_its_message_id_is_refused(database: Database) -> None:
    with database.transaction() as s, pytest.raises(StoreError, match="no Message-ID"):
        outgoing.queue(s, [Outgoing(("p@example.org",), "s", "b")], now=NOW)
