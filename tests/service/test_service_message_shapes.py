"""Messages as people's mail programs shape them, through a real Dovecot mailbox and SMTP
server: numbered and bulleted lists of orders, signatures without "-- " (a phone's, Outlook's, a
name and phone number), a header line without a colon, 60 nested multiparts, a reply that
refuses every order, two letters swapped in a province's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.service.ingest import Disposition
from gm.store.db import Database
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.imap_support import ImapService
from tests.support.service_support import GM, PLAYERS, SERVICE, message

SETUP = "\n".join(["CREATE shape standard gmpass"]
                  + [f"ADD {p} {a} pw{p.lower()}" for p, a in PLAYERS.items()] + ["START"])
FRANCE = PLAYERS["France"]
SIGNON = "SIGNON France shape pwfrance"


@pytest.fixture
async def table(database: Database, tmp_path: Path, dovecot: DovecotServer,
                imap_account: ImapAccount, smtp_server: SmtpServer) -> ImapService:
    service = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    assert await service.run(message(GM, SETUP)) == [Disposition.ANSWERED]
    service.new_mail()
    return service


async def _reply(table: ImapService, raw: bytes) -> str:
    assert await table.run(raw) == [Disposition.ANSWERED]
    (reply,) = [m for m in table.new_mail() if m.is_reply]
    return reply.text


async def test_numbered_and_bulleted_orders(table: ImapService) -> None:
    body = f"{SIGNON}\n1. A Par - Bur\n* F Bre - MAO\n- A Mar H\n"
    reply = await _reply(table, message(FRANCE, body))
    assert "A Par - Bur  ->  A Par - Bur" in reply
    assert "F Bre - MAO  ->  F Bre - MAO" in reply
    assert "A Mar H  ->  A Mar H" in reply
    assert "Cannot read" not in reply and "Units without orders: none." in reply
    body = f"2) {SIGNON}\n\u2022 A Par - Pic\n"  # a list from the first line, a round bullet
    reply = await _reply(table, message(FRANCE, body))
    assert "Signed on as France in shape." in reply and "A Par - Pic  ->  A Par - Pic" in reply


@pytest.mark.parametrize("signature", [
    "Sent from my iPhone",
    "Get Outlook for iOS",
    "Envoyé de mon iPhone",
    "Jean Dupont\n+33 6 12 34 56 78",
    "Thanks,\nJean\n\nJean Dupont | jean.dupont@example.fr\nTel: (555) 123-4567",
    "Cordialement,\nJean",
    "Bien cordialement,\n\nJean-Paul",
    "Saludos,\nJuan",
    "Gruss\nHans",
    "Gruß,\nHans",
    "Mit freundlichen Gruessen\nHans Müller",
    "Mit freundlichen Grüßen,\nHans",
    "Cordiali saluti\nMarco",
    "Best regards,\nJohn\nSmith",
    "Cheers,\nBob",
    "Cheers Bob",
    "Regards",
    "Thanks!",
    "Jean",
])
async def test_signatures_without_a_separator_are_not_orders(table: ImapService,
                                                             signature: str) -> None:
    body = f"{SIGNON}\nA Par - Bur\nA Mar - Spa\n\n{signature}\n"
    reply = await _reply(table, message(FRANCE, body))
    assert "A Mar - Spa  ->  A Mar - Spa" in reply
    assert "line " not in reply and "Not an order" not in reply, reply
    assert "Units without orders: F Bre." in reply


@pytest.mark.parametrize(("last", "shown"), [
    ("A Par H", "A Par H  ->  A Par H"),
    ("Hold", "Hold"),
    ("Paris Holds", "Paris Holds"),
    ("Cheers,\nA Par H", "A Par H  ->  A Par H"),
])
async def test_a_last_line_that_may_be_an_order_is_not_a_signature(
        table: ImapService, last: str, shown: str) -> None:
    reply = await _reply(table, message(FRANCE, f"{SIGNON}\nA Mar - Spa\n{last}\n"))
    assert "A Mar - Spa  ->  A Mar - Spa" in reply
    assert shown in reply, reply


async def test_a_header_line_without_a_colon(table: ImapService) -> None:
    raw = (f"From: {FRANCE}\r\nTo: {SERVICE}\r\nX-Mailer Thing 1.0\r\nSubject: my orders\r\n"
           "Message-ID: <nocolon@example.org>\r\nDate: Sun, 01 Mar 2026 12:00:00 +0000\r\n"
           f"Content-Type: text/plain\r\n\r\n{SIGNON}\r\nA Par - Bur\r\n").encode()
    reply = await _reply(table, raw)
    assert "A Par - Bur  ->  A Par - Bur" in reply
    assert "Subject" not in reply and "Message-ID" not in reply and "X-Mailer" not in reply


async def test_sixty_nested_multiparts(table: ImapService) -> None:
    head = (f"From: {FRANCE}\r\nTo: {SERVICE}\r\nSubject: deep\r\n"
            "Message-ID: <deep@example.org>\r\n"
            "Content-Type: multipart/mixed; boundary=b0\r\n\r\n")
    body = ("".join(f"--b{i}\r\nContent-Type: multipart/mixed; boundary=b{i + 1}\r\n\r\n"
                    for i in range(60))
            + f"--b60\r\nContent-Type: text/plain\r\n\r\n{SIGNON}\r\nA Par - Bur\r\n"
            + "".join(f"--b{i}--\r\n" for i in range(60, -1, -1)))
    reply = await _reply(table, (head + body).encode())
    assert "held no commands" not in reply
    assert "A Par - Bur  ->  A Par - Bur" in reply


async def test_every_order_refused_still_shows_the_orders(table: ImapService) -> None:
    await _reply(table, message(FRANCE, f"{SIGNON}\nA Par - Bur\n"))
    reply = await _reply(table, message(FRANCE, f"{SIGNON}\nA Par - Mos\nF Bre - Kie\n"))
    assert reply.count("refused") == 2
    assert "Orders of France for Spring 1901, Movement:\n  A Par - Bur\n" in reply
    assert "Units without orders: A Mar, F Bre." in reply


async def test_two_letters_swapped(table: ImapService) -> None:
    reply = await _reply(table, message(PLAYERS["Turkey"],
                                        "SIGNON Turkey shape pwturkey\nA Smy-Amr\n"))
    assert 'Unknown province "Amr" in "A Smy-Amr": did you mean Arm (Armenia)' in reply
