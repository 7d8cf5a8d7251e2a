"""The operator's set-up, for real: Postfix in front of `gm serve` (a process), every message
through it. Players send by SMTP to Postfix, which hands the judge's mail to gm over LMTP; gm
sends its replies and reports through Postfix, which delivers them into the players' Maildirs
(and bounces those for a user it does not have, to gm's VERP envelope sender, over LMTP).

A phase is played that way; 50 orders sent while gm is stopped wait in Postfix's queue and are
each answered once after the restart; Postfix's own bounce marks the player failing.
"""

from __future__ import annotations

import re
import shutil
import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import Message
from pathlib import Path

import pytest

from gm.store import address_failures
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.statuses import OutboundStatus
from tests.support.fixtures.postfix import MISSING, PostfixServer
from tests.support.fixtures.served import WAIT, Served, wait_until
from tests.support.service_support import (
    GM,
    PLAYERS,
    SERVICE,
    SPRING_1901,
    game_phases,
    message,
    setup_mail,
)

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])  # the mail path: one store enough

VERP = re.compile(r"^<judge\+b\.[0-9a-f]{8,32}@example\.org>$")
TICK = ("--tick-every", "1")  # early processing is checked at each tick


def orders(power: str, number: int = 0) -> bytes:
    body = "\n".join([f"SIGNON {power} omega pw{power.lower()}", *SPRING_1901[power]])
    return message(PLAYERS[power], body, subject=f"{power} orders {number}",
                   message_id=f"<{power.lower()}-{number}@example.org>")


@pytest.fixture
def gm_behind_postfix(migrated_url: str, tmp_path: Path,
                      postfix: PostfixServer) -> Iterator[Served]:
    """`gm serve` taking its mail from Postfix over LMTP and sending through Postfix's smtpd."""
    served = Served.with_mail(tmp_path, migrated_url, (
        'trusted_received_hosts = ["mx.example.org"]\n'  # Postfix's myhostname
        "[lmtp]\n"
        f'listen = "127.0.0.1:{postfix.lmtp_port}"\n'
        "settle = 2\n"
        "[smtp]\n"
        f'host = "127.0.0.1"\nport = {postfix.port}\nsecurity = "plain"\ntimeout = 10\n'))
    try:
        yield served
    finally:
        if served.proc is not None and served.proc.poll() is None:
            served.stop()


def replies_to(postfix: PostfixServer, address: str, origin: str) -> list[Message]:
    return [m for m in postfix.mailbox(address) if m["In-Reply-To"] == origin]


def with_subject(postfix: PostfixServer, address: str, words: str) -> list[Message]:
    return [m for m in postfix.mailbox(address) if words in str(m["Subject"])]


def text(msg: Message) -> str:
    part = msg.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
    assert part is not None
    return " ".join(str(part.get_content()).split())


def bounces_stored(db: Database) -> int:
    """The bounces (from MAILER-DAEMON) gm has stored."""
    with db.read() as s:
        return sum(r.sender.lower().startswith("mailer-daemon@")
                   for r in inbound_repo.list_inbound(s, limit=1000))


def settled(db: Database, postfix: PostfixServer) -> bool:
    """Everything gm queued was sent and Postfix has delivered it."""
    with db.read() as s:
        queued = [o for o in outbound_repo.list_outbound(s, limit=10_000)
                  if o.status is not OutboundStatus.SENT]
    return not queued and postfix.queued() == 0


def set_up(served: Served, postfix: PostfixServer, italy: str = PLAYERS["Italy"]) -> None:
    """The GM creates and starts the game by mail through Postfix, once gm listens (else
    the first delivery is refused and the message waits for Postfix's next run of its
    deferred queue); the reply comes back."""
    served.wait(lambda: "taking mail over LMTP" in served.log.read_text(errors="replace"),
                "gm serve listening on LMTP")
    postfix.submit(GM, [SERVICE], message(GM, setup_mail(players={**PLAYERS, "Italy": italy}),
                                              message_id="<setup@x.org>"))
    served.wait(lambda: bool(replies_to(postfix, GM, "<setup@x.org>")), "the GM's reply")


