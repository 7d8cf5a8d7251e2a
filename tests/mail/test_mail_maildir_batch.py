"""A Maildir outbox's batch (MaildirSink.send_all): looked for once, written piece by piece
(gm.mail.pieced), each message once however it is held."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gm.mail.errors import MaildirError
from gm.mail.maildir import MaildirSink
from gm.mail.pieced import PiecedMessage, lf_pieces
from gm.mail.transport import RawMessage


def _raw(number: int) -> RawMessage:
    data = (f"From: gm@example.org\r\nTo: p{number}@example.org\r\n"
            f"Message-ID: <m{number}@example.org>\r\nSubject: r{number}\r\n\r\n"
            f"Spring 1901 results\r\n").encode()
    return RawMessage(f"<m{number}@example.org>", "gm@example.org",
                      (f"p{number}@example.org",), data)


def _pieced(raw: RawMessage) -> PiecedMessage:
    """`raw` held as three pieces of its LF form."""
    lf = raw.data.replace(b"\r\n", b"\n")
    head, _, body = lf.partition(b"\n\n")
    return PiecedMessage(raw.message_id, raw.sender, raw.recipients,
                         pieces=(head, b"\n\n", body), crlf=lambda: bytes(bytearray(raw.data)))


def test_a_pieced_message_reads_as_the_message_it_holds() -> None:
    raw = _raw(1)
    pieced = _pieced(raw)
    assert (pieced.message_id, pieced.sender, pieced.recipients, pieced.data) == (
        raw.message_id, raw.sender, raw.recipients, raw.data)
    assert pieced.data is pieced.data  # made once
    assert pieced.lf == raw.data.replace(b"\r\n", b"\n")
    assert lf_pieces(pieced) == pieced.pieces and b"".join(lf_pieces(raw)) == pieced.lf


async def test_a_batch_stores_pieced_and_whole_messages_alike(tmp_path: Path) -> None:
    pieced, whole = tmp_path / "pieced", tmp_path / "whole"
    messages = [_raw(n) for n in range(4)]
    await MaildirSink(pieced).send_all([(_pieced(m), "gm+b.1@example.org") for m in messages])
    await MaildirSink(whole).send_all([(m, "gm+b.1@example.org") for m in messages])
    names = sorted(os.listdir(pieced / "new"))
    assert names == sorted(os.listdir(whole / "new")) and len(names) == 4
    for name in names:
        data = (pieced / "new" / name).read_bytes()
        assert data == (whole / "new" / name).read_bytes()
        assert data.startswith(b"Return-Path: <gm+b.1@example.org>\nFrom: gm@example.org\n")
    assert os.listdir(pieced / "tmp") == []


async def test_a_batch_writes_nothing_already_in_new_or_cur(tmp_path: Path) -> None:
    """A batch sent again after a crash: a message still in new/ or moved to cur/ by a mail
    reader is not written again; the same message twice in a batch is written once."""
    outbox = tmp_path / "outbox"
    sink = MaildirSink(outbox)
    first = [_raw(1), _raw(2)]
    await sink.send_all([(m, None) for m in first])
    moved, kept = sorted(os.listdir(outbox / "new"))
    os.rename(outbox / "new" / moved, outbox / "cur" / f"{moved}:2,S")
    reports = await sink.send_all([(m, None) for m in [*first, _raw(3), _raw(3)]])
    assert [r.accepted for r in reports] == [  # each reported sent, as the first time
        ("p1@example.org",), ("p2@example.org",), ("p3@example.org",), ("p3@example.org",)]
    assert os.listdir(outbox / "cur") == [f"{moved}:2,S"]
    assert len(os.listdir(outbox / "new")) == 2 and kept in os.listdir(outbox / "new")


async def test_a_short_write_is_carried_on_where_it_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """writev(2) may take less than it is given (a signal, a full pipe): the rest follows."""
    writev = os.writev

    def short(fd: int, buffers: list[memoryview]) -> int:
        return writev(fd, [bytes(b"".join(buffers)[:7])])  # seven bytes at a time

    monkeypatch.setattr(os, "writev", short)
    raw = _raw(5)
    await MaildirSink(tmp_path / "outbox").send(_pieced(raw), envelope_from="gm@example.org")
    (name,) = os.listdir(tmp_path / "outbox" / "new")
    assert (tmp_path / "outbox" / "new" / name).read_bytes() == (
        b"Return-Path: <gm@example.org>\n" + raw.data.replace(b"\r\n", b"\n"))


async def test_a_file_that_cannot_be_synced_is_kept_out_and_the_rest_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file of a batch is synced before any is renamed into new/: one whose sync fails
    (a disk error) is reported so, left out of new/ and tmp/, and the others are written."""
    outbox = tmp_path / "outbox"
    sink = MaildirSink(outbox)
    failing = sink._name(_raw(2))
    fsync = os.fsync

    def sync(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(failing):
            raise OSError(5, "Input/output error")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", sync)
    reports = await sink.send_all([(_raw(n), None) for n in range(1, 4)])
    assert isinstance(reports[1], MaildirError) and "Input/output error" in str(reports[1])
    assert [r.accepted for r in (reports[0], reports[2]) if not isinstance(r, MaildirError)
            ] == [("p1@example.org",), ("p3@example.org",)]
    assert sorted(os.listdir(outbox / "new")) == sorted(
        sink._name(_raw(n)) for n in (1, 3))
    assert os.listdir(outbox / "tmp") == []
