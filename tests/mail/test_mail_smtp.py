"""Sending through a real SMTP server (aiosmtpd on loopback): plain, TLS, STARTTLS, AUTH,
refusals and a server that is down for a while."""

from __future__ import annotations

import asyncio
import email
import email.policy
import logging

import pytest

from gm.mail.compose import (
    ReplyTo,
    build_subject,
    compose_message,
    make_address,
    new_message_id,
)
from gm.mail.errors import PermanentSendError, TemporarySendError
from gm.mail.smtp import SmtpSink
from gm.mail.transport import Backoff, MailSink
from tests.support.fixtures.mailservers import SmtpServer

GM = make_address("gm@example.org", "Diplomacy judge")


def outgoing(*to: str, message_id: str | None = None) -> email.message.EmailMessage:
    return compose_message(
        sender=GM,
        to=[make_address(a) for a in (to or ("anna@example.org",))],
        subject=build_subject("Orders received", game="alpha", phase="Spring 1901 Movement"),
        body="A Par - Bur: accepted\n",
        message_id=message_id or new_message_id("example.org"),
        reply_to=ReplyTo("<orig-1@example.org>", ["<older@example.org>"]),
    )


def parse(data: bytes) -> email.message.EmailMessage:
    message = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(message, email.message.EmailMessage)
    return message


async def test_send_plain_on_loopback(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), envelope_from="gm@example.org")
    assert isinstance(sink, MailSink)
    message = outgoing()
    report = await sink.send(message)
    assert report.accepted == ("anna@example.org",)
    assert report.refused == {}
    assert report.message_id == message["Message-ID"]
    [received] = smtp_server.wait_for(1)
    assert received.mail_from == "gm@example.org"
    assert received.rcpt_tos == ("anna@example.org",)
    got = parse(received.data)
    assert got["Message-ID"] == message["Message-ID"]
    assert got["From"] == "Diplomacy judge <gm@example.org>"
    assert got["To"] == "anna@example.org"
    assert got["Subject"] == "[alpha] Spring 1901 Movement: Orders received"
    assert got["Auto-Submitted"] == "auto-replied"
    assert got["In-Reply-To"] == "<orig-1@example.org>"
    assert got["References"] == "<older@example.org> <orig-1@example.org>"
    assert got.get_content().replace("\r\n", "\n") == "A Par - Bur: accepted\n"


async def test_send_over_tls_with_login(smtp_tls_server: SmtpServer,
                                        caplog: pytest.LogCaptureFixture) -> None:
    sink = SmtpSink(smtp_tls_server.config(user="gm", password="smtp-secret"))
    with caplog.at_level(logging.DEBUG):
        await sink.send(outgoing())
    [received] = smtp_tls_server.wait_for(1)
    assert received.login == "gm"
    assert "smtp-secret" not in caplog.text
    assert "smtp-secret" not in repr(sink)


async def test_send_with_starttls_and_login(smtp_starttls_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_starttls_server.config(user="gm", password="smtp-secret"))
    await sink.send(outgoing("a@example.org", "b@example.org"))
    [received] = smtp_starttls_server.wait_for(1)
    assert received.login == "gm"
    assert received.rcpt_tos == ("a@example.org", "b@example.org")


async def test_wrong_password_is_temporary_and_secret_free(
        smtp_tls_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_tls_server.config(user="gm", password="not-the-password"))
    with pytest.raises(TemporarySendError) as caught:
        await sink.send(outgoing())
    assert "refused the login for user 'gm'" in str(caught.value)
    assert "not-the-password" not in str(caught.value)
    assert smtp_tls_server.received == []


async def test_untrusted_certificate_is_temporary(smtp_tls_server: SmtpServer) -> None:
    config = smtp_tls_server.config(user="gm", password="smtp-secret")
    from dataclasses import replace

    sink = SmtpSink(replace(config, ca_file=None))  # the test certificate is not trusted
    with pytest.raises(TemporarySendError, match="cannot connect"):
        await sink.send(outgoing())


async def test_server_down_is_temporary_then_retry_succeeds(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(timeout=5))
    message = outgoing(message_id="<queued-1@example.org>")
    smtp_server.stop()
    with pytest.raises(TemporarySendError) as caught:
        await sink.send(message)
    assert caught.value.temporary
    assert f"127.0.0.1:{smtp_server.port}" in str(caught.value)

    # a drainer retrying with backoff gets through once the server is back
    backoff = Backoff(initial=0.05, maximum=0.2, jitter=0)
    attempts = 0

    async def drain() -> None:
        nonlocal attempts
        while True:
            attempts += 1
            try:
                await sink.send(message)
                return
            except TemporarySendError:
                await asyncio.sleep(backoff.next_delay())

    task = asyncio.create_task(drain())
    async with asyncio.timeout(10):  # two refused attempts, however busy the machine is
        while attempts < 3:
            await asyncio.sleep(0.01)
    assert not task.done()
    smtp_server.start()
    await asyncio.wait_for(task, 5)
    assert attempts >= 3
    [received] = smtp_server.wait_for(1)
    assert parse(received.data)["Message-ID"] == "<queued-1@example.org>"