def test_a_phase_played_with_every_message_through_postfix(
        gm_behind_postfix: Served, postfix: PostfixServer, database: Database) -> None:
    served = gm_behind_postfix
    served.start(*TICK)
    set_up(served, postfix)
    for address in PLAYERS.values():  # each player told, in the Maildir Postfix delivered to
        served.wait(lambda a=address: bool(with_subject(postfix, a, "the game has started")),
                    f"the start notice to {address}")
    (reply,) = replies_to(postfix, GM, "<setup@x.org>")
    # sent with its own envelope sender, through Postfix's smtpd (its Received line)
    assert VERP.match(str(reply["Return-Path"])), reply["Return-Path"]
    assert "by mx.example.org (Postfix) with ESMTP" in str(reply["Received"])
    for power in PLAYERS:
        postfix.submit(PLAYERS[power], [SERVICE], orders(power))
    for power, address in PLAYERS.items():
        served.wait(lambda p=power, a=address: bool(
            replies_to(postfix, a, f"<{p.lower()}-0@example.org>")), f"{power}'s reply")
        (answer,) = replies_to(postfix, address, f"<{power.lower()}-0@example.org>")
        assert SPRING_1901[power][0] in text(answer) and "refused" not in text(answer)
    # every power ordered: the phase is processed early, and the reports reach every mailbox
    for address in (GM, *PLAYERS.values()):
        served.wait(lambda a=address: bool(
            with_subject(postfix, a, "Spring 1901, Movement: results")),
            f"the Spring 1901 results to {address}")
    spring, fall, *_ = game_phases(database)
    assert spring.adjudicated  # with every power's orders: France's army left Paris
    units = {(u.power, u.province.lower()) for u in fall.state.units}
    assert ("France", "bur") in units and ("France", "par") not in units
    # the arrival of each message is the time Postfix received it (its Received line)
    with database.read() as s:
        stored = inbound_repo.list_inbound(s, limit=100)
    assert len(stored) == 8
    for record in stored:
        assert record.arrived_at is not None
        assert b"by mx.example.org (Postfix) with ESMTP" in record.raw
        assert abs((record.arrived_at - record.received_at).total_seconds()) < 60
    assert postfix.queued() == 0


OUTAGE_MAILS = 50
OUTAGE_POWERS = [p for p in PLAYERS if p != "Russia"]  # one power silent: no early processing


