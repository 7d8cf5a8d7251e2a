"""The LMTP source: a mail server's deliveries answered 250 only once they are processed,
spoken to by real clients (the standard library's LMTP client, and a raw conversation for
what that client does not do: several recipients)."""

from __future__ import annotations

import asyncio
import smtplib
import socket
from pathlib import Path

import pytest

from gm.config import LmtpConfig
from gm.mail.lmtp import LmtpSource
from gm.mail.transport import InboundMail
from tests.support.service_support import GM, SERVICE, message


def _deliver(path: Path, raw: bytes, recipients: tuple[str, ...] = (SERVICE,)) -> dict:
    """Deliver as a mail server does (lines end in CRLF on the wire); what the server refused,
    by recipient."""
    with smtplib.LMTP(str(path)) as client:
        return client.sendmail(GM, list(recipients), raw.replace(b"\n", b"\r\n"))


async def _next(source: LmtpSource) -> InboundMail:
    async def first() -> InboundMail:
        async for mail in source:
            return mail
        raise AssertionError("the source ended")

    return await asyncio.wait_for(first(), 10)


async def test_a_delivery_is_answered_once_marked_processed(tmp_path: Path) -> None:
    source = LmtpSource(LmtpConfig(path=tmp_path / "lmtp.sock"), max_bytes=100_000)
    await source.start()
    raw = message(GM, "HELP", message_id="<lmtp-1@example.org>")
    delivery = asyncio.create_task(asyncio.to_thread(_deliver, tmp_path / "lmtp.sock", raw))
    mail = await _next(source)
    assert mail.raw.replace(b"\r\n", b"\n").rstrip() == raw.replace(b"\r\n", b"\n").rstrip()
    await asyncio.sleep(0.3)
    assert not delivery.done()  # not answered before the caller committed it
    await source.mark_processed(mail.id)
    assert await asyncio.wait_for(delivery, 10) == {}
    await source.close()
    assert not (tmp_path / "lmtp.sock").exists()


async def test_a_delivery_not_processed_is_refused_for_now_and_comes_again(
        tmp_path: Path) -> None:
    """The service stops before the message committed: the mail server is told to deliver it
    again (4xx), and the message delivered again has the same id (kept once)."""
    path = tmp_path / "lmtp.sock"
    raw = message(GM, "HELP", message_id="<lmtp-2@example.org>")
    source = LmtpSource(LmtpConfig(path=path), max_bytes=100_000)
    await source.start()
    delivery = asyncio.create_task(asyncio.to_thread(_deliver, path, raw))
    first = await _next(source)
    await source.close()
    with pytest.raises(smtplib.SMTPDataError) as refused:
        await asyncio.wait_for(delivery, 10)
    assert 400 <= refused.value.smtp_code < 500

    again = LmtpSource(LmtpConfig(path=path), max_bytes=100_000)
    await again.start()
    delivery = asyncio.create_task(asyncio.to_thread(_deliver, path, raw))
    second = await _next(again)
    assert second.id == first.id
    await again.mark_processed(second.id)
    assert await asyncio.wait_for(delivery, 10) == {}
    await again.close()


async def test_a_delivery_waiting_too_long_is_told_to_come_again(tmp_path: Path) -> None:
    path = tmp_path / "lmtp.sock"
    source = LmtpSource(LmtpConfig(path=path), max_bytes=100_000)
    source.answer_within = 0.3
    await source.start()
    delivery = asyncio.create_task(asyncio.to_thread(
        _deliver, path, message(GM, "HELP", message_id="<lmtp-3@example.org>")))
    await _next(source)  # taken, never marked (its transaction failed)
    with pytest.raises(smtplib.SMTPDataError) as refused:
        await asyncio.wait_for(delivery, 10)
    assert refused.value.smtp_code == 451
    await source.close()


def _converse(path: Path, lines: list[bytes], answers: int) -> list[str]:
    """Speak LMTP (pipelined); the server's last reply lines of each command, after the
    greeting (continuation lines "250-..." left out)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        reader = sock.makefile("rb")
        reader.readline()  # greeting
        for line in lines:
            sock.sendall(line)
        replies: list[str] = []
        while len(replies) < answers:
            reply = reader.readline().decode().rstrip()
            if not reply:
                break
            if reply[3:4] != "-":
                replies.append(reply)
        return replies


async def test_several_recipients_get_an_answer_each_and_the_message_is_kept_once(
        tmp_path: Path) -> None:
    path = tmp_path / "lmtp.sock"
    source = LmtpSource(LmtpConfig(path=path), max_bytes=100_000)
    await source.start()
    body = message(GM, "HELP", message_id="<lmtp-4@example.org>").replace(b"\n", b"\r\n")
    lines = [b"LHLO mx.example.org\r\n", b"MAIL FROM:<master@example.org>\r\n",
             b"RCPT TO:<judge@example.org>\r\n", b"RCPT TO:<gm@example.org>\r\n",
             b"DATA\r\n", body.rstrip(b"\r\n") + b"\r\n.\r\n", b"QUIT\r\n"]

    async def mark_when_taken() -> None:
        mail = await _next(source)
        await source.mark_processed(mail.id)

    marking = asyncio.create_task(mark_when_taken())
    replies = await asyncio.to_thread(_converse, path, lines, 7)
    await marking
    # LHLO's last line, MAIL, two RCPTs, DATA's 354, then one answer per recipient
    assert replies[-2:] == ["250 2.0.0 stored", "250 2.0.0 stored"]
    assert source.buffered == 0
    await source.close()


async def test_an_oversized_message_is_kept_cut_short_and_a_huge_one_refused(
        tmp_path: Path) -> None:
    path = tmp_path / "lmtp.sock"
    source = LmtpSource(LmtpConfig(path=path), max_bytes=2_000)
    await source.start()
    big = message(GM, "HELP\n" + ("x" * 70 + "\n") * 45, message_id="<lmtp-5@example.org>")
    delivery = asyncio.create_task(asyncio.to_thread(_deliver, path, big))
    mail = await _next(source)
    assert mail.truncated and len(mail.raw) == 2_001 and mail.size >= len(big)
    await source.mark_processed(mail.id)
    assert await asyncio.wait_for(delivery, 10) == {}
    huge = message(GM, "HELP\n" + ("x" * 70 + "\n") * 130, message_id="<lmtp-6@example.org>")
    with pytest.raises(smtplib.SMTPException) as refused:
        await asyncio.to_thread(_deliver, path, huge)
    assert "552" in str(refused.value)
    await source.close()


async def test_a_second_listener_on_the_same_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lmtp.sock"
    source = LmtpSource(LmtpConfig(path=path))
    await source.start()
    other = LmtpSource(LmtpConfig(path=path))
    with pytest.raises(Exception, match="another service listens"):
        await other.start()
    await source.close()
    stale = LmtpSource(LmtpConfig(path=path))  # a socket file left behind is taken over
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    sock.close()
    await stale.start()
    await stale.close()
