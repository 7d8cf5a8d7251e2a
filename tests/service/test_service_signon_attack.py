"""The lock-out attack, played through the real service (a Dovecot mailbox in, an SMTP server
out) over hours of the service's clock: a stranger sends wrong passwords for a power and for
the GM, from one address and then from new ones each hour. The guesser is throttled; the real
player and the GM, from their registered addresses, still get in and their commands count."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from datetime import timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from gm.config import Config
from gm.mail.connect import make_sink, make_source
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from tests.support.environment import clean_env
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer
from tests.support.imap_support import ImapService
from tests.support.service_support import (
    GM,
    PLAYERS,
    SERVICE,
    START,
    maildir_config,
    message,
    send_all,
    unwrapped,
)

SETUP = "\n".join(
    ["CREATE lock1 standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "SET DEADLINE MOVEMENT 7d", "START"])


async def test_a_stranger_cannot_lock_out_a_player_or_the_gm(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    base = maildir_config(tmp_path)
    config = Config(data_dir=base.data_dir, address=base.address,
                    display_name=base.display_name, maildir=base.maildir,
                    imap=imap_account.config(), smtp=smtp_server.config(), poll_interval=0.2)
    clock = FixedClock(START)
    seen = 0

    async def run(*mail: tuple[str, str]) -> list[str]:
        """Deliver the messages to the mailbox, run one pass of the service, and give the
        replies (to the senders, in order)."""
        nonlocal seen
        for sender, body in mail:
            dovecot.save(imap_account.user, message(sender, body))
        service = Service(database, config, clock=clock, source=make_source(config),
                          sink=make_sink(config))
        outcomes = [r.outcome for r in await service.once()]
        assert len(outcomes) == len(mail)
        assert set(outcomes) <= {Disposition.ANSWERED, Disposition.UNANSWERED}
        received = smtp_server.received
        new, seen = received[seen:], len(received)
        replies = []
        for item in new:
            msg = message_from_bytes(item.data, policy=default)
            if msg["In-Reply-To"]:
                part = msg.get_body(preferencelist=("plain",))
                assert part is not None
                text = str(part.get_content())  # type: ignore[attr-defined]
                replies.append(unwrapped(text.replace("\r\n", "\n")))
            else:
                notices[tuple(item.rcpt_tos)].append(str(msg["Subject"]))
        return replies

    notices: dict[tuple[str, ...], list[str]] = defaultdict(list)
    await run((GM, SETUP))
    notices.clear()

    for hour in range(3):  # the attack, repeated every hour from a new address
        mallory = f"mallory{hour}@example.net"
        guesses = [(mallory, f"SIGNON France lock1 guess{hour}{n}\nA Par - Bur") for n in range(5)]
        guesses += [(f"m{hour}@example.net", f"SIGNON GM lock1 guess{hour}{n}\nPROCESS")
                    for n in range(5)]
        guesses += [(mallory, f"SIGNON Italy lock1 guess{hour}\nA Ven H")]
        replies = await run(*guesses)
        # each address gets three answers and a last one; the fifth wrong password, and the
        # refused sign-on to Italy, get none
        assert sum("Wrong password for France in lock1." in r for r in replies) == 4
        assert sum("Wrong GM password for lock1." in r for r in replies) == 4
        assert len(replies) == 8
        assert sum("further wrong passwords from this address are not answered" in r
                   for r in replies) == 2
        assert not any("processed" in r or "  ->" in r for r in replies)
        # the guesser is now refused whatever the password, and not answered
        assert await run((mallory, "SIGNON France lock1 pwfrance\nA Par - Bur")) == []
        # the real player, from the registered address, gets in and orders
        move = f"A Par - {['Bur', 'Pic', 'Gas'][hour]}"
        (reply,) = await run((PLAYERS["France"], f"SIGNON France lock1 pwfrance\n{move}"))
        assert "Signed on as France in lock1." in reply and f"{move}  ->" in reply
        clock.advance(timedelta(hours=1, minutes=1))

    # the player and the GM were told once per burst of wrong passwords
    def told(to: str, about: str) -> int:
        return sum(s.endswith(f"wrong passwords for {about}") for s in notices[(to,)])

    assert told(PLAYERS["France"], "France") == len(notices[(PLAYERS["France"],)]) == 3
    assert told(GM, "France") == 3 and told(GM, "the GM") == 3
    # and of each address whose wrong passwords are no longer answered, once
    assert sorted(s.split(": ", 1)[-1] for s in notices[(GM,)] if " from " in s) == sorted(
        f"wrong passwords from {a}{h}@example.net" for h in range(3) for a in ("mallory", "m"))
    assert not notices[(PLAYERS["Italy"],)]
    with database.read() as s:
        game = games_repo.find_game(s, "lock1")
        assert game is not None
        phase = phases_repo.history(s, game.id)[-1]
        assert not phase.adjudicated  # no forged PROCESS went through
        sets = orders_repo.order_sets(s, phase.id)
        # only the player's three sets of orders were taken
        assert [(o.power, [ln.text for ln in o.lines]) for o in sets] == [
            ("France", ["A Par - Bur"]), ("France", ["A Par - Pic"]), ("France", ["A Par - Gas"])]

    # spread over many addresses the GM is slowed from elsewhere, never from its own address
    many = [(f"botnet{n}@example.net", f"SIGNON GM lock1 guess{n}\nPROCESS") for n in range(5)]
    replies = await run(*many)
    assert sum("Wrong GM password for lock1." in r for r in replies) == 5
    assert told(GM, "the GM") == 4
    (reply,) = await run(("botnet5@example.net", "SIGNON GM lock1 guess5\nPROCESS"))
    assert "Sign-ons to the GM in lock1 are slowed" in reply
    (reply,) = await run((GM, "SIGNON GM lock1 gmpass\nPREVIEW"))
    assert "Signed on as the GM of lock1." in reply
    (reply,) = await run(("gm-travelling@example.org", "SIGNON GM lock1 gmpass\nPREVIEW"))
    assert "Sign-ons to the GM in lock1 are slowed" in reply and "UNLOCK GM" in reply
    (reply,) = await run((GM, "SIGNON GM lock1 gmpass\nUNLOCK GM"))
    assert "no longer throttled" in reply
    (reply,) = await run(("gm-travelling@example.org", "SIGNON GM lock1 gmpass\nPROCESS"))
    assert "Signed on as the GM of lock1." in reply and "processed" in reply


def test_the_operator_lifts_the_throttling(migrated_url: str, database: Database,
                                           tmp_path: Path) -> None:
    """`gm unlock GAME POWER`, as an operator runs it (its own process, a configuration
    file), forgets the wrong passwords counted for a power."""
    send_all(database, tmp_path, GM, SETUP.replace("lock1", "lock2"))
    clock = FixedClock(START)
    for n in range(5):  # from five addresses: each is answered
        send_all(database, tmp_path, f"mallory{n}@example.net", f"SIGNON France lock2 guess{n}",
                 clock)
    reply = send_all(database, tmp_path, "france@work.example", "SIGNON France lock2 pwfrance",
                     clock)[0]
    assert "Sign-ons to France in lock2 are slowed" in reply
    config = tmp_path / "gm.toml"
    config.write_text(f'database_url = "{migrated_url}"\naddress = "{SERVICE}"\n'
                      f'operator = "postmaster@example.org"\n[maildir]\n'
                      f'inbox = "{tmp_path / "inbox"}"\noutbox = "{tmp_path / "outbox"}"\n')
    env = clean_env()

    def gm(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "gm", "unlock", *args, "--config",
                               str(config)], capture_output=True, text=True, env=env,
                              timeout=120)

    wrong = gm("lock2", "Frnace")
    assert wrong.returncode == 1 and "'Frnace' is not a power of lock2" in wrong.stderr
    assert gm("nosuchgame").returncode == 1
    done = gm("lock2", "France")
    assert done.returncode == 0, done.stderr
    assert "sign-ons to France in lock2 are no longer throttled" in done.stdout
    reply = send_all(database, tmp_path, "france@work.example", "SIGNON France lock2 pwfrance",
                     clock)[0]
    assert "Signed on as France in lock2." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "lock2")
        assert game is not None
        (entry,) = audit.audit_log(s, game_id=game.id, action="signon_unlocked")
    assert entry.actor == "postmaster@example.org" and entry.details == {"power": "France"}


async def test_wrong_passwords_forged_from_a_players_address_get_four_answers(
        database: Database, tmp_path: Path, dovecot: DovecotServer,
        imap_account: ImapAccount, smtp_server: SmtpServer) -> None:
    """Thirty wrong passwords forged as from France's registered address (which is never
    refused, so that its player always gets in): France's address gets three answers and a
    last one saying further wrong passwords are not answered for an hour, the GM is told
    once; the player's right password from it works at once, and is answered."""
    table = ImapService(database, tmp_path, dovecot, imap_account, smtp_server)
    france = PLAYERS["France"]
    assert await table.run(message(GM, SETUP.replace("lock1", "lock3"))) == [
        Disposition.ANSWERED]
    table.new_mail()
    outcomes = []
    for n in range(30):
        outcomes += await table.run(message(france, f"SIGNON France lock3 forged{n}\nA Par H"))
        table.clock.advance(timedelta(seconds=30))
    assert outcomes == [Disposition.ANSWERED] * 4 + [Disposition.UNANSWERED] * 26
    sent = table.new_mail()
    replies = [m for m in sent if m.is_reply]
    assert [m.recipients for m in replies] == [(france,)] * 4
    assert all("Wrong password for France in lock3." in m.text for m in replies)
    last = " ".join(replies[-1].text.split())
    assert f"That is 4 wrong passwords from {france} within 60 minutes" in last
    assert "further wrong passwords from this address are not answered until" in last
    assert not any("not answered" in m.text for m in replies[:3])
    # the GM is told once, of the address, the power and the count
    (told,) = [m for m in sent if m.recipients == (GM,) and " from " in m.subject]
    assert told.subject == f"[lock3]: wrong passwords from {france}"
    text = " ".join(told.text.split())
    assert (f"{france} sent 4 wrong passwords within 60 minutes, the last for "
            "France in lock3") in text
    assert "The right password from France's registered address still works at once" in text
    assert all(max(map(len, m.text.splitlines())) <= 78 for m in (told, replies[-1]))
    # the player's own password, from the same address, works at once and is answered
    assert await table.run(message(france, "SIGNON France lock3 pwfrance\nA Par - Bur")) == [
        Disposition.ANSWERED]
    (reply,) = [m for m in table.new_mail() if m.is_reply]
    assert "Signed on as France in lock3." in reply.text and "A Par - Bur" in reply.text
    # a wrong password and then the right one in one message: answered
    assert await table.run(message(
        france, "SIGNON France lock3 forged\nSIGNON France lock3 pwfrance\nA Par - Pic")) == [
        Disposition.ANSWERED]
    (reply,) = [m for m in table.new_mail() if m.is_reply]
    assert "Signed on as France in lock3." in reply.text
    # an hour after the last answer, wrong passwords are answered again
    table.clock.advance(timedelta(hours=1))
    assert await table.run(message(france, "SIGNON France lock3 typo\nA Par H")) == [
        Disposition.ANSWERED]
    (reply,) = [m for m in table.new_mail() if m.is_reply]
    assert "Wrong password for France in lock3." in reply.text
