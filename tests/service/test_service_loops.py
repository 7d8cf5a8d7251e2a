"""A mail loop with a naive auto-responder (no Auto-Submitted, no Precedence), played through a
real Dovecot mailbox and SMTP server over the service's clock: the robot answers each of our
replies, quoting it; after a handful of such messages the service holds the robot's mail instead
of answering it, tells the operator once, and the loop ends. The rate limit plays no part."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

from gm.service.ingest import Disposition
from gm.service.loop_guard import LOOP_LIMIT
from gm.store import inbound as inbound_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.imap_support import ImapService
from tests.support.service_support import GM, message

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
    assert answered == LOOP_LIMIT  # a handful answered, then held: the loop is over
    (notice,) = operator_notices
    assert f"a mail loop with {ROBOT} is held" in notice.subject
    assert f"{ROBOT} sent {LOOP_LIMIT + 1} messages within 30 minutes" in " ".join(
        notice.text.split())
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
