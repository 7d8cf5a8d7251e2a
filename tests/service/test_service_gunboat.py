"""Gunboat (QUIET) games, REVEAL, HISTORY ranges with their broadcasts and SUMMARY's players
over time and centres by year, by mail through the real service (Maildir inbox and outbox,
`Service.once`), on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from gm.mail.maildir import ensure_maildir
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.service.tick import TickSummary, Why, tick
from gm.store.db import Database
from tests.support.service_support import (
    SPRING_1901,
    START,
    maildir_config,
    message,
    unwrapped,
)

GM = "Gus Master <gus.master@gm-host.test>"
GM_ADDRESS = "gus.master@gm-host.test"
# Each player a name, a mailbox and a domain of their own, none of them a power's name, so that
# any trace of one in another's mail is found.
PLAYERS = {
    "Austria": ("Anna Karenina", "anna.k@alpha-mail.test"),
    "England": ("Boris Godunov", "boris.g@bravo-mail.test"),
    "France": ("Clara Schumann", "clara.s@charlie-mail.test"),
    "Germany": ("Dmitri Ivanov", "dmitri.i@delta-mail.test"),
    "Italy": ("Elena Ferrante", "elena.f@echo-mail.test"),
    "Russia": ("Fyodor Karamazov", "fyodor.k@foxtrot-mail.test"),
    "Turkey": ("Greta Garbo", "greta.g@golf-mail.test"),
}
NEW_AUSTRIA = ("Hugo Boss", "hugo.b@hotel-mail.test")
NEW_RUSSIA = ("Ivan Petrov", "ivan.p@india-mail.test")  # stands by, then takes Russia
EVERYONE = {**PLAYERS, "Austria (new)": NEW_AUSTRIA, "Russia (new)": NEW_RUSSIA}


def _from(power: str) -> str:
    name, address = PLAYERS[power]
    return f"{name} <{address}>"


def _traces(name: str, address: str) -> list[str]:
    """What would give a player away: their address, its mailbox, its domain, their names."""
    mailbox, domain = address.split("@")
    return [address, mailbox, domain, *name.split()]


class Mail:
    """The service over Maildirs: send a message, run one pass, read what came out since."""

    def __init__(self, db: Database, root: Path) -> None:
        self.config = maildir_config(root)
        self.db = db
        self.clock = FixedClock(START)
        self.seen: set[str] = set()
        self.serial = 0
        self.everything: list[tuple[str, EmailMessage]] = []
        ensure_maildir(self.config.maildir.inbox)

    async def tick(self) -> TickSummary:
        """The running service's tick, after it has read its (empty) inbox up to now."""
        await Service(self.db, self.config, clock=self.clock).once()
        return tick(self.db, config=self.config, clock=self.clock)

    async def send(self, sender: str, body: str, *,
                   answered: bool = True) -> list[tuple[str, EmailMessage]]:
        self.serial += 1
        name = f"{self.serial:06d}.test.localhost"
        inbox = self.config.maildir.inbox
        (inbox / "tmp" / name).write_bytes(message(sender, body))
        (inbox / "tmp" / name).rename(inbox / "new" / name)
        done = await Service(self.db, self.config, clock=self.clock).once()
        assert [r.outcome for r in done] == [
            Disposition.ANSWERED if answered else Disposition.UNANSWERED]
        out = []
        for path in sorted((self.config.maildir.outbox / "new").iterdir()):
            if path.name not in self.seen:
                self.seen.add(path.name)
                msg = message_from_bytes(path.read_bytes(), policy=default)
                assert isinstance(msg, EmailMessage)
                to = str(msg["To"]).split("<")[-1].strip("<> ")
                out.append((to, msg))
                self.everything.append((to, msg))
        return out

    async def reply(self, sender: str, body: str) -> str:
        """The text of the reply to `sender`'s message."""
        address = sender.split("<")[-1].strip("<> ")
        replies = [m for to, m in await self.send(sender, body)
                   if to == address and m["In-Reply-To"]]
        assert len(replies) == 1
        return _text(replies[0])


def _readable(msg: EmailMessage) -> str:
    """Everything a reader of `msg` sees: every header of it and of its parts, every text part
    (attachments' names, not their encoded bytes)."""
    out = []
    for part in msg.walk():
        out.extend(f"{name}: {value}" for name, value in part.items())
        if part.get_content_maintype() == "text":
            out.append(str(part.get_content()))
        elif part.get_filename():
            out.append(str(part.get_filename()))
    return "\n".join(out)


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return unwrapped(str(part.get_content()))