def ready(notify: socket.socket, port: int) -> None:
    """Wait for `gm serve`'s READY=1 (as systemd does for Type=notify); it listens by then."""
    notify.settimeout(WAIT)
    assert notify.recv(4096).startswith(b"READY=1")
    with socket.create_connection(("127.0.0.1", port), 1):
        pass


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[socket.socket]:
    """The socket systemd gives a Type=notify service (NOTIFY_SOCKET)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        yield sock


@pytest.mark.slow  # 50 orders queued by Postfix, then handed over
def test_orders_sent_while_gm_is_stopped_wait_in_postfix_and_are_each_answered_once(
        gm_behind_postfix: Served, postfix: PostfixServer, database: Database,
        notify: socket.socket) -> None:
    """The unit's order: gm started (Type=notify), ready once it listens, then ExecStartPost's
    `postqueue -f` has Postfix hand over what it kept."""
    served = gm_behind_postfix
    systemd = {"NOTIFY_SOCKET": str(notify.getsockname())}
    served.start(*TICK, env=systemd)
    ready(notify, postfix.lmtp_port)
    set_up(served, postfix)
    served.stop()  # as systemctl stop gm
    submitted = datetime.now(UTC).replace(microsecond=0)
    sent = []
    for number in range(OUTAGE_MAILS):
        power = OUTAGE_POWERS[number % len(OUTAGE_POWERS)]
        postfix.submit(PLAYERS[power], [SERVICE], orders(power, number))
        sent.append((power, f"<{power.lower()}-{number}@example.org>"))
    # Postfix tried gm's LMTP listener, found it down and keeps every message for a retry
    wait_until(lambda: sum(m["queue_name"] == "deferred" for m in postfix.queue())
               == OUTAGE_MAILS, "the orders deferred by Postfix", timeout=60)
    refused = f"connect to 127.0.0.1[127.0.0.1]:{postfix.lmtp_port}: Connection refused"
    assert refused in postfix.log_text(10**7)

    restarted, restarted_at = time.monotonic(), datetime.now(UTC)
    served.start(*TICK, env=systemd)
    ready(notify, postfix.lmtp_port)
    postfix.flush()  # the unit's ExecStartPost=postqueue -f
    listening = time.monotonic() - restarted

    def answered() -> int:
        return sum(bool(replies_to(postfix, PLAYERS[p], origin)) for p, origin in sent)

    served.wait(lambda: answered() == OUTAGE_MAILS, "every order answered")
    seconds = time.monotonic() - restarted
    time.sleep(2)  # time for any second delivery or second answer to show
    answers = {origin: len(replies_to(postfix, PLAYERS[p], origin)) for p, origin in sent}
    once = sum(n == 1 for n in answers.values())
    assert once == OUTAGE_MAILS, {o: n for o, n in answers.items() if n != 1}
    for power, origin in sent:
        (answer,) = replies_to(postfix, PLAYERS[power], origin)
        assert SPRING_1901[power][0] in text(answer) and "refused" not in text(answer)
    (spring,) = game_phases(database)
    with database.read() as s:
        stored = orders_repo.order_sets(s, spring.id)
        inbound = inbound_repo.list_inbound(s, limit=1000)
    assert len(stored) == OUTAGE_MAILS and all(o.valid for o in stored)
    assert len(inbound) == OUTAGE_MAILS + 1  # and the GM's set-up
    # each arrived when Postfix received it (its Received line), not when it was handed over
    for record in inbound[:OUTAGE_MAILS]:
        assert record.arrived_at is not None
        assert submitted <= record.arrived_at <= restarted_at, record.arrived_at
    lost = OUTAGE_MAILS - len({o.inbound_id for o in stored})
    assert lost == 0 and postfix.queued() == 0
    print(f"outage through Postfix: {OUTAGE_MAILS} mails in, {once} answered once, {lost} "
          f"lost, {seconds:.1f} s from the restart to all answered ({listening:.1f} s to READY)")


def test_postfix_s_own_bounce_marks_the_player_failing_and_tells_the_gm(
        gm_behind_postfix: Served, postfix: PostfixServer, database: Database) -> None:
    """Italy's address is a user Postfix does not have: Postfix accepts gm's mail for it,
    its virtual agent refuses it, and Postfix's bounce (RFC 3464, to the VERP envelope
    sender) comes back to gm over LMTP."""
    served = gm_behind_postfix
    served.start(*TICK)
    set_up(served, postfix, italy=MISSING)
    served.wait(lambda: bool(with_subject(postfix, GM, "mail to Italy bounces")),
                "the GM's notice of the bounce")
    # gm sent Italy two messages (the start, "you play Italy"); Postfix accepted and bounced
    # both: one mark, one notice, whichever order the bounces and the acceptances came in
    served.wait(lambda: bounces_stored(database) == 2 and settled(database, postfix),
                "both bounces handled and gm's mail delivered")
    (notice,) = with_subject(postfix, GM, "mail to Italy bounces")
    assert with_subject(postfix, GM, "is delivered again") == []  # Postfix's acceptance: no proof
    words = text(notice)
    assert f"{MISSING} cannot be reached" in words
    assert f'The mail server said: unknown user: "{MISSING}"' in words
    assert "REPLACE Italy <address> [<password>] (after SIGNON GM omega <password>)" in words
    with database.read() as s:
        game = games_repo.find_game(s, "omega")
        assert game is not None
        (failure,) = address_failures.failing_in_game(s, game.id)
        bounces = [r for r in inbound_repo.list_inbound(s, limit=100)
                   if r.sender.lower().startswith("mailer-daemon@")]
    assert (failure.power, failure.address) == ("Italy", MISSING)
    assert "unknown user" in failure.reason
    for bounce in bounces:  # stored, read as Postfix's report, never answered
        assert b"X-Postfix-Queue-ID" in bounce.raw and b"Final-Recipient: rfc822; " in bounce.raw
    postfix.submit(GM, [SERVICE], message(GM, "SIGNON GM omega gmpass\nSUMMARY omega",
                                          message_id="<summary@x.org>"))
    served.wait(lambda: bool(replies_to(postfix, GM, "<summary@x.org>")), "the SUMMARY")
    (summary,) = replies_to(postfix, GM, "<summary@x.org>")
    assert f"mail to Italy ({MISSING}) bouncing since" in text(summary)
    assert "to=<mailer-daemon" not in postfix.log_text(10**7).lower()  # gm never answers it


def test_a_deadline_passed_while_gm_was_down_counts_every_order_postfix_held(
        migrated_url: str, tmp_path: Path, postfix_as_shipped: PostfixServer,
        database: Database) -> None:
    """As it happens on a server: Postfix with its default retry times (its next try of the
    held mail 300 s or more away), gm stopped before the deadline, all seven powers' orders
    reaching Postfix in time, gm started after the deadline. The test asks Postfix for
    nothing: gm's own `[lmtp] flush` (`postqueue -f`, as the shipped unit sets it) has the
    mail handed over, and the phase is adjudicated with every order, seconds after the start
    and not after the whole settle; the GM is told what gm waited for."""
    postfix = postfix_as_shipped
    flush = f"{shutil.which('postqueue') or '/usr/sbin/postqueue'} -c {postfix.config_dir} -f"
    served = Served.with_mail(tmp_path, migrated_url, (
        'trusted_received_hosts = ["mx.example.org"]\n'
        "[lmtp]\n"
        f'listen = "127.0.0.1:{postfix.lmtp_port}"\n'
        f'flush = "{flush}"\n'
        "[smtp]\n"
        f'host = "127.0.0.1"\nport = {postfix.port}\nsecurity = "plain"\ntimeout = 10\n'))
    try:
        served.start(*TICK)
        set_up(served, postfix)
        served.stop()
        for power in PLAYERS:
            postfix.submit(PLAYERS[power], [SERVICE], orders(power))
        wait_until(lambda: sum(m["queue_name"] == "deferred" for m in postfix.queue())
                   == len(PLAYERS), "the orders deferred by Postfix", timeout=60)
        (spring,) = game_phases(database)
        deadline = datetime.now(UTC) + timedelta(seconds=1)
        with database.transaction() as s:
            phases_repo.set_deadline(s, spring.id, deadline)
        time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 1)

        started = time.monotonic()
        served.start(*TICK)
        served.wait(lambda: game_phases(database)[0].adjudicated, "Spring 1901 adjudicated")
        seconds = time.monotonic() - started
        assert seconds < 30, seconds  # the hand-over's quiet seconds, not the 60 s of settle
        for address in (GM, *PLAYERS.values()):
            served.wait(lambda a=address: bool(
                with_subject(postfix, a, "Spring 1901, Movement: results")),
                f"the Spring 1901 results to {address}")
        (results,) = with_subject(postfix, GM, "Spring 1901, Movement: results")
        assert "sent no orders" not in text(results)
        for power, address in PLAYERS.items():
            origin = f"<{power.lower()}-0@example.org>"
            served.wait(lambda a=address, o=origin: bool(replies_to(postfix, a, o)),
                        f"{power}'s reply")
            (answer,) = replies_to(postfix, address, origin)
            assert SPRING_1901[power][0] in text(answer) and "refused" not in text(answer)
        _, fall, *_ = game_phases(database)
        units = {(u.power, u.province.lower()) for u in fall.state.units}
        assert ("France", "bur") in units and ("France", "par") not in units
        assert ("England", "nth") in units and ("Russia", "ukr") in units
        served.wait(lambda: bool(with_subject(postfix, GM, "deadline waited for the mail")),
                    "the GM told what the deadline waited for")
        (told,) = with_subject(postfix, GM, "deadline waited for the mail server")
        assert "7 messages came meanwhile" in text(told)
        assert postfix.queued() == 0
    finally:
        if served.proc is not None and served.proc.poll() is None:
            served.stop()
