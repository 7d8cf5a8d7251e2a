"""A Maildir outbox's batch (marked sent together) is written a few messages at a time
(gm.service.sender.TOGETHER) and made durable with one sync of new/ for each few, not one a
message: each file is synced before it is renamed into new/ (the few written, then synced,
then renamed), new/ once after the last of the few, and only then is the batch marked sent.
A message sent alone still has new/ synced before `send` returns. The pictures a batch's
reports carry are stored drawn in the same transaction as its marks."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select

from gm.mail.compose import compose_message, make_address, new_message_id
from gm.mail.maildir import MaildirSink
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.sender import TOGETHER, drain_outbox
from gm.service.tick import tick
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.models import OutboundFile
from gm.store.statuses import OutboundStatus
from tests.support.service_support import START, maildir_config, message
from tests.support.tick_support import new_game, spring_orders, submit, with_settings

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(hours=48)
SENDERS = [f"player{n}@example.org" for n in range(TOGETHER + 2)]


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


async def test_a_batch_has_new_synced_once_a_few_before_it_is_marked(
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
    # each few: every file synced, then each renamed into new/, then new/ synced
    assert events == ["file"] * TOGETHER + ["rename"] * TOGETHER + ["dir"] + [
        "file"] * 2 + ["rename"] * 2 + ["dir", "mark"]
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


async def test_a_batchs_pictures_are_stored_drawn_with_its_marks(
        database: Database, tmp_path: Path) -> None:
    """The PNGs a batch's reports carry are drawn once and stored (for the next senders) in
    the transaction that marks the batch sent: a claim and one more, not one more a picture."""
    config = maildir_config(tmp_path)
    for name in ("first", "second"):
        game = new_game(database, name, opened=T0, deadline=DEADLINE,
                        settings=with_settings(early=False))
        submit(database, game, spring_orders(), T0 + timedelta(hours=1))
    tick(database, config=config, clock=FixedClock(DEADLINE))
    with database.read() as s:
        assert s.scalar(select(func.count()).select_from(OutboundFile).where(
            OutboundFile.svg.is_not(None))) == 4  # two pictures a game, queued undrawn
    commits: list[int] = []
    listener = partial(_count, commits)
    event.listen(database.engine, "commit", listener)
    assert config.maildir is not None
    try:
        sent = await drain_outbox(database, MaildirSink(config.maildir.outbox), config=config,
                                  clock=FixedClock(DEADLINE), batch=50)
    finally:
        event.remove(database.engine, "commit", listener)
    assert sent == 16
    assert len(commits) == 2  # the claim; the marks with the pictures drawn
    with database.read() as s:
        files = s.execute(select(OutboundFile.data, OutboundFile.svg)).all()
        assert [data[:8] for data, svg in files if not data.startswith(b"BEGIN:VCALENDAR")
                ] == [b"\x89PNG\r\n\x1a\n"] * 4
        assert all(svg is None for _, svg in files)
        assert {r.status for r in outbound_repo.list_outbound(s, limit=100)} == {
            OutboundStatus.SENT}


def _count(commits: list[int], *_: Any) -> None:
    commits.append(1)


async def test_a_file_that_cannot_be_written_is_retried_and_the_rest_marked(
        database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(START)
    for sender in SENDERS:
        ingest(database, message(sender, "HELP"), config=config, clock=clock)
    assert config.maildir is not None
    outbox = config.maildir.outbox
    with database.read() as s:
        queued = outbound_repo.list_outbound(s)
    blocked = queued[2]  # its file's place in tmp/ taken by a directory: it cannot be written
    name = "gm." + hashlib.sha256(blocked.message_id.encode()).hexdigest()[:40]
    (outbox / "tmp" / name).mkdir(parents=True)
    (outbox / "new").mkdir()
    (outbox / "cur").mkdir()
    sent = await drain_outbox(database, MaildirSink(outbox), config=config, clock=clock,
                              batch=10)
    assert sent == len(SENDERS) - 1
    with database.read() as s:
        after = {r.id: r for r in outbound_repo.list_outbound(s)}
    assert [after[r.id].status for r in queued] == [
        OutboundStatus.QUEUED if r.id == blocked.id else OutboundStatus.SENT for r in queued]
    assert after[blocked.id].last_error is not None
    assert "cannot write to Maildir" in after[blocked.id].last_error
    assert len(os.listdir(outbox / "new")) == len(SENDERS) - 1
    (outbox / "tmp" / name).rmdir()  # the next attempt writes it
    clock.advance(timedelta(hours=1))
    assert await drain_outbox(database, MaildirSink(outbox), config=config, clock=clock,
                              batch=10) == 1
    assert len(os.listdir(outbox / "new")) == len(SENDERS)