async def _game(mail: Mail, *settings: str) -> None:
    setup = "\n".join(
        ["CREATE theta standard gmpass"]
        + [f"ADD {power} {address} pw{power.lower()}" for power, (_, address) in PLAYERS.items()]
        + ["SET EARLY OFF", *settings, "START"])
    assert "theta has started" in await mail.reply(GM, setup)


async def _order(mail: Mail, power: str, lines: list[str]) -> str:
    return await mail.reply(_from(power), "\n".join([f"SIGNON {power} theta pw{power.lower()}",
                                                     *lines]))


async def _process(mail: Mail) -> str:
    return await mail.reply(GM, "SIGNON GM theta gmpass\nPROCESS")


async def _broadcast(mail: Mail, power: str, text: str, *, grey: bool = False) -> None:
    kind = "GREY BROADCAST" if grey else "BROADCAST"
    reply = await _order(mail, power, [kind, text, "ENDPRESS"])
    assert "press sent to" in reply.lower(), reply


async def _played_year(mail: Mail) -> None:
    """Press in Spring 1901, a replacement of Austria, Spring and Fall 1901 and the Winter
    adjustments processed: the game is in Spring 1902."""
    await _order(mail, "England", ["PRESS TO France", "An alliance in the west?", "ENDPRESS"])
    await _broadcast(mail, "Germany", "Peace in our time.")
    await _broadcast(mail, "Italy", "Someone is lying.", grey=True)
    for power, orders in SPRING_1901.items():
        await _order(mail, power, orders)
    assert "Fall 1901, Movement" in await _process(mail)
    await mail.reply(GM, f"SIGNON GM theta gmpass\nREPLACE Austria {NEW_AUSTRIA[1]} pwnew")
    await _broadcast(mail, "Russia", "Autumn greetings.")
    assert "you stand by for theta" in (await mail.reply(f"{NEW_RUSSIA[0]} <{NEW_RUSSIA[1]}>",
                                              "STANDBY theta")).lower()
    reply = await mail.reply(GM, "SIGNON GM theta gmpass\nEJECT Russia\nREPLACE Russia STANDBY")
    assert f"{NEW_RUSSIA[1]} now plays Russia" in reply, reply
    await _process(mail)  # Fall 1901: every unit holds where it is
    assert "Spring 1902, Movement" in await _process(mail)  # Winter: builds waived


async def test_no_player_sees_another_in_a_quiet_game(database: Database,
                                                      tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail, "SET QUIET")
    await _played_year(mail)
    for _ in range(4):  # France guesses England's password: England is told, not by whom
        await mail.reply(_from("France"), "SIGNON England theta guess")
    # (the fourth answer was the last: wrong passwords from France go unanswered a while)
    await mail.send(_from("France"), "SIGNON England theta guess", answered=False)
    warned = {to: _text(m) for to, m in mail.everything
              if "wrong passwords for England" in str(m["Subject"])}
    assert set(warned) == {PLAYERS["England"][1], GM_ADDRESS}
    assert "the last from an address not shown in this QUIET game" in " ".join(
        warned[PLAYERS["England"][1]].split())
    assert f"the last from {PLAYERS['France'][1]}" in " ".join(warned[GM_ADDRESS].split())
    for power in PLAYERS:
        sender = {"Austria": f"{NEW_AUSTRIA[0]} <{NEW_AUSTRIA[1]}>",
                  "Russia": f"{NEW_RUSSIA[0]} <{NEW_RUSSIA[1]}>"}.get(power, _from(power))
        signon = {"Austria": ["SIGNON Austria theta pwnew"],  # Russia's password: unknown
                  "Russia": []}.get(power, [f"SIGNON {power} theta pw{power.lower()}"])
        reply = await mail.reply(sender, "\n".join(
            [*signon, "SUMMARY theta", "LIST theta", "HISTORY theta", "HISTORY theta LAST 2",
             "HISTORY theta S1901M TO F1901M", "HELP"]))
        # numbered across the game, one number a seat: the seats from the start by power,
        # then the later ones as they began
        assert "Players:\n  Austria: player 1 from the start; player 8 from Fall 1901, " \
               "Movement (REPLACE)\n" in reply, reply
        assert "  England: player 2 from the start\n" in reply
        assert ("  Russia: player 6 from the start; nobody from Fall 1901, Movement (EJECT); "
                "player 9 from Fall 1901, Movement (STANDBY)\n") in reply
        assert "Broadcast from Germany:\n    Peace in our time." in reply
        assert "Grey broadcast:\n    Someone is lying." in reply
    # every player's mail, headers and all: no other player's address, mailbox, domain or name
    players = {address: (name, address) for name, address in EVERYONE.values()}
    checked = 0
    for to, msg in mail.everything:
        if to not in players:
            continue
        whole = _readable(msg).lower()
        for other, (name, address) in players.items():
            if other == to:
                continue
            for trace in _traces(name, address):
                assert trace.lower() not in whole, (to, trace, str(msg["Subject"]))
        checked += 1
    assert checked > 60
    # the GM sees who is who, and who sent the grey press
    reply = await mail.reply(GM, "SIGNON GM theta gmpass\nSUMMARY theta\nHISTORY theta S1901M")
    assert (f"  Austria: {PLAYERS['Austria'][1]} from the start; {NEW_AUSTRIA[1]} from Fall "
            "1901, Movement (REPLACE)") in reply
    assert (f"  Russia: {PLAYERS['Russia'][1]} from the start; nobody from Fall 1901, "
            f"Movement (EJECT); {NEW_RUSSIA[1]} from Fall 1901, Movement (STANDBY)") in reply
    assert "Grey broadcast, sent by Italy:\n    Someone is lying." in reply
    gm_press = [m for to, m in mail.everything
                if to == GM_ADDRESS and "grey press" in str(m["Subject"])]
    assert gm_press and "sent by Italy" in _text(gm_press[0])


