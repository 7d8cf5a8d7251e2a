"""A mail loop with a naive auto-responder (no Auto-Submitted, no Precedence), played through a
real Dovecot mailbox and SMTP server over the service's clock: the robot answers each of our
replies, quoting it; after a handful of such messages the service holds the robot's mail instead
of answering it, tells the operator once, and the loop ends. The rate limit plays no part.
A player who answers above our quoted reply, as mail programs quote, is answered every time."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

from gm.config import Config
from gm.service.ingest import Disposition
from gm.service.loop_guard import LOOP_LIMIT
from gm.store import inbound as inbound_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.imap_support import ImapService, Sent
from tests.support.service_support import GM, PLAYERS, message

ROBOT = "robot@example.net"
OPERATOR = "postmaster@example.org"


def _robot_answer(quoted: str, n: int) -> bytes:
    """What the robot sends back: its text, then ours, unquoted."""
    return message(ROBOT, f"Thank you for your message. I am away until Monday.\n\n"
                          f"Your message was:\n{quoted}", subject=f"Re: away {n}")


async def test_a_naive_auto_responder_is_held_after_a_handful(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    table = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    config = dataclasses.replace(table.config(), operator=OPERATOR)
    # the robot writes first; then it answers each of our replies at once
    raw = message(ROBOT, "I am away until Monday.", subject="away")
    answered = 0
    operator_notices = []
    for n in range(40):
        outcomes = await table.run(raw, config=config)
        sent = table.new_mail()
        operator_notices += [m for m in sent if m.recipients == (OPERATOR,)]
        replies = [m for m in sent if m.recipients == (ROBOT,)]
        if outcomes == [Disposition.HELD]:
            assert replies == []  # nothing to feed the loop
            break
        assert outcomes == [Disposition.ANSWERED]
        answered += 1
        (reply,) = replies
        table.clock.advance(timedelta(seconds=40))
        raw = _robot_answer(reply.text, n)
    # its first message is answered; the next carries our reply back: held, the loop is over
    assert answered == 1
    (notice,) = operator_notices
    assert f"a mail loop with {ROBOT} is held" in notice.subject
    assert f"{ROBOT} sent 2 messages within 30 minutes" in " ".join(notice.text.split())
    assert max(map(len, notice.text.splitlines())) <= 78
    assert "gm shunt replay" in notice.text

    # more of the robot's mail in the window (it may still be sending): held, no new notice
    for n in range(3):
        table.clock.advance(timedelta(minutes=1))
        assert await table.run(_robot_answer("...", 100 + n), config=config) == [Disposition.HELD]
    assert table.new_mail() == []
    # commands from the same address are answered all the same
    assert await table.run(message(ROBOT, "LIST"), config=config) == [Disposition.ANSWERED]
    assert [m.recipients for m in table.new_mail()] == [(ROBOT,)]
    # and others are not affected
    assert await table.run(message(GM, "HELP"), config=config) == [Disposition.ANSWERED]
    table.new_mail()
    with database.read() as s:
        held = inbound_repo.list_inbound(s, status=InboundStatus.HELD)
    assert len(held) == 4 and {m.sender for m in held} == {ROBOT}
    assert all(m.error and "a mail loop" in m.error for m in held)

    # half an hour later the window has passed: a message without commands is answered again
    table.clock.advance(timedelta(minutes=31))
    assert await table.run(message(ROBOT, "hello?"), config=config) == [Disposition.ANSWERED]
    assert [m.recipients for m in table.new_mail()] == [(ROBOT,)]


async def test_a_player_forgetting_commands_now_and_then_is_answered(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    table = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    for n in range(3 * LOOP_LIMIT):  # one message without commands every ten minutes
        assert await table.run(message(ROBOT, f"question {n}?")) == [Disposition.ANSWERED]
        table.clock.advance(timedelta(minutes=10))
    assert len(table.new_mail()) == 3 * LOOP_LIMIT


SETUP = "\n".join(
    ["CREATE loop1 standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "SET DEADLINE MOVEMENT 7d", "START"])
FRANCE = PLAYERS["France"]


async def _game(table: ImapService) -> None:
    assert await table.run(message(GM, SETUP)) == [Disposition.ANSWERED]
    table.new_mail()


async def _answer(table: ImapService, raw: bytes, config: Config | None = None,
                  sent: list[Sent] | None = None) -> str | None:
    """Run the service over one message: the text of its reply, or None when held (what was
    sent goes into `sent` too)."""
    outcome = await table.run(raw, config=config)
    mail = table.new_mail()
    if sent is not None:
        sent.extend(mail)
    replies = [m for m in mail if m.recipients == (FRANCE,) and m.is_reply]
    if outcome == [Disposition.HELD]:
        assert replies == []
        return None
    assert outcome == [Disposition.ANSWERED]
    (reply,) = replies
    return reply.text


async def test_an_auto_responder_answering_a_players_reply_gets_two_replies_at_most(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    """A player's away-message robot (no Auto-Submitted) answers our reply to the player's
    orders at once, carrying it back: the robot's first message is answered, its second held."""
    table = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    config = dataclasses.replace(table.config(), operator=OPERATOR)
    await _game(table)
    reply = await _answer(table, message(FRANCE, "SIGNON France loop1 pwfrance\nA Par - Bur"),
                          config)
    assert reply is not None and "Signed on as France in loop1." in reply
    replies = 0
    sent: list[Sent] = []
    for n in range(10):
        table.clock.advance(timedelta(seconds=30))
        robot = message(FRANCE, "I am away until Monday and will read your mail then.\n\n"
                                f"Your message was:\n{reply}", subject=f"Re: away {n}")
        reply = await _answer(table, robot, config, sent)
        if reply is None:
            break
        replies += 1
    assert replies == 1  # with the one to the player's orders: two replies in all
    (notice,) = [m for m in sent if m.recipients == (OPERATOR,)]
    assert f"a mail loop with {FRANCE} is held" in notice.subject
    with database.read() as s:
        (held,) = inbound_repo.list_inbound(s, status=InboundStatus.HELD)
    assert held.sender == FRANCE
    # the player's own orders are still answered
    table.clock.advance(timedelta(minutes=1))
    reply = await _answer(table, message(FRANCE, "SIGNON France loop1 pwfrance\nA Par - Pic"))
    assert reply is not None and "A Par - Pic" in reply


