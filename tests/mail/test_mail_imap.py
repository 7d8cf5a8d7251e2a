"""The IMAP poller against a real Dovecot: fetch by UID, mark after commit, IDLE, reconnects,
login failures, TLS and STARTTLS, the processed folder, UIDVALIDITY changes, size limits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator

import pytest

from gm.config import Security
from gm.mail.decode import decode_message
from gm.mail.errors import ImapLoginError, ImapProtocolError
from gm.mail.imap import FETCH_BATCH, PROCESSED_KEYWORD, ImapSource
from gm.mail.transport import Backoff, InboundMail, MailSource
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount

FAST = Backoff(initial=0.05, maximum=0.4, jitter=0)


def message(number: int, size: int = 0) -> bytes:
    padding = "x" * size
    return (f"From: player{number}@example.org\r\nTo: gm@example.org\r\n"
            f"Subject: orders {number}\r\nMessage-ID: <m{number}@example.org>\r\n\r\n"
            f"A Par - Bur\r\n{padding}\r\n").encode()


async def pending(source: ImapSource) -> list[InboundMail]:
    return [mail async for mail in source.pending()]


class Consumer:
    """Iterates a source in the background, as the service loop does."""

    def __init__(self, source: ImapSource, *, mark: bool = True) -> None:
        self.source = source
        self.mark = mark
        self.queue: asyncio.Queue[InboundMail] = asyncio.Queue()
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        async for mail in self.source:
            if self.mark:
                await self.source.mark_processed(mail.id)
            await self.queue.put(mail)

    async def next(self, timeout: float = 10.0) -> InboundMail:
        return await asyncio.wait_for(self.queue.get(), timeout)

    async def stop(self) -> None:
        await self.source.close()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self.task, 5)


@contextlib.asynccontextmanager
async def consuming(source: ImapSource, *, mark: bool = True) -> AsyncIterator[Consumer]:
    consumer = Consumer(source, mark=mark)
    try:
        yield consumer
    finally:
        await consumer.stop()


async def wait_until_idle(source: ImapSource) -> None:
    """Until the source sits in IDLE (its lock is held with no command running)."""
    for _ in range(200):
        if source.idling:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the source never entered IDLE")


async def test_fetches_unprocessed_messages_by_uid(dovecot: DovecotServer,
                                                   imap_account: ImapAccount) -> None:
    for number in (1, 2, 3):
        dovecot.save(imap_account.user, message(number))
    source = ImapSource(imap_account.config(), max_bytes=100_000)
    assert isinstance(source, MailSource)
    mails = await pending(source)
    await source.close()
    assert source.uidvalidity is not None
    assert [m.id for m in mails] == [f"{source.uidvalidity}:{uid}" for uid in (1, 2, 3)]
    assert [m.raw for m in mails] == [message(n) for n in (1, 2, 3)]
    assert [m.size for m in mails] == [len(message(n)) for n in (1, 2, 3)]
    assert decode_message(mails[1].raw).subject == "orders 2"
    # reading does not flag anything (BODY.PEEK)
    assert dovecot.flags(imap_account.user) == {1: set(), 2: set(), 3: set()}


async def test_mark_after_commit(dovecot: DovecotServer, imap_account: ImapAccount) -> None:
    dovecot.save(imap_account.user, message(1))
    dovecot.save(imap_account.user, message(2))
    first = ImapSource(imap_account.config())
    mails = await pending(first)
    assert len(mails) == 2
    await first.mark_processed(mails[0].id)  # the caller committed only the first
    assert await pending(first) == []  # nothing is offered twice on one connection
    await first.close()
    assert dovecot.flags(imap_account.user) == {1: {"\\Seen", PROCESSED_KEYWORD}, 2: set()}
    # after a restart only the unmarked one is offered again
    second = ImapSource(imap_account.config())
    again = await pending(second)
    assert [m.raw for m in again] == [message(2)]
    await second.mark_processed(again[0].id)
    await second.close()
    third = ImapSource(imap_account.config())
    assert await pending(third) == []
    await third.close()


async def test_already_processed_is_never_offered(dovecot: DovecotServer,
                                                  imap_account: ImapAccount) -> None:
    dovecot.save(imap_account.user, message(1))
    dovecot.save(imap_account.user, message(2))
    dovecot.doveadm("flags", "add", "-u", imap_account.user, PROCESSED_KEYWORD,
                    "mailbox", "INBOX", "uid", "1")
    source = ImapSource(imap_account.config())
    assert [m.raw for m in await pending(source)] == [message(2)]
    await source.close()


async def test_unmarked_is_offered_again_after_reconnect(
        dovecot: DovecotServer, imap_account: ImapAccount,
        caplog: pytest.LogCaptureFixture) -> None:
    dovecot.save(imap_account.user, message(1))
    source = ImapSource(imap_account.config(), backoff=FAST)
    async with consuming(source, mark=False) as consumer:
        first = await consumer.next()
        await wait_until_idle(source)
        dovecot.kick(imap_account.user)
        again = await consumer.next()
        assert again.id == first.id and again.raw == first.raw
        assert source.logins == 2
        # now mark it: it is flagged and not offered after the next reconnect
        await source.mark_processed(again.id)
        await wait_until_idle(source)
        dovecot.kick(imap_account.user)
        dovecot.save(imap_account.user, message(2))
        newer = await consumer.next()
        assert newer.raw == message(2)
        assert consumer.queue.empty()
    assert dovecot.flags(imap_account.user)[1] == {"\\Seen", PROCESSED_KEYWORD}
    assert "closed the connection" in caplog.text


async def test_idle_wakes_up_for_new_mail(dovecot: DovecotServer,
                                          imap_account: ImapAccount) -> None:
    # with a poll interval of an hour only IDLE can deliver within seconds
    source = ImapSource(imap_account.config(), poll_interval=3600)
    async with consuming(source) as consumer:
        await wait_until_idle(source)
        assert source.idle_supported
        loop = asyncio.get_running_loop()
        started = loop.time()
        dovecot.save(imap_account.user, message(1))  # a delivery by another process
        assert (await consumer.next(timeout=5)).raw == message(1)
        assert loop.time() - started < 5
        await wait_until_idle(source)
        dovecot.deliver_file(imap_account, message(2))  # straight into the maildir
        assert (await consumer.next(timeout=5)).raw == message(2)
    assert source.logins == 1
    assert dovecot.flags(imap_account.user) == {1: {"\\Seen", PROCESSED_KEYWORD},
                                                2: {"\\Seen", PROCESSED_KEYWORD}}


async def test_polls_when_not_using_idle(dovecot: DovecotServer,
                                         imap_account: ImapAccount) -> None:
    source = ImapSource(imap_account.config(), poll_interval=0.2, use_idle=False)
    async with consuming(source) as consumer:
        await asyncio.sleep(0.3)
        dovecot.save(imap_account.user, message(1))
        assert (await consumer.next(timeout=5)).raw == message(1)
        assert source.connected and not source.idling


async def test_reconnects_after_the_server_restarts(dovecot: DovecotServer,
                                                    imap_account: ImapAccount) -> None:
    source = ImapSource(imap_account.config(), backoff=FAST, timeout=5)
    async with consuming(source) as consumer:
        dovecot.save(imap_account.user, message(1))
        await consumer.next()
        await wait_until_idle(source)
        dovecot.stop()
        try:
            for _ in range(200):
                if source.consecutive_failures >= 3:
                    break
                await asyncio.sleep(0.02)
            assert source.consecutive_failures >= 3
            assert "cannot connect" in str(source.last_error)
        finally:
            dovecot.start()
        dovecot.save(imap_account.user, message(2))
        assert (await consumer.next(timeout=10)).raw == message(2)
        assert source.consecutive_failures == 0
        assert source.logins == 2


async def test_wrong_password(dovecot: DovecotServer, imap_account: ImapAccount,
                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # aioimaplib logs the commands it sends at DEBUG
    config = imap_account.config(password='wrong"pass\\word-123')  # quoted on the wire
    source = ImapSource(config, backoff=Backoff(initial=0.05, maximum=0.2, factor=2, jitter=0),
                        timeout=15)
    with pytest.raises(ImapLoginError) as caught:
        await source.check()
    assert f"refused the login for user '{imap_account.user}'" in str(caught.value)
    assert "word-123" not in str(caught.value)
    # Dovecot answers repeated failures from one address ever more slowly (its auth
    # penalty), so two more attempts are what a test can wait for
    async with consuming(source):
        for _ in range(750):
            if source.consecutive_failures >= 2:
                break
            await asyncio.sleep(0.02)
    assert source.consecutive_failures >= 2
    assert isinstance(source.last_error, ImapLoginError)
    delays = [float(d) for d in re.findall(r"retrying in ([0-9.]+) s", caplog.text)]
    assert delays[:2] == [0.05, 0.1]
    assert "LOGIN" in caplog.text  # the commands were logged ...
    assert "word-123" not in caplog.text  # ... without the password


@pytest.mark.parametrize("security", [Security.TLS, Security.STARTTLS])
async def test_tls_and_starttls(dovecot: DovecotServer, imap_account: ImapAccount,
                                security: Security) -> None:
    dovecot.save(imap_account.user, message(1))
    source = ImapSource(imap_account.config(security))
    [mail] = await pending(source)
    await source.mark_processed(mail.id)
    await source.close()
    assert mail.raw == message(1)
    assert dovecot.flags(imap_account.user) == {1: {"\\Seen", PROCESSED_KEYWORD}}


async def test_untrusted_certificate_is_refused(dovecot: DovecotServer,
                                                imap_account: ImapAccount) -> None:
    from dataclasses import replace

    source = ImapSource(replace(imap_account.config(Security.TLS), ca_file=None))
    with pytest.raises(Exception, match="cannot connect") as caught:
        await source.check()
    assert "certificate" in str(caught.value).lower()


async def test_processed_folder(dovecot: DovecotServer, imap_account: ImapAccount) -> None:
    dovecot.save(imap_account.user, message(1))
    dovecot.save(imap_account.user, message(2))
    source = ImapSource(imap_account.config(processed_folder="Processed"))
    mails = await pending(source)
    await source.mark_processed(mails[0].id)
    await source.close()
    assert dovecot.flags(imap_account.user) == {2: set()}
    assert list(dovecot.flags(imap_account.user, "Processed").values()) == [
        {"\\Seen", PROCESSED_KEYWORD}]


async def test_missing_folder_is_a_clear_error(imap_account: ImapAccount) -> None:
    source = ImapSource(imap_account.config(folder="NoSuchFolder"))
    with pytest.raises(ImapProtocolError, match="cannot open folder 'NoSuchFolder'"):
        await source.check()


async def test_uidvalidity_change(dovecot: DovecotServer, imap_account: ImapAccount,
                                  caplog: pytest.LogCaptureFixture) -> None:
    dovecot.save(imap_account.user, message(1))
    dovecot.save(imap_account.user, message(2))
    source = ImapSource(imap_account.config(), backoff=FAST)
    mails = await pending(source)
    await source.mark_processed(mails[0].id)
    old_validity = source.uidvalidity
    assert old_validity is not None
    dovecot.set_uidvalidity(imap_account.user, "INBOX", old_validity + 1000)
    dovecot.kick(imap_account.user)
    for _ in range(200):
        if not source.connected:
            break
        await asyncio.sleep(0.02)
    again = await pending(source)
    assert source.uidvalidity == old_validity + 1000
    assert "UIDVALIDITY of INBOX changed" in caplog.text
    # the processed one stays processed; the other comes back under its new id
    assert [m.raw for m in again] == [message(2)]
    assert again[0].id != mails[1].id
    await source.mark_processed(mails[1].id)  # an id from before the change: ignored
    assert dovecot.flags(imap_account.user)[2] == set()
    await source.mark_processed(again[0].id)
    await source.close()
    assert dovecot.flags(imap_account.user)[2] == {"\\Seen", PROCESSED_KEYWORD}


async def test_mark_while_disconnected_is_applied_after_reconnect(
        dovecot: DovecotServer, imap_account: ImapAccount) -> None:
    dovecot.save(imap_account.user, message(1))
    source = ImapSource(imap_account.config(), backoff=FAST, timeout=5)
    [mail] = await pending(source)
    dovecot.stop()
    try:
        await source.mark_processed(mail.id)  # does not raise; kept for later
    finally:
        dovecot.start()
    assert dovecot.flags(imap_account.user) == {1: set()}
    assert await pending(source) == []  # reconnects, stores the mark first, offers nothing
    assert dovecot.flags(imap_account.user) == {1: {"\\Seen", PROCESSED_KEYWORD}}
    await source.close()


async def test_size_limit(dovecot: DovecotServer, imap_account: ImapAccount) -> None:
    dovecot.save(imap_account.user, message(1, size=5000))
    source = ImapSource(imap_account.config(), max_bytes=1000)
    [mail] = await pending(source)
    await source.close()
    assert len(mail.raw) == 1001
    assert mail.size == len(message(1, size=5000))
    decoded = decode_message(mail.raw, max_bytes=1000, size=mail.size)
    assert decoded.too_large
    assert decoded.sender == "player1@example.org"
    assert decoded.message_id == "<m1@example.org>"


async def test_many_messages_come_in_few_fetches_and_are_marked_together(
        dovecot: DovecotServer, imap_account: ImapAccount) -> None:
    for number in range(1, FETCH_BATCH + 6):
        dovecot.save(imap_account.user, message(number))
    source = ImapSource(imap_account.config())
    offered: list[InboundMail] = []
    waiting: list[int] = []  # what the source held already when each message was offered
    async for mail in source.pending():
        offered.append(mail)
        waiting.append(source.buffered)
    assert [m.raw for m in offered] == [message(n) for n in range(1, FETCH_BATCH + 6)]
    assert source.fetches == 2  # a full batch, then the five left
    assert waiting == [*range(FETCH_BATCH - 1, -1, -1), 4, 3, 2, 1, 0]
    # nothing is flagged until the caller marks; then all at once
    assert all(not flags for flags in dovecot.flags(imap_account.user).values())
    await source.mark_processed_many([m.id for m in offered[:-1]])
    flags = dovecot.flags(imap_account.user)
    assert all(flags[uid] == {"\\Seen", PROCESSED_KEYWORD} for uid in range(1, FETCH_BATCH + 5))
    assert flags[FETCH_BATCH + 5] == set()
    await source.close()
    again = ImapSource(imap_account.config())
    assert [m.raw for m in await pending(again)] == [message(FETCH_BATCH + 5)]
    await again.close()


async def test_a_batch_keeps_to_its_byte_budget(dovecot: DovecotServer,
                                                imap_account: ImapAccount) -> None:
    # three messages of 3 MB: two fit no fetch of FETCH_BYTES (8 MB) together with a third
    big = 3 * 1024 * 1024
    for number in (1, 2, 3):
        dovecot.save(imap_account.user, message(number, size=big))
    source = ImapSource(imap_account.config())
    mails = await pending(source)
    await source.close()
    assert [m.raw for m in mails] == [message(n, size=big) for n in (1, 2, 3)]
    assert source.fetches == 2


async def test_the_next_batch_is_fetched_while_one_is_handled(
        dovecot: DovecotServer, imap_account: ImapAccount) -> None:
    """A caller that does its work between messages (awaiting, as the service does) finds
    the next batch fetched meanwhile: `buffered` counts it, and no message is lost or
    offered twice."""
    for number in range(1, FETCH_BATCH + 6):
        dovecot.save(imap_account.user, message(number))
    source = ImapSource(imap_account.config())
    offered: list[InboundMail] = []
    fetches_seen: list[int] = []
    waiting: list[int] = []
    async for mail in source.pending():
        offered.append(mail)
        for _ in range(50):  # the caller's work: the next fetch runs meanwhile
            if source.fetches == 2 and source.buffered > FETCH_BATCH - len(offered):
                break
            await asyncio.sleep(0.01)
        fetches_seen.append(source.fetches)
        waiting.append(source.buffered)
    await source.close()
    assert [m.raw for m in offered] == [message(n) for n in range(1, FETCH_BATCH + 6)]
    assert source.fetches == 2
    assert fetches_seen[0] == 2  # the second batch was asked for while the first was handled
    assert waiting[0] == FETCH_BATCH - 1 + 5  # ... and counted once it had arrived
    assert waiting[FETCH_BATCH - 1:] == [5, 4, 3, 2, 1, 0]