async def test_reveal_tells_the_players_who_played_what(database: Database,
                                                        tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail, "SET GUNBOAT")
    france = _from("France")
    reply = await mail.reply(france, "SUMMARY theta")
    assert "theta: Standard, active" in reply and "QUIET" in reply
    assert "  England: player 2 from the start" in reply
    assert PLAYERS["England"][1] not in reply
    reply = await _order(mail, "France", ["REVEAL"])
    assert "REVEAL: refused, only the game's GM may do this" in reply
    out = await mail.send(GM, "SIGNON GM theta gmpass\nREVEAL")
    told = {to: _text(m) for to, m in out if "who played what" in str(m["Subject"])}
    assert set(told) == {a for _, a in PLAYERS.values()} | {GM_ADDRESS}
    assert f"  England: {PLAYERS['England'][1]} from the start" in told[PLAYERS["France"][1]]
    reply = await mail.reply(france, "SUMMARY theta")
    assert f"  England: {PLAYERS['England'][1]} from the start" in reply
    assert "QUIET, revealed" in reply
    # SET NO QUIET / SET QUIET, and REVEAL of a game that is not quiet
    reply = await mail.reply(GM, "SIGNON GM theta gmpass\nSET NO GUNBOAT\nREVEAL\nSET QUIET x")
    assert "theta is no longer QUIET" in reply
    assert "REVEAL: theta is not QUIET" in reply
    assert "SET QUIET takes nothing after it" in reply and '"SET QUIET x"' in reply
    assert PLAYERS["England"][1] in await mail.reply(france, "SUMMARY theta")
    # quiet again after the start (and after a REVEAL): hidden again
    assert "theta is QUIET (gunboat)" in await mail.reply(GM, "SIGNON GM theta gmpass\n"
                                                             "SET QUIET")
    reply = await mail.reply(france, "SUMMARY theta")
    assert PLAYERS["England"][1] not in reply and "  England: player 2 from the start" in reply


async def test_summary_tells_of_civil_disorder_at_a_deadline(database: Database,
                                                             tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail, "SET QUIET", "SET LATE DISORDER")
    for power, orders in SPRING_1901.items():
        if power != "Turkey":
            await _order(mail, power, orders)
    mail.clock.advance(timedelta(hours=73))
    assert (await mail.tick()).adjudicated == [
        ("theta", "Spring 1901, Movement", Why.LATE)]
    reply = await mail.reply(_from("France"), "SUMMARY theta")
    assert "  Turkey: player 7 from the start; civil disorder in Spring 1901, Movement\n" in reply
    reply = await mail.reply(GM, "SUMMARY theta")
    assert (f"  Turkey: {PLAYERS['Turkey'][1]} from the start; civil disorder in Spring 1901, "
            "Movement\n") in reply


