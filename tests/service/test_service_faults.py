"""Faults, with `gm serve` as a real OS process against a real Dovecot and a real SMTP server:
SIGKILL in the middle of 200 order messages and a restart; the SMTP server gone for a while;
the IMAP connection dropped and Dovecot restarted. Nothing is lost and nothing happens twice.

Every wait polls a condition (the SMTP server's mail, the database) with a generous limit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database, open_database
from gm.store.statuses import InboundStatus, OutboundStatus
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.fixtures.served import Served
from tests.support.service_support import GM, PLAYERS, SPRING_1901, message

pytestmark = pytest.mark.postgresql_too  # a kill in the middle of a transaction

SETUP = "\n".join(
    ["CREATE kappa standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "START"]  # the phase stays open however many orders come
)
SETUP_MAIL = 1 + 7 + 8  # the GM's reply; the seven seated players' notices; the start notices
POWERS = sorted(PLAYERS)


@pytest.fixture
def db(migrated_url: str) -> Iterator[Database]:
    database = open_database(migrated_url)
    yield database
    database.dispose()


def order_message(n: int) -> tuple[str, bytes]:
    """The n-th order message: a power's Spring 1901 orders, some of them holds instead."""
    power = POWERS[n % len(POWERS)]
    orders = list(SPRING_1901[power])
    unit = orders[n % len(orders)]
    orders[n % len(orders)] = " ".join(unit.split()[:2]) + " H"
    message_id = f"<order-{n}@example.org>"
    body = "\n".join([f"SIGNON {power} kappa pw{power.lower()}", *orders])
    return message_id, message(PLAYERS[power], body, subject=f"orders {n}",
                               message_id=message_id)


def replies_by_origin(smtp: SmtpServer) -> Counter[str]:
    """How many times each inbound Message-ID was answered (by reply deliveries)."""
    found: Counter[str] = Counter()
    for item in list(smtp.received):
        if item.headers["In-Reply-To"]:
            found[str(item.headers["In-Reply-To"])] += 1
    return found


def deliveries_by_message_id(smtp: SmtpServer) -> Counter[str]:
    return Counter(str(item.headers["Message-ID"]) for item in list(smtp.received))


def start_game(served: Served, dovecot: DovecotServer, account: ImapAccount,
               smtp: SmtpServer) -> None:
    dovecot.save(account.user, message(GM, SETUP, message_id="<setup@example.org>"))
    served.start()
    served.wait(lambda: len(smtp.received) >= SETUP_MAIL, "reply to the game's set-up")


def inbound_statuses(db: Database) -> Counter[InboundStatus]:
    with db.read() as s:
        return Counter(r.status for r in inbound_repo.list_inbound(s, limit=10_000))


def all_sent(db: Database) -> bool:
    with db.read() as s:
        return not outbound_repo.list_outbound(s, status=OutboundStatus.QUEUED, limit=1)


@pytest.mark.slow
def test_sigkill_in_the_middle_of_200_orders(
        served: Served, db: Database, dovecot: DovecotServer, imap_account: ImapAccount,
        smtp_server: SmtpServer) -> None:
    start_game(served, dovecot, imap_account, smtp_server)
    sent = dict(order_message(n) for n in range(200))
    for raw in sent.values():
        dovecot.deliver_file(imap_account, raw)
    # kill it once a good part, not all, is answered
    served.wait(lambda: sum(replies_by_origin(smtp_server).values()) >= 40,
                "first replies to the orders")
    served.kill()
    answered_at_kill = sum(replies_by_origin(smtp_server).values())
    assert answered_at_kill < 200, "the kill came too late to test anything"

    served.start()
    served.wait(lambda: set(replies_by_origin(smtp_server)) >= set(sent),
                "reply to every order message")
    served.wait(lambda: all_sent(db), "empty outbound queue")
    served.stop()

    # every message answered exactly once (one reply Message-ID per message); a reply the
    # killed process had handed to the SMTP server but not yet marked sent is the only one that
    # may be delivered again, under its same Message-ID
    replies = replies_by_origin(smtp_server)
    assert set(replies) == {*sent, "<setup@example.org>"}
    deliveries = deliveries_by_message_id(smtp_server)
    again = [mid for mid, count in deliveries.items() if count > 1]
    assert len(again) <= 1, again
    assert len(deliveries) == 200 + SETUP_MAIL
    for origin, count in replies.items():
        assert count == 1 or (count == 2 and len(again) == 1), origin

    # every order stored exactly once: one order set per message, each message processed once
    with db.read() as s:
        inbound = inbound_repo.list_inbound(s, limit=10_000)
        assert Counter(r.status for r in inbound) == {InboundStatus.PROCESSED: 201}
        by_message_id = {r.message_id: r.id for r in inbound}
        assert set(by_message_id) == {*sent, "<setup@example.org>"}
        game = games_repo.find_game(s, "kappa")
        assert game is not None
        (phase,) = phases_repo.history(s, game.id)
        sets = orders_repo.order_sets(s, phase.id)
        assert len(sets) == 200 and all(o.valid for o in sets)
        assert Counter(o.inbound_id for o in sets) == Counter(
            {by_message_id[mid]: 1 for mid in sent})
        outbound = outbound_repo.list_outbound(s, limit=10_000)
        assert {o.status for o in outbound} == {OutboundStatus.SENT}
        assert len(outbound) == 200 + SETUP_MAIL
    # and every message is marked processed in the mailbox
    flags = dovecot.flags(imap_account.user)
    assert len(flags) == 201 and all("$GmDone" in f for f in flags.values())


