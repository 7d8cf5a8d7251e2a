"""A Maildir outbox's batch (marked sent together) is made durable with one sync of new/, not
one a message: each file is synced before it is renamed into new/, new/ once after the last
of them, and only then is the batch marked sent. A message sent alone still has new/ synced
before `send` returns."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from gm.mail.compose import compose_message, make_address, new_message_id
from gm.mail.maildir import MaildirSink
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.sender import drain_outbox
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import OutboundStatus
from tests.support.service_support import START, maildir_config, message

SENDERS = [f"player{n}@example.org" for n in range(5)]


def _recording(monkeypatch: pytest.MonkeyPatch, events: list[str]) -> None:
    """Record each fsync (of a file, or of a directory) and each rename into new/."""
    fsync: Callable[[int], None] = os.fsync
    rename: Callable[..., None] = os.rename

    def synced(fd: int) -> None:
        events.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        fsync(fd)

    def renamed(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
        rename(source, target, *args, **kwargs)
        if os.path.basename(os.path.dirname(target)) == "new":
            events.append("rename")

    monkeypatch.setattr(os, "fsync", synced)
    monkeypatch.setattr(os, "rename", renamed)


async def test_a_batch_has_new_synced_once_before_it_is_marked(
        database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    for sender in SENDERS:
        ingest(database, message(sender, "HELP"), config=config, clock=clock)
    assert config.maildir is not None
    events: list[str] = []

    def marking(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE OUTBOUND_MESSAGES") and (
                "sent_at" in statement):
            events.append("mark")

    event.listen(database.engine, "before_cursor_execute", marking)
    _recording(monkeypatch, events)
    try:
        sent = await drain_outbox(database, MaildirSink(config.maildir.outbox), config=config,
                                  clock=clock, batch=10)
    finally:
        event.remove(database.engine, "before_cursor_execute", marking)
    assert sent == len(SENDERS)
    assert events == ["file", "rename"] * len(SENDERS) + ["dir", "mark"]
    with database.read() as s:
        assert [r.status for r in outbound_repo.list_outbound(s)] == [
            OutboundStatus.SENT] * len(SENDERS)
    assert len(os.listdir(config.maildir.outbox / "new")) == len(SENDERS)


async def test_a_message_sent_alone_has_new_synced_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    _recording(monkeypatch, events)
    sink = MaildirSink(tmp_path / "outbox")
    for n in range(2):
        await sink.send(compose_message(
            sender=make_address("gm@example.org"), to=[make_address(f"p{n}@example.org")],
            subject="Report", body="text\n", message_id=new_message_id("example.org")))
    assert events == ["file", "rename", "dir"] * 2
    await sink.sync()  # nothing left unsynced: no sync
    assert events == ["file", "rename", "dir"] * 2