async def test_players_see_one_another_in_a_game_that_is_not_quiet(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail)
    reply = await mail.reply(_from("France"), "SUMMARY theta")
    assert f"  England: {PLAYERS['England'][1]} from the start" in reply
    assert "QUIET" not in reply
    reply = await mail.reply("visitor@outside.test", "SUMMARY theta")  # not one of the game
    assert "  England: player 2 from the start" in reply and "bravo" not in reply


async def test_a_quiet_game_is_revealed_at_its_end(database: Database,
                                                   tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail, "SET QUIET")
    assert PLAYERS["England"][1] not in await mail.reply(_from("France"), "SUMMARY theta")
    await mail.reply(GM, "SIGNON GM theta gmpass\nTERMINATE")
    reply = await mail.reply(_from("France"), "SUMMARY theta")
    assert f"  England: {PLAYERS['England'][1]} from the start" in reply


async def test_summary_counts_centres_by_year(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail, "SET QUIET")
    await _played_year(mail)
    reply = await mail.reply("visitor@outside.test", "SUMMARY theta")
    assert ("Supply centres at the end of each year:\n"
            "  start: Austria 3, England 3, France 3, Germany 3, Italy 3, Russia 4, Turkey 3\n"
            "  1901: Austria 4, England 3, France 4, Germany 4, Italy 3, Russia 4, Turkey 4\n"
            ) in reply, reply


async def test_history_gives_a_range_of_phases_with_their_broadcasts(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail)
    await _played_year(mail)
    england = _from("England")
    reply = await mail.reply(england, "HISTORY theta S1901M TO F1901M")
    assert "\nSpring 1901, Movement\n  Austria:\n    A Vie - Gal" in reply
    assert "\nFall 1901, Movement\n" in reply and "Winter 1901" not in reply
    spring, fall = reply.split("\nFall 1901, Movement\n")
    assert "Broadcast from Germany:\n    Peace in our time." in spring
    assert "Grey broadcast:\n    Someone is lying." in spring
    assert "An alliance in the west?" not in reply  # not a broadcast
    assert "Broadcast from Russia:\n    Autumn greetings." in fall
    # the same range backwards, FROM, LAST
    assert await mail.reply(england, "HISTORY theta FROM F1901M TO S1901M") == reply
    reply = await mail.reply(england, "HISTORY theta FROM Fall 1901, Movement")
    assert "Autumn greetings." in reply and "Peace in our time." not in reply
    assert "Spring 1902, Movement: open for orders" in reply
    reply = await mail.reply(england, "HISTORY theta LAST 2")
    assert re.findall(r"^(\w+ \d{4}, \w+)", reply, re.M) == [
        "Winter 1901, Adjustment", "Spring 1902, Movement"]
    # outsiders get the results without the press
    reply = await mail.reply("visitor@outside.test", "HISTORY theta S1901M TO F1901M")
    assert "A Vie - Gal" in reply and "Peace in our time." not in reply
    assert "Broadcast press is shown to the game's players and GM" in reply
    # bad ranges are answered, quoting what was asked
    reply = await mail.reply(england, "HISTORY theta S1901M TO F1909M\nHISTORY theta LAST 0\n"
                                      "HISTORY theta LAST many")
    assert "HISTORY: theta has no phase 'F1909M'" in reply
    assert "'HISTORY theta LAST 0' asks for no phases" in reply
    assert 'Cannot read "HISTORY theta LAST many"' in reply and "LAST 4" in reply


async def test_a_long_history_is_cut_and_says_so(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _game(mail)
    long_text = "\n".join(f"Line {i} of a long speech about the balance of power." for i in
                          range(400))  # about 22000 characters
    await _broadcast(mail, "Germany", long_text)
    await _process(mail)
    await _broadcast(mail, "France", long_text)
    await _process(mail)
    reply = await mail.reply(_from("England"), "HISTORY theta")
    assert reply.count("Line 399 of a long speech") == 1
    assert ("(Cut here: a reply holds at most 30000 characters of history. HISTORY theta FROM "
            "Fall 1901, Movement gives the rest.)") in " ".join(reply.split())
    reply = await mail.reply(_from("England"), "HISTORY theta FROM Fall 1901, Movement")
    assert "Broadcast from France:" in reply and "Cut here" not in reply