async def test_recipient_refusals(smtp_server: SmtpServer) -> None:
    smtp_server.handler.rcpt_replies.update({
        "nobody@example.org": "550 5.1.1 No such user",
        "full@example.org": "452 4.2.2 Mailbox full",
    })
    sink = SmtpSink(smtp_server.config())
    with pytest.raises(PermanentSendError) as permanent:
        await sink.send(outgoing("nobody@example.org"))
    assert not permanent.value.temporary
    assert permanent.value.refused["nobody@example.org"].code == 550
    with pytest.raises(TemporarySendError) as temporary:
        await sink.send(outgoing("full@example.org"))
    assert temporary.value.refused["full@example.org"].temporary
    # some accepted, some refused: sent, and the report says who was refused
    report = await sink.send(outgoing("anna@example.org", "nobody@example.org"))
    assert report.accepted == ("anna@example.org",)
    assert str(report.refused["nobody@example.org"]) == "550 5.1.1 No such user"
    [received] = smtp_server.wait_for(1)
    assert received.rcpt_tos == ("anna@example.org",)


async def test_message_refusals(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config())
    smtp_server.handler.data_reply = "554 5.7.1 Message rejected as spam"
    with pytest.raises(PermanentSendError, match="554"):
        await sink.send(outgoing())
    smtp_server.handler.data_reply = "451 4.3.0 Try again later"
    with pytest.raises(TemporarySendError, match="451"):
        await sink.send(outgoing())
    assert smtp_server.received == []


async def test_a_kept_connection_carries_many_messages(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), keep_open=True)
    for n in range(5):
        await sink.send(outgoing(message_id=f"<kept-{n}@example.org>"))
    assert sink.connections == 1
    await sink.close()
    await sink.send(outgoing(message_id="<kept-5@example.org>"))  # a new connection
    await sink.close()
    assert sink.connections == 2
    received = smtp_server.wait_for(6)
    assert [parse(r.data)["Message-ID"] for r in received] == [
        f"<kept-{n}@example.org>" for n in range(6)]


async def test_a_kept_connection_is_checked_after_a_pause_and_replaced_when_dropped(
        smtp_server: SmtpServer) -> None:
    """After `check_after` idle seconds a kept connection answers a NOOP before it carries a
    message; one the server dropped meanwhile (here: the server restarted) is replaced, and the
    message goes at once instead of failing and waiting for a retry."""
    sink = SmtpSink(smtp_server.config(timeout=2), keep_open=True)
    sink.check_after = 0.2
    await sink.send(outgoing(message_id="<first@example.org>"))
    await asyncio.sleep(0.3)
    await sink.send(outgoing(message_id="<still-open@example.org>"))  # NOOP answered: reused
    assert sink.connections == 1
    smtp_server.stop()
    smtp_server.start()
    await asyncio.sleep(0.3)
    await sink.send(outgoing(message_id="<after-restart@example.org>"))
    await sink.close()
    assert sink.connections == 2
    received = smtp_server.wait_for(1)
    assert [parse(r.data)["Message-ID"] for r in received][-1] == "<after-restart@example.org>"


async def test_a_kept_connection_idle_too_long_is_replaced(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), keep_open=True)
    sink.keep_seconds = 0.2
    await sink.send(outgoing(message_id="<one@example.org>"))
    await asyncio.sleep(0.3)
    await sink.send(outgoing(message_id="<two@example.org>"))
    await sink.close()
    assert sink.connections == 2


async def test_a_refusal_ends_the_kept_connection_and_the_next_message_goes(
        smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), keep_open=True)
    await sink.send(outgoing(message_id="<ok-1@example.org>"))
    smtp_server.handler.data_reply = "451 4.3.0 try again later"
    with pytest.raises(TemporarySendError):
        await sink.send(outgoing(message_id="<later@example.org>"))
    smtp_server.handler.data_reply = None
    await sink.send(outgoing(message_id="<ok-2@example.org>"))
    await sink.close()
    assert sink.connections == 2  # the failed connection was not used again
    received = smtp_server.wait_for(2)
    assert [parse(r.data)["Message-ID"] for r in received] == [
        "<ok-1@example.org>", "<ok-2@example.org>"]


async def test_a_kept_connection_to_a_stopped_server_fails_then_recovers(
        smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(timeout=2), keep_open=True)
    await sink.send(outgoing(message_id="<before@example.org>"))
    smtp_server.stop()
    with pytest.raises(TemporarySendError):
        await sink.send(outgoing(message_id="<during@example.org>"))
    smtp_server.start()
    await sink.send(outgoing(message_id="<after@example.org>"))
    await sink.close()
    received = smtp_server.wait_for(2)
    assert [parse(r.data)["Message-ID"] for r in received] == [
        "<before@example.org>", "<after@example.org>"]


async def test_each_message_can_have_its_own_envelope_sender(smtp_server: SmtpServer) -> None:
    sink = SmtpSink(smtp_server.config(), envelope_from="gm@example.org")
    await sink.send(outgoing(), envelope_from="gm+b.0123456789@example.org")
    await sink.send(outgoing())
    first, second = smtp_server.wait_for(2)
    assert first.mail_from == "gm+b.0123456789@example.org"  # bounces name the message
    assert second.mail_from == "gm@example.org"  # none given: the sink's
    assert parse(first.data)["From"] == "Diplomacy judge <gm@example.org>"  # From unchanged
