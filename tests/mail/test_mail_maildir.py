"""The embedded default: a local Maildir inbox (MailSource) and outbox (MailSink)."""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
from pathlib import Path

from gm.mail.compose import build_subject, compose_message, make_address, new_message_id
from gm.mail.maildir import MaildirSink, MaildirSource, ensure_maildir
from gm.mail.transport import Backoff, MailSink, MailSource


def deliver(inbox: Path, name: str, raw: bytes, mtime: float | None = None) -> Path:
    ensure_maildir(inbox)
    tmp = inbox / "tmp" / name
    tmp.write_bytes(raw)
    target = inbox / "new" / name
    os.rename(tmp, target)
    if mtime is not None:
        os.utime(target, (mtime, mtime))
    return target


def message(number: int) -> bytes:
    return f"From: p{number}@example.org\nSubject: m{number}\n\nA Par H\n".encode()


async def collect(source: MaildirSource) -> list[tuple[str, bytes]]:
    return [(mail.id, mail.raw) async for mail in source.pending()]


async def test_pending_in_delivery_order_and_mark_moves_to_cur(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    deliver(inbox, "200.b.host", message(2), mtime=2000)
    deliver(inbox, "100.a.host", message(1), mtime=1000)
    source = MaildirSource(inbox)
    assert isinstance(source, MailSource)
    got = await collect(source)
    assert got == [("100.a.host", message(1)), ("200.b.host", message(2))]
    assert await collect(source) == []  # offered once per run
    await source.mark_processed("100.a.host")
    assert not (inbox / "new" / "100.a.host").exists()
    assert (inbox / "cur" / "100.a.host:2,S").read_bytes() == message(1)
    # a restart offers what was not marked, and never what was
    again = MaildirSource(inbox)
    assert [mail_id for mail_id, _ in await collect(again)] == ["200.b.host"]
    await again.mark_processed("200.b.host")
    assert await collect(MaildirSource(inbox)) == []
    await again.mark_processed("200.b.host")  # marking twice is harmless


async def test_size_limit_cuts_and_reports_the_size(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    deliver(inbox, "big", b"From: a@b.c\n\n" + b"x" * 5000)
    [mail] = [m async for m in MaildirSource(inbox, max_bytes=1000).pending()]
    assert len(mail.raw) == 1001 and mail.size == 5013 and mail.truncated


async def test_iteration_polls_for_new_mail(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    ensure_maildir(inbox)
    source = MaildirSource(inbox, poll_interval=0.05, backoff=Backoff(0.01, 0.05))
    received: list[str] = []

    async def run() -> None:
        async for mail in source:
            received.append(mail.id)
            await source.mark_processed(mail.id)

    task = asyncio.create_task(run())
    await asyncio.sleep(0.2)
    deliver(inbox, "1.x.host", message(1))
    deliver(inbox, "2.x.host", message(2))
    for _ in range(100):
        if len(received) == 2:
            break
        await asyncio.sleep(0.02)
    await source.close()
    await asyncio.wait_for(task, 2)
    assert received == ["1.x.host", "2.x.host"]
    assert sorted(os.listdir(inbox / "cur")) == ["1.x.host:2,S", "2.x.host:2,S"]


async def test_unreadable_maildir_backs_off(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    source = MaildirSource(blocker / "inbox", poll_interval=0.05, backoff=Backoff(0.01, 0.02))

    async def run() -> None:
        async for _ in source:
            pass

    task = asyncio.create_task(run())
    for _ in range(100):
        if source.consecutive_failures >= 3:
            break
        await asyncio.sleep(0.02)
    await source.close()
    await asyncio.wait_for(task, 2)
    assert source.consecutive_failures >= 3
    assert source.last_error is not None and "cannot create Maildir" in str(source.last_error)


async def test_outbox_writes_atomically_and_once(tmp_path: Path) -> None:
    outbox = tmp_path / "outbox"
    sink = MaildirSink(outbox)
    assert isinstance(sink, MailSink)
    sent = compose_message(
        sender=make_address("gm@example.org"),
        to=[make_address("anna@example.org")],
        bcc=[make_address("observer@example.org")],
        subject=build_subject("Report", game="alpha"),
        body="Spring 1901 results\n",
        message_id=new_message_id("example.org"),
    )
    report = await sink.send(sent)
    assert report.accepted == ("anna@example.org", "observer@example.org")
    assert report.message_id == sent["Message-ID"]
    files = os.listdir(outbox / "new")
    assert len(files) == 1 and os.listdir(outbox / "tmp") == []
    stored = email.message_from_bytes((outbox / "new" / files[0]).read_bytes(),
                                      policy=email.policy.default)
    assert stored["Message-ID"] == sent["Message-ID"]
    assert stored["Bcc"] is None  # not shown, as an SMTP server would not
    assert sent["Bcc"] is not None  # the caller's message is left alone
    assert stored.get_content() == "Spring 1901 results\n"
    assert stored["Return-Path"] == "<gm@example.org>"  # the envelope sender: its From
    # sending the same message again (a retry after a crash) writes nothing new
    await sink.send(sent)
    assert os.listdir(outbox / "new") == files
    # even after a mail reader moved it to cur/
    os.rename(outbox / "new" / files[0], outbox / "cur" / f"{files[0]}:2,S")
    await sink.send(sent)
    assert os.listdir(outbox / "new") == []


async def test_outbox_heads_each_message_with_its_envelope_sender(tmp_path: Path) -> None:
    outbox = tmp_path / "outbox"
    sent = compose_message(sender=make_address("gm@example.org"),
                           to=[make_address("anna@example.org")], subject="Report",
                           body="text\n", message_id=new_message_id("example.org"))
    await MaildirSink(outbox).send(sent, envelope_from="gm+b.0123456789@example.org")
    (name,) = os.listdir(outbox / "new")
    data = (outbox / "new" / name).read_bytes()
    assert data.startswith(b"Return-Path: <gm+b.0123456789@example.org>\n")  # as an MDA does
    assert email.message_from_bytes(data)["From"] == "gm@example.org"
