"""Deadlines kept by arrival with `gm serve` as a real process against a real Dovecot and a
real SMTP server: orders saved in the mailbox while the service was down across the deadline
count after a restart, and orders that arrive a moment before the deadline, whose IDLE notice
comes after it, count too. The arrival is the server's INTERNALDATE."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default

import pytest

from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.service.test_service_faults import SETUP_MAIL
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.fixtures.served import Served
from tests.support.service_support import GM, PLAYERS, game_phases, message, setup_mail

ORDERS = "SIGNON France omega pwfrance\nA Par - Bur\nA Mar - Spa\nF Bre - MAO"

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])  # the mail path: one store enough


def deadline_in(db: Database, seconds: float) -> datetime:
    (spring,) = game_phases(db)
    at = (datetime.now(UTC) + timedelta(seconds=seconds)).replace(microsecond=0)
    with db.transaction() as s:
        phases_repo.set_deadline(s, spring.id, at)
    return at


def wait_for(moment: datetime) -> None:
    time.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds()))


def reply_to(smtp: SmtpServer, origin: str) -> str:
    for item in list(smtp.received):
        msg = message_from_bytes(item.data, policy=default)
        if msg["In-Reply-To"] == origin:
            part = msg.get_body(preferencelist=("plain",))
            assert part is not None
            return " ".join(str(part.get_content()).split())
    raise AssertionError(f"no reply to {origin}")


def france_in_burgundy(db: Database) -> bool:
    spring, *later = game_phases(db)
    assert spring.adjudicated and later
    units = {(u.power, u.province.lower()) for u in later[0].state.units}
    return ("France", "bur") in units and ("France", "par") not in units


def answered(smtp: SmtpServer, origin: str) -> bool:
    return any(item.headers["In-Reply-To"] == origin for item in list(smtp.received))


def start_game(served: Served, dovecot: DovecotServer, account: ImapAccount,
               smtp: SmtpServer) -> None:
    dovecot.save(account.user, message(GM, setup_mail(), message_id="<setup@example.org>"))
    served.start()
    served.wait(lambda: len(smtp.received) >= SETUP_MAIL, "reply to the game's set-up")


def test_orders_waiting_in_imap_while_gm_was_down_count(
        served: Served, database: Database, dovecot: DovecotServer, imap_account: ImapAccount,
        smtp_server: SmtpServer) -> None:
    start_game(served, dovecot, imap_account, smtp_server)
    served.stop()
    deadline = deadline_in(database, 3)
    dovecot.save(imap_account.user, message(PLAYERS["France"], ORDERS,
                                            message_id="<france@example.org>"))
    wait_for(deadline + timedelta(seconds=2))
    assert not game_phases(database)[0].adjudicated
    restarted = time.monotonic()
    served.start()
    served.wait(lambda: game_phases(database)[0].adjudicated,
                "Spring 1901 adjudicated after the restart")
    took = time.monotonic() - restarted
    print(f"restart to Spring 1901 adjudicated with the orders: {took:.2f} s")
    served.wait(lambda: answered(smtp_server, "<france@example.org>"), "France's reply")
    served.stop()
    reply = reply_to(smtp_server, "<france@example.org>")
    assert "refused" not in reply and "A Par - Bur" in reply
    assert france_in_burgundy(database)
    assert took < 15, took


def test_orders_a_second_before_the_deadline_count_though_idle_tells_of_them_after(
        served: Served, database: Database, dovecot: DovecotServer, imap_account: ImapAccount,
        smtp_server: SmtpServer) -> None:
    start_game(served, dovecot, imap_account, smtp_server)
    deadline = deadline_in(database, 4)
    # saved 0.3 s before the deadline: Dovecot tells the IDLE session of it about half a
    # second later, after the deadline, and the service reads it after the deadline
    wait_for(deadline - timedelta(seconds=0.3))
    dovecot.save(imap_account.user, message(PLAYERS["France"], ORDERS,
                                            message_id="<france-last@example.org>"))
    served.wait(lambda: game_phases(database)[0].adjudicated, "Spring 1901 adjudicated", timeout=30)
    served.wait(lambda: answered(smtp_server, "<france-last@example.org>"), "France's reply")
    served.stop()
    reply = reply_to(smtp_server, "<france-last@example.org>")
    assert "refused" not in reply and "A Par - Bur" in reply
    assert france_in_burgundy(database)
