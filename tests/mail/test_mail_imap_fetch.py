"""The IMAP source's FETCH completeness check (gm.mail.imap._FetchCommand): the same answers
as aioimaplib's own, line by line, reading each line once."""

from __future__ import annotations

import asyncio
import time

import aioimaplib

from gm.mail.imap import _FetchCommand, _Protocol


def _responses(messages: int) -> list[bytes | bytearray]:
    """The response lines of a UID FETCH of `messages` bodies as aioimaplib collects them: each
    message's line, its literal (a bytearray; parentheses in it count for nothing) and the
    line that closes it; a size-only line between them."""
    lines: list[bytes | bytearray] = []
    for n in range(1, messages + 1):
        lines.append(b"%d FETCH (UID %d RFC822.SIZE 30 BODY[] {30}" % (n, 100 + n))
        lines.append(bytearray(b"Subject: (unbalanced\r\n\r\n)) (\r\n"))
        lines.append(b" INTERNALDATE \"08-Dec-2026 00:00:00 +0000\")")
        lines.append(b"%d FETCH (UID %d RFC822.SIZE 12)" % (n + 1000, 2000 + n))
    return lines


async def _answers(kind: type[aioimaplib.FetchCommand],
                   lines: list[bytes | bytearray]) -> list[bool]:
    command = kind("A1", "1:*", "(BODY.PEEK[])", prefix="UID",
                   loop=asyncio.get_running_loop())
    answers = []
    for line in lines:
        command.append_to_resp(line)
        answers.append(command.wait_data())
    command._timer.cancel()
    return answers


async def test_answers_as_aioimaplib_does_after_every_line() -> None:
    lines = _responses(30)
    ours = await _answers(_FetchCommand, lines)
    assert ours == await _answers(aioimaplib.FetchCommand, lines)
    assert True in ours and False in ours  # incomplete messages were told as such


async def test_a_message_cut_inside_its_parentheses_waits_for_the_rest() -> None:
    lines: list[bytes | bytearray] = [b"1 FETCH (UID 7 RFC822.SIZE 3 BODY[] {3}",
                                      bytearray(b"abc")]
    assert await _answers(_FetchCommand, lines) == [True, True]
    assert (await _answers(_FetchCommand, [*lines, b")"]))[-1] is False


async def test_a_large_fetch_is_read_in_time_linear_in_its_lines() -> None:
    """500 messages' lines (a batch of sizes is as many) are checked in well under the
    library's time: each line is looked at once, not once for every line after it."""
    lines = _responses(500)
    started = time.process_time()
    await _answers(_FetchCommand, lines)
    ours = time.process_time() - started
    started = time.process_time()
    await _answers(aioimaplib.FetchCommand, lines)
    theirs = time.process_time() - started
    assert ours * 5 < theirs


async def test_the_source_fetches_with_it() -> None:
    protocol = _Protocol(asyncio.get_running_loop(), None)
    sent: list[aioimaplib.Command] = []

    async def execute(command: aioimaplib.Command) -> None:
        sent.append(command)

    protocol.execute = execute
    await protocol.fetch("1:5", "(UID RFC822.SIZE)", by_uid=True)
    assert [type(c) for c in sent] == [_FetchCommand]
    assert str(sent[0]).startswith(f"{sent[0].tag} UID FETCH 1:5")
    sent[0]._timer.cancel()
