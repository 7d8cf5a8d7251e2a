"""gm is no amplifier: a small message, from any address (a forged sender's), cannot make the
service mail out much more than it was sent. Through the real service (Maildir in and out,
`Service.once`, the game-by-mail harness): repeated lines answered once, a cap on the answers,
bytes and files of one reply (the rest named, to be asked for again), the default rate limit,
a cap on the games not yet started one address may create. What each reply says is asserted,
with what was (and was not) stored and what went out."""

from __future__ import annotations

import dataclasses
from email.message import Message
from pathlib import Path

from gm.config import DEFAULT_RATE_LIMIT, Config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus, InboundStatus
from tests.support.mail_table import MailTable
from tests.support.service_support import (
    GM,
    PLAYERS,
    START,
    deliver,
    maildir_config,
    message,
    text_of,
)

STRANGER = "victim@example.net"  # a forged sender: replies go to whoever it names
LINES = 1999


def table(database: Database, tmp_path: Path, **settings: int) -> MailTable:
    config = dataclasses.replace(maildir_config(tmp_path), **settings)
    return MailTable(database, config, "g1", PLAYERS, reporter="England")


def files(mail: Message) -> list[str]:
    return [str(p.get_filename()) for p in mail.walk() if p.get_filename()]


def outbox_bytes(mt: MailTable) -> list[int]:
    folder = mt.config.maildir.outbox / "new"
    return [p.stat().st_size for p in sorted(folder.iterdir())]


async def test_two_thousand_maps_are_one_map(database: Database, tmp_path: Path) -> None:
    mt = table(database, tmp_path)
    await mt.start("standard")
    before = len(mt.outbox())
    reply = await mt.send(STRANGER, "\n".join(["MAP g1"] * LINES))
    text = text_of(reply)
    assert text.count("The map of g1 now (Spring 1901, Movement) is attached") == 1
    assert f"line 1: MAP g1: repeated {LINES} times in this message, answered once." in text
    assert files(reply) == ["g1-spring-1901-movement.png", "g1-spring-1901-movement.svg"]
    assert len(mt.outbox()) == before + 1  # the reply alone
    assert outbox_bytes(mt)[-1] < 400_000  # one map, where 1,999 were 332 MB
    # the next message is answered as usual
    after = text_of(await mt.send(PLAYERS["France"], "MAP g1"))
    assert "The map of g1 now" in after and "repeated" not in after


async def test_help_two_thousand_times_is_answered_once(database: Database,
                                                        tmp_path: Path) -> None:
    mt = table(database, tmp_path)
    once = text_of(await mt.send(STRANGER, "HELP ORDERS"))
    reply = text_of(await mt.send(STRANGER, "\n".join(["help  orders"] * LINES)))
    assert reply.count("HELP ORDERS") == once.count("HELP ORDERS")
    assert f"repeated {LINES} times in this message, answered once." in reply
    assert len(reply) < len(once) + 200  # was 4.7 MB


async def test_lines_not_read_repeated_are_answered_once(database: Database,
                                                         tmp_path: Path) -> None:
    mt = table(database, tmp_path)
    reply = text_of(await mt.send(STRANGER, "\n".join(["SIGNON France"] * 500)))
    assert reply.count('Cannot read "SIGNON ******"') == 1  # masked: it may be a password
    assert "line 1: the same line came 500 times in this message; answered once, above." \
        in reply


async def test_answers_past_the_cap_are_named_not_run(database: Database,
                                                      tmp_path: Path) -> None:
    mt = table(database, tmp_path, max_reply_answers=3)
    await mt.start("standard")
    asked = ["LIST", "LIST g1", "SUMMARY g1", "HELP ORDERS", "HELP SET", "MAP g1"]
    reply = text_of(await mt.send(STRANGER, "\n".join(asked)))
    assert "These 3 lines were not answered: one reply carries at most 3 answers" in reply
    assert "Send them again in another message (a few at a time):" in reply
    for n, line in enumerate(asked[3:], start=4):
        assert f"    line {n}: {line}" in reply
    assert "HELP SET" not in reply.split("These 3 lines")[0]
    assert "The map of g1" not in reply  # not drawn, not attached
    # asked again, they are answered
    again = await mt.send(STRANGER, "\n".join(asked[3:]))
    assert "The map of g1 now" in text_of(again) and "not answered" not in text_of(again)