@pytest.mark.slow  # the first retry comes 30 s after the failed attempt
@pytest.mark.parametrize("backend", ["sqlite"])  # transport faults: one store is enough
def test_replies_wait_for_the_smtp_server(
        served: Served, db: Database, dovecot: DovecotServer, imap_account: ImapAccount,
        smtp_server: SmtpServer) -> None:
    start_game(served, dovecot, imap_account, smtp_server)
    smtp_server.stop()
    sent = dict(order_message(n) for n in range(20))
    for raw in sent.values():
        dovecot.deliver_file(imap_account, raw)

    def tried_and_failed() -> bool:
        with db.read() as s:
            queued = outbound_repo.list_outbound(s, status=OutboundStatus.QUEUED, limit=1000)
        return len(queued) == 20 and all(o.attempts >= 1 and o.last_error for o in queued)

    served.wait(tried_and_failed, "failed attempts to send the 20 replies")
    assert inbound_statuses(db) == {InboundStatus.PROCESSED: 21}
    assert len(smtp_server.received) == SETUP_MAIL
    smtp_server.start()
    # the first retry falls 30 s after the failed attempt (gm.service.sender.retry_delay)
    served.wait(lambda: set(replies_by_origin(smtp_server)) >= set(sent),
                "replies once the SMTP server is back")
    served.wait(lambda: all_sent(db), "empty outbound queue")
    served.stop()
    deliveries = deliveries_by_message_id(smtp_server)
    assert len(deliveries) == 20 + SETUP_MAIL
    assert set(deliveries.values()) == {1}  # none twice
    assert Counter(replies_by_origin(smtp_server).values()) == {1: 21}


@pytest.mark.parametrize("backend", ["sqlite"])  # transport faults: one store is enough
def test_the_service_reconnects_to_imap(
        served: Served, db: Database, dovecot: DovecotServer, imap_account: ImapAccount,
        smtp_server: SmtpServer) -> None:
    start_game(served, dovecot, imap_account, smtp_server)
    batches = [dict(order_message(n) for n in range(k * 10, k * 10 + 10)) for k in range(3)]

    def answered(batch: dict[str, bytes]) -> Callable[[], bool]:
        return lambda: set(replies_by_origin(smtp_server)) >= set(batch)

    for raw in batches[0].values():
        dovecot.deliver_file(imap_account, raw)
    served.wait(answered(batches[0]), "replies to the first batch")
    # the server drops the session (as an administrator's kick or a crashed imap process)
    dovecot.kick(imap_account.user)
    for raw in batches[1].values():
        dovecot.deliver_file(imap_account, raw)
    served.wait(answered(batches[1]), "replies after the session was dropped")
    # the whole server goes away and comes back on the same port
    failures = served.log.read_text().count("retrying in")
    dovecot.stop()
    # while nothing listens, the service's attempts to reconnect fail (and say so)
    served.wait(lambda: served.log.read_text().count("retrying in") > failures,
                "a failed attempt to reconnect")
    dovecot.start()
    for raw in batches[2].values():
        dovecot.deliver_file(imap_account, raw)
    served.wait(answered(batches[2]), "replies after Dovecot restarted")
    served.wait(lambda: all_sent(db), "empty outbound queue")
    served.stop()
    assert inbound_statuses(db) == {InboundStatus.PROCESSED: 31}
    assert set(deliveries_by_message_id(smtp_server).values()) == {1}