async def test_a_robot_quoting_with_marks_and_sending_the_same_text_is_held(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    """A robot that quotes our replies behind ">" and always writes the same text: its second
    such message is held."""
    table = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    reply = await _answer(table, message(FRANCE, "I am away until Monday, back soon."))
    answered = 1
    for n in range(10):
        assert reply is not None
        table.clock.advance(timedelta(seconds=40))
        quoted = "\n".join(f"> {line}" for line in reply.splitlines())
        reply = await _answer(table, message(
            FRANCE, "Thank you for your message. I am away until Monday.\n\n"
                    f"On Sun, 1 Mar 2026 at 12:00, Judge <judge@example.org> wrote:\n{quoted}",
            subject=f"Re: away {n}"))
        if reply is None:
            break
        answered += 1
    assert answered == 2


def _quoted_gmail(reply: str) -> str:
    quoted = "\n".join(f"> {line}" if line else ">" for line in reply.splitlines())
    return f"On Sun, 1 Mar 2026 at 12:05, Judge <judge@example.org> wrote:\n{quoted}"


def _quoted_outlook(reply: str) -> str:
    return ("-----Original Message-----\nFrom: Judge <judge@example.org>\n"
            "Sent: Sunday, March 1, 2026 12:05 PM\nTo: france@example.org\n"
            f"Subject: Re: orders\n\n{reply}")


def _quoted_outlook_web(reply: str) -> str:
    return ("________________________________\nFrom: Judge <judge@example.org>\n"
            "Sent: Sunday, March 1, 2026 12:05\nTo: france@example.org\n"
            f"Subject: Re: orders\n\n{reply}")


def _quoted_outlook_plain(reply: str) -> str:
    return ("From: Judge <judge@example.org>\nSent: Sunday, March 1, 2026 12:05 PM\n"
            f"To: france@example.org\nSubject: Re: orders\n\n{reply}")


async def test_a_player_answering_above_our_quoted_reply_is_always_answered(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    """New orders above our whole reply, quoted as Gmail, Apple Mail, Thunderbird (">" lines
    under "On ... wrote:") and Outlook (an "Original Message" or "From: ... Sent: ..." block,
    no marks) quote it, minutes apart, again and again: every message is answered and its
    orders taken."""
    table = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    await _game(table)
    reply = await _answer(table, message(FRANCE, "SIGNON France loop1 pwfrance\nA Par - Bur"))
    moves = ["A Par - Pic", "A Par - Gas", "A Par H", "A Par - Bur"] * 2
    quoting = [_quoted_gmail, _quoted_outlook, _quoted_outlook_web, _quoted_outlook_plain] * 2
    for move, quote in zip(moves, quoting, strict=True):
        assert reply is not None
        table.clock.advance(timedelta(minutes=2))
        reply = await _answer(table, message(
            FRANCE, f"SIGNON France loop1 pwfrance\n{move}\n\n{quote(reply)}",
            subject="Re: orders"))
        assert reply is not None, f"held: {move} quoted by {quote.__name__}"
        assert f"{move}  ->" in reply or move in reply
        assert "not an order" not in reply.lower()
    # a question without orders above our quoted reply, twice: answered too
    for _ in range(2):
        assert reply is not None
        table.clock.advance(timedelta(minutes=2))
        reply = await _answer(table, message(
            FRANCE, f"Is my army ordered?\n\n{_quoted_gmail(reply)}", subject="Re: orders"))
        assert reply is not None