async def test_a_reply_holds_the_bytes_and_files_allowed(database: Database,
                                                         tmp_path: Path) -> None:
    mt = table(database, tmp_path, max_reply_files=2)
    await mt.start("standard")
    # the same map asked for in two wordings: two answers, four files; the second is left out
    reply = await mt.send(STRANGER, "MAP g1\nMAP g1 S1901M\nHELP SET")
    text = text_of(reply)
    assert len(files(reply)) == 2
    assert "This line was not answered" in text and "    line 2: MAP g1 S1901M" in text
    assert "SET PASSWORD <new>" in text  # HELP SET, no file, still fits
    mt = table(database, tmp_path / "bytes", max_reply_bytes=65536)
    mt.game = "g2"
    await mt.start("standard")
    reply = await mt.send(STRANGER, "HELP SET\nMAP g2\nHELP ORDERS")
    text = text_of(reply)
    assert files(reply) == []  # a map is more than 64 kB
    assert "line 2: MAP g2" in text and "64 kB" in text
    assert "HELP SET" in text and "HELP ORDERS" in text  # the answers that fit


async def test_the_default_caps(database: Database, tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path, address="judge@example.org", display_name="Judge",
                    maildir=maildir_config(tmp_path).maildir)
    assert (config.max_reply_bytes, config.max_reply_files, config.max_reply_answers,
            config.max_forming_games) == (1024 * 1024, 10, 20, 3)
    mt = MailTable(database, config, "g1", PLAYERS, reporter="England")
    lines = [f"HELP {topic}" for topic in (
        "SIGNON", "ORDERS", "PRESS", "SET", "GAMES", "GM", "DEADLINES", "RULEBOOK",
        "standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical", "MAP",
        "LIST", "JOIN", "CREATE", "OBSERVE", "HISTORY", "SUMMARY", "ADD")]
    reply = text_of(await mt.send(STRANGER, "\n".join(lines)))
    assert "These 2 lines were not answered: one reply carries at most 20 answers" in reply
    assert "    line 21: HELP SUMMARY" in reply and "    line 22: HELP ADD" in reply
    assert max(outbox_bytes(mt)) < 1024 * 1024 * 4 // 3 + 4096


# --------------------------------------------------------------------------------------------
# the rate limit


def test_the_default_rate_limit_holds_the_hundred_and_first(database: Database,
                                                            tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path, address="judge@example.org", display_name="Judge",
                    maildir=maildir_config(tmp_path).maildir)
    assert (config.rate_limit, config.rate_window) == (DEFAULT_RATE_LIMIT, 3600.0) == (100, 3600)
    clock = FixedClock(START)
    outcomes = [ingest(database, message(STRANGER, "LIST", subject=f"n{n}"), config=config,
                       clock=clock).outcome for n in range(103)]
    assert outcomes == [Disposition.ANSWERED] * 100 + [Disposition.HELD] * 3
    with database.read() as s:
        held = inbound_repo.list_inbound(s, status=InboundStatus.HELD)
    assert len(held) == 3 and all("more than 100 messages" in (r.error or "") for r in held)
    # another sender is answered
    other = ingest(database, message(GM, "LIST"), config=config, clock=clock)
    assert other.outcome is Disposition.ANSWERED


# --------------------------------------------------------------------------------------------
# CREATE: games not yet started per address


async def test_create_is_capped_per_address(database: Database, tmp_path: Path) -> None:
    mt = table(database, tmp_path, max_forming_games=3)
    body = "\n".join(f"CREATE game{n} standard pw{n}" for n in range(LINES))
    reply = text_of(await mt.send(STRANGER, body))
    for n in range(3):
        assert f"Game game{n} (Standard) created; you are its GM." in reply
    assert (f"CREATE game3: refused, {STRANGER} has 3 games not yet started (game0, game1, "
            "game2), the most one address may have here.") in reply
    assert f"CREATE: {LINES - 4} more games refused the same way (game4, game5," in reply
    assert len(reply) < 3000
    with database.read() as s:
        stored = [g.name for g in games_repo.list_games(s)]
    assert stored == ["game0", "game1", "game2"]
    # others may still create; the same address once a game of its has started
    assert "Game other (Standard) created" in text_of(
        await mt.send(GM, "CREATE other standard gmpw"))
    lines = ["SIGNON GM game0 pw0"] + [f"ADD {p} {a} pw{p}" for p, a in PLAYERS.items()]
    await mt.send(STRANGER, "\n".join([*lines, "START"]))
    with database.read() as s:
        game0 = games_repo.find_game(s, "game0")
        assert game0 is not None and game0.status is GameStatus.ACTIVE
    assert "Game game4 (Standard) created" in text_of(
        await mt.send(STRANGER, "CREATE game4 standard pw4"))
    deliver(mt.config.maildir.inbox, message(STRANGER, "CREATE game5 standard pw5"))
    assert await mt.run() == [Disposition.ANSWERED]
    with database.read() as s:
        assert games_repo.find_game(s, "game5") is None
