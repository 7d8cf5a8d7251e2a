"""Bodies stored once (migration 0004): messages queued together that carry the same body parts
name one stored body, a message with a body of its own keeps it; every message is read, and
sent, with its own right body exactly once; upgrading keeps queued mail as it is and
downgrading copies each shared body back into its messages, on SQLite and PostgreSQL."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email.message import Message
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import func, select

from gm.mail.connect import make_sink
from gm.service.clock import FixedClock
from gm.service.sender import drain_outbox
from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import Database, make_engine, open_database
from gm.store.models import OutboundBody, OutboundMessage
from gm.store.rows import Attachment, BodyPart
from gm.store.statuses import OutboundStatus
from tests.support.service_support import maildir_config

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PICTURE = Attachment("demo-fall-1901.svg", "image/svg+xml", b"<svg>fall 1901</svg>")
PLAYERS = ("Austria", "England", "France")


def _report(who: str) -> list[BodyPart]:
    return [BodyPart("text/plain", f"Results for {who}.\n\n-- \ngm\n"),
            BodyPart("text/html", f"<p>Results for {who} &amp; all.</p>\n")]


def _batch() -> list[outbound_repo.NewMessage]:
    """A phase's reports: the players' alike (one body), the GM's and an observer's each their
    own, and a second game's players alike (another body)."""
    out = [outbound_repo.NewMessage(f"<r.{p}@example.org>", [f"{p.lower()}@example.org"],
                                    [("Subject", "results")], _report("the players"),
                                    [PICTURE], game_id=None)
           for p in PLAYERS]
    out.append(outbound_repo.NewMessage("<r.gm@example.org>", ["gm@example.org"],
                                        [("Subject", "results")], _report("the GM"), [PICTURE]))
    out.append(outbound_repo.NewMessage("<r.obs@example.org>", ["obs@example.org"],
                                        [("Subject", "results")], _report("observers")))
    out.extend(outbound_repo.NewMessage(f"<s.{p}@example.org>", [f"{p.lower()}@example.net"],
                                        [("Subject", "results")], _report("game two"))
               for p in PLAYERS[:2])
    return out


def _expected() -> dict[str, list[BodyPart]]:
    return {m.message_id: list(m.parts) for m in _batch()}


def test_a_body_shared_by_messages_is_stored_once(database: Database) -> None:
    with database.transaction() as s:
        outbound_repo.enqueue_many(s, _batch(), now=NOW)
    with database.read() as s:
        # the first game's players share one body, the second game's another; the GM's and the
        # observer's bodies are their own, kept in their messages
        assert s.scalar(select(func.count()).select_from(OutboundBody)) == 2
        own: dict[str, int | None] = dict(s.execute(
            select(OutboundMessage.message_id, OutboundMessage.body_id)).tuples().all())
        assert own["<r.gm@example.org>"] is None and own["<r.obs@example.org>"] is None
        assert len({own[f"<r.{p}@example.org>"] for p in PLAYERS}) == 1
        assert own["<s.Austria@example.org>"] not in (None, own["<r.Austria@example.org>"])
        records = outbound_repo.list_outbound(s)
    assert {r.message_id: list(r.parts) for r in records} == _expected()
    assert all(r.attachments == (PICTURE,) for r in records[:4])


