"""Reading bounces (RFC 3464 reports, and other shapes through flufl.bounce) and the
per-message envelope senders (VERP) they come back to."""

from __future__ import annotations

import email

from gm.mail.bounces import Failure, read_bounce
from gm.mail.verp import envelope_sender, token_in, token_of
from tests.support.bounce_mail import postfix_bounce, qmail_bounce, verp
from tests.support.service_support import SERVICE, message

TOKEN = "0123456789abcdef0123"


def test_the_envelope_sender_carries_the_token_and_gives_it_back() -> None:
    assert envelope_sender(SERVICE, TOKEN) == f"judge+b.{TOKEN}@example.org"
    assert envelope_sender(SERVICE, None) == SERVICE  # mail queued before tokens
    assert token_of(f"Judge+B.{TOKEN.upper()}@Example.ORG", SERVICE) == TOKEN  # case lost
    assert token_of(f"judge+b.{TOKEN}@elsewhere.org", SERVICE) is None
    assert token_of(f"other+b.{TOKEN}@example.org", SERVICE) is None
    assert token_of("judge+b.not-a-token@example.org", SERVICE) is None
    assert token_of(SERVICE, SERVICE) is None


def test_a_postfix_report_names_the_recipient_status_and_reason() -> None:
    raw = postfix_bounce(TOKEN, "italy@example.org")
    parsed = email.message_from_bytes(raw)
    assert token_in(parsed, SERVICE) == TOKEN
    (failure,) = read_bounce(parsed)
    assert failure.address == "italy@example.org" and failure.permanent
    assert failure.reason.startswith("550 5.1.1 <italy@example.org>: Recipient address")


def test_a_delayed_report_is_temporary() -> None:
    parsed = email.message_from_bytes(postfix_bounce(TOKEN, "italy@example.org", delayed=True))
    (failure,) = read_bounce(parsed)
    assert not failure.permanent and failure.reason.startswith("450 4.2.0")


def test_a_qmail_notice_is_read_by_flufl_bounce() -> None:
    parsed = email.message_from_bytes(qmail_bounce(TOKEN, "italy@example.org"))
    assert token_in(parsed, SERVICE) == TOKEN
    assert read_bounce(parsed) == [Failure("italy@example.org", True,
                                           "Sorry, no mailbox here by that name. (#5.1.1)")]


def test_a_players_mail_is_no_bounce() -> None:
    parsed = email.message_from_bytes(message("italy@example.org", "SIGNON Italy gamma pw"))
    assert token_in(parsed, SERVICE) is None
    assert read_bounce(parsed) == []


def test_the_token_is_read_from_the_delivered_to_header_first() -> None:
    raw = message("mailer-daemon@example.net", "gone", headers={"Delivered-To": verp(TOKEN)})
    assert token_in(email.message_from_bytes(raw), SERVICE) == TOKEN