async def test_the_sender_sends_each_message_once_with_its_own_body(database: Database,
                                                                    tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    with database.transaction() as s:
        outbound_repo.enqueue_many(s, _batch(), now=NOW)
    clock = FixedClock(NOW)
    sink = make_sink(config)
    assert await drain_outbox(database, sink, config=config, clock=clock, batch=3) == 7
    assert await drain_outbox(database, sink, config=config, clock=clock) == 0  # not twice
    mails = [email.message_from_bytes(p.read_bytes())
             for p in (config.maildir.outbox / "new").iterdir()]
    assert sorted(m["Message-ID"] for m in mails) == sorted(_expected())
    for mail in mails:
        assert _parts(mail) == [(p.content_type, p.text) for p in _expected()[mail["Message-ID"]]]
    with database.read() as s:
        assert {r.status for r in outbound_repo.list_outbound(s)} == {OutboundStatus.SENT}


def _parts(mail: Message) -> list[tuple[str, str]]:
    """The text parts of a sent mail, decoded, in order."""
    found = []
    for part in mail.walk():
        if part.get_content_maintype() == "text" and not part.get_filename():
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            found.append((part.get_content_type(),
                          payload.decode(part.get_content_charset() or "utf-8")))
    return found


def _raw_parts(url: str) -> dict[str, list[dict[str, str]]]:
    """Each queued message's own `parts` column, as stored."""
    engine = make_engine(url)
    table = sa.table("outbound_messages", sa.column("message_id"),
                     sa.column("parts", sa.JSON()))
    try:
        with engine.connect() as conn:
            return {m: p for m, p in conn.execute(select(table.c.message_id, table.c.parts))}
    finally:
        engine.dispose()


def test_upgrade_keeps_queued_mail_and_downgrade_copies_shared_bodies_back(
        db_url: str) -> None:
    migrate.upgrade(db_url, "0003")
    engine = make_engine(db_url)
    try:  # queued as 0003 stored messages: each with its own parts
        with engine.begin() as conn:
            for m in _batch()[:2]:
                _enqueue_at_0003(conn, m)
    finally:
        engine.dispose()
    before = _raw_parts(db_url)
    migrate.upgrade(db_url, "head")
    db = open_database(db_url)
    try:
        with db.transaction() as s:
            assert s.scalar(select(func.count()).select_from(OutboundBody)) == 0
            assert {r.message_id: list(r.parts) for r in outbound_repo.list_outbound(s)} == {
                m.message_id: list(m.parts) for m in _batch()[:2]}
            outbound_repo.enqueue_many(s, _batch()[2:], now=NOW)  # a shared body and own ones
            assert s.scalar(select(func.count()).select_from(OutboundBody)) == 1
    finally:
        db.dispose()
    assert _raw_parts(db_url)["<s.Austria@example.org>"] == []  # it names the shared body
    migrate.downgrade(db_url, "0003")
    after = _raw_parts(db_url)
    assert {k: after[k] for k in before} == before
    assert after == {m.message_id: [{"content_type": p.content_type, "text": p.text}
                                    for p in m.parts] for m in _batch()}
    migrate.upgrade(db_url, "head")  # and up again: every message as it was, attachments kept
    db = open_database(db_url)
    try:
        with db.read() as s:
            records = outbound_repo.list_outbound(s)
    finally:
        db.dispose()
    assert {r.message_id: list(r.parts) for r in records} == _expected()
    assert [len(r.attachments) for r in records] == [1, 1, 1, 1, 0, 0, 0]


def _enqueue_at_0003(conn: sa.Connection, m: outbound_repo.NewMessage) -> None:
    """Queue `m` (with its attachments) as revision 0003 stored messages."""
    meta = sa.MetaData()
    messages = sa.Table("outbound_messages", meta, autoload_with=conn)
    files = sa.Table("outbound_files", meta, autoload_with=conn)
    attachments = sa.Table("outbound_attachments", meta, autoload_with=conn)
    outbound_id = conn.execute(messages.insert().values(
        message_id=m.message_id, recipients=list(m.recipients),
        headers=[list(h) for h in m.headers],
        parts=[{"content_type": p.content_type, "text": p.text} for p in m.parts],
        status="queued", attempts=0, next_attempt_at=NOW, created_at=NOW)
        .returning(messages.c.id)).scalar_one()
    for i, a in enumerate(m.attachments):
        file_id = conn.execute(files.insert().values(digest="0" * 64, data=a.data)
                               .returning(files.c.id)).scalar_one()
        conn.execute(attachments.insert().values(
            outbound_id=outbound_id, position=i, filename=a.filename,
            content_type=a.content_type, file_id=file_id))
