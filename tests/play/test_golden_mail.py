"""Golden mail: for each variant a whole scripted game by email (the GM seats the players, one
of them without a password, and starts the game; players order, misorder, order without
signing on and after the deadline; reminders, reports, the GM's copies and the end of the game)
through the real Maildir inbox and outbox, service, store and tick. Every mail sent is written
as text to tests/golden/<variant>.txt and compared byte for byte with the file kept there, so
any change of wording shows in review as a change of that file.

A change of wording that is meant: regenerate the files and review their diff,

    GM_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/play/test_golden_mail.py -q

Every mail of every game is also held to the rules every text the service writes follows
(`mail_faults`): no line longer than 78 characters, no number with the wrong plural
(`1 centres`, `2 unit`).

The files hold the plain-text part of each message (the HTML alternative and the attachments
are named, not shown); mails with the same subject and text sent one after the other are
written once with all their recipients; the password the service made for the player seated
without one is written `<password made by the service>`."""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest

from gm.engine.state import GameState
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.variants import get_variant
from tests.support.service_support import GM, START, deliver, maildir_config, message

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"
WIDTH = 78
MADE = "<password made by the service>"

# a count and the noun it counts: `1 centres` and `3 unit` are wrong
_PLURAL = re.compile(
    r"\b(\d+) (centres?|units?|builds?|removals?|powers?|orders?|players?|phases?|days?|"
    r"hours?|minutes?|lines?|messages?|votes?|spaces?|armies|army|fleets?|provinces?)\b")


def mail_faults(text: str) -> list[str]:
    """What in a mail's text breaks the rules every mail follows: lines over 78 characters,
    counts with the wrong plural."""
    faults = []
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > WIDTH:
            faults.append(f"line {number} has {len(line)} characters: {line!r}")
        for count, noun in _PLURAL.findall(line):
            singular = noun in ("centre", "unit", "build", "removal", "power", "order",
                                "player", "phase", "day", "hour", "minute", "line",
                                "message", "vote", "space", "army", "fleet", "province")
            if (count == "1") != singular:
                faults.append(f"line {number}: {count} {noun}: {line!r}")
    return faults


@dataclass
class Script:
    """A variant's scripted game: what its players send in the first two phases."""

    variant: str
    first: Mapping[str, Sequence[str]]  # orders with SIGNON, by power
    unsigned: tuple[str, Sequence[str]]  # a power's orders sent without a SIGNON line
    late: tuple[str, Sequence[str]]  # orders sent after the deadline, before the tick
    second: Mapping[str, Sequence[str]] = field(default_factory=dict)
    end: str = "terminate"  # or "draw": every survivor votes for a draw


SCRIPTS = {
    "standard": Script(
        "standard",
        first={"England": ["PRESS TO France", "Shall we leave the Channel empty?", "ENDPRESS",
                           "F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
               "France": ["GREY PRESS TO England", "Agreed.", "ENDPRESS",
                          "A Par - Bur", "F Mar - Spa", "F Bre - MAO", "Build A Par"],
               "Austria": ["A Vie - Tyr", "A Bud - Ser", "F Tri H"],
               "Russia": ["A War - Gal", "A Mos - Xyz"]},
        unsigned=("Italy", ["A Ven - Tyr", "A Rom - Ven"]),
        late=("Germany", ["A Ber - Sil"]),
        second={"England": ["F NTH - Nwy", "F NWG H", "A Yor H"],
                "France": ["A Bur - Bel", "A Spa - Por", "F MAO - Spa/nc"],
                "Austria": ["F Tri - Ven", "A Tyr S F Tri - Ven", "A Ser H"]},
        end="draw"),
    "deluge2": Script(
        "deluge2",
        first={"England": ["Build F Lon", "Build F Edi", "Build A Lvp"],
               "France": ["Build A Par", "Build A Mar", "Build F Bre"],
               "Austria": ["Build A Vie", "Build A Bud", "Build A Par"]},
        unsigned=("Italy", ["Build A Ven"]),
        late=("Germany", ["Build A Ber"]),
        second={"England": ["F Lon - NTH", "A Lvp - Yor"],
                "France": ["A Par - Bur", "A Mar - Spa"]}),
    "sahara": Script(
        "sahara",
        first={"England": ["F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
               "France": ["A Par - Bur", "A Mar - Spa", "F Bre - MAO"],
               "Italy": ["F Nap - ION", "F Nap no change"]},
        unsigned=("Turkey", ["A Con - Bul"]),
        late=("Germany", ["A Ber - Kie"]),
        second={"England": ["F NTH - Nwy"], "Italy": ["F ION - Tun"]}),
    "abstraction2": Script(
        "abstraction2",
        first={"England": ["F Lon - ENG", "A Lvp - Yor", "F Edi - NTH"],
               "France": ["A Par - Pic", "F Bre - MAO", "A Lyo - Xyz"]},
        unsigned=("Germany", ["A Ber - Pru"]),
        late=("Austria", ["A Vie - Boh"]),
        second={"England": ["F ENG - Bel"]}),
    "chaos2": Script(
        "chaos2",
        first={"Paris": ["Build A Par", "Home Bel"],
               "London": ["Build F Lon"],
               "Munich": ["Build F Mun"],
               "St Petersburg": ["Build F StP/nc"]},
        unsigned=("Rome", ["Build A Rom"]),
        late=("Berlin", ["Build A Ber"]),
        second={"Paris": ["A Par - Bur"], "London": ["F Lon - NTH"]}),
    "geophysical": Script(
        "geophysical",
        first={"Turkey": ["Erode Mos", "A Con - Bul", "F Ank - BLA"],
               "England": ["Uplift NTH", "Uplift Mos", "F Lon - NTH", "A Lvp - Yor"],
               "Germany": ["Erode Boh", "A Mun - Ruh", "F Kie - Hol"],
               "Austria": ["Support German Erode Boh", "A Vie - Tyr"]},
        unsigned=("Russia", ["A Mos - StP"]),
        late=("France", ["A Par - Bur"]),
        second={"Germany": ["Erode Boh", "A Ruh - Bel"]}),
}


def _slug(power: str) -> str:
    return re.sub(r"[^a-z]+", "", power.lower())


def _address(power: str) -> str:
    return f"{_slug(power)}@example.org"


def _password(power: str) -> str:
    return f"pw{_slug(power)}"


class Table:
    """One game by email; every mail sent, as golden text."""

    def __init__(self, db: Database, tmp_path: Path, script: Script) -> None:
        self.db = db
        self.config = maildir_config(tmp_path)
        self.clock = FixedClock(START)
        self.script = script
        self.variant = get_variant(script.variant)
        self.powers = self.variant.power_names
        self.made = ""  # the password the service made for the first power
        self.seen: set[str] = set()
        self.out: list[str] = []
        self.texts: list[str] = []

    # -- sending
    async def send(self, sender: str, body: str, subject: str = "orders") -> None:
        shown = body.replace(self.made, MADE) if self.made else body
        self.out.append(f"######## {sender} sends ({subject}):\n"
                        + textwrap.indent(shown, "| ", lambda _: True))
        deliver(self.config.maildir.inbox, message(sender, body, subject=subject))
        done = await Service(self.db, self.config, clock=self.clock).once()
        assert [r.outcome for r in done] == [Disposition.ANSWERED], done
        self.collect()

    async def orders(self, power: str, lines: Sequence[str]) -> None:
        password = self.made if power == self.powers[0] else _password(power)
        await self.send(_address(power), "\n".join([f"SIGNON {power} g {password}", *lines]))

    async def tick(self, after: timedelta, what: str) -> None:
        self.clock.advance(after)
        self.out.append(f"######## {what}: the clock is {self.clock.now():%Y-%m-%d %H:%M} UTC, "
                        "the service ticks")
        # the running service has read its (empty) inbox up to now, as it does all the time
        await Service(self.db, self.config, clock=self.clock).once()
        tick(self.db, config=self.config, clock=self.clock)

    async def ticked(self) -> None:
        await Service(self.db, self.config, clock=self.clock).once()  # sends what tick queued
        self.collect()

    def state(self) -> tuple[GameState, timedelta]:
        """The current position, and the time left until its deadline."""
        with self.db.read() as s:
            game = games_repo.find_game(s, "g")
            assert game is not None
            phase = phases_repo.current_phase(s, game.id)
            assert phase is not None and phase.deadline_at is not None
            return phase.state, phase.deadline_at - self.clock.now()

    # -- what was sent
    def collect(self) -> None:
        """The mail sent since the last call, in a stable order (by recipient, then subject:
        mail queued together may be sent in any order); the same text to several recipients
        once."""
        sent: list[tuple[str, str, str]] = []
        for path in sorted((self.config.maildir.outbox / "new").iterdir()):
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            msg = message_from_bytes(path.read_bytes(), policy=default)
            assert isinstance(msg, EmailMessage)
            text, parts = self._text(msg)
            head = f"Subject: {msg['Subject']}\n" + "".join(f"{p}\n" for p in parts)
            sent += [(a.strip(), head, text) for a in str(msg["To"]).split(",")]
        entries: dict[tuple[str, str], list[str]] = {}
        for to, head, text in sorted(sent):
            entries.setdefault((head, text), []).append(to)
        for (head, text), to in entries.items():
            self.out.append(textwrap.fill("==== To: " + ", ".join(to), WIDTH,
                                          subsequent_indent="  ", break_on_hyphens=False)
                            + "\n" + head + "\n" + text)

    def _text(self, msg: EmailMessage) -> tuple[str, list[str]]:
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        text = str(body.get_content())
        self.texts.append(text)
        if self.made:
            text = text.replace(self.made, MADE)
        found = re.search(rf"SIGNON {re.escape(self.powers[0])} g ([a-z0-9]{{10}})\b", text)
        if found and not self.made and found.group(1) != "password":
            self.made = found.group(1)
            text = text.replace(self.made, MADE)
        parts = []
        for part in msg.walk():
            kind = part.get_content_type()
            if part.get_filename():  # an attached HTML file is no HTML alternative
                parts.append(f"[attached: {part.get_filename()} ({kind})]")
            elif kind == "text/html":
                parts.append("[HTML alternative]")
        return text, parts

    def golden(self) -> str:
        return "\n".join(self.out).rstrip("\n") + "\n"


async def play(db: Database, tmp_path: Path, script: Script) -> Table:
    """The scripted game: seat, start, two phases with reminders and a late order, the end."""
    table = Table(db, tmp_path, script)
    powers = table.powers
    setup = ["CREATE g " + script.variant + " gmpass", f"ADD {powers[0]} {_address(powers[0])}"]
    setup += [f"ADD {p} {_address(p)} {_password(p)}" for p in powers[1:]]
    await table.send(GM, "\n".join([*setup, "START"]), subject="new game")
    assert table.made, "the player seated without a password was sent none"

    await table.orders(powers[0], [])
    for power, lines in script.first.items():
        await table.orders(power, lines)
    power, lines = script.unsigned
    await table.send(_address(power), "\n".join(lines))
    _, left = table.state()
    await table.tick(left - timedelta(hours=6), "six hours before the deadline")
    await table.ticked()
    table.clock.advance(timedelta(hours=6, minutes=5))
    power, lines = script.late
    await table.orders(power, lines)
    await table.tick(timedelta(minutes=1), "the deadline has passed")
    await table.ticked()

    for power, lines in script.second.items():
        await table.orders(power, lines)
    _, left = table.state()
    await table.tick(left + timedelta(minutes=1), "the deadline has passed")
    await table.ticked()

    if script.end == "draw":
        state, _ = table.state()
        for power in powers:
            if state.units_of(power) or state.centres_of(power):
                await table.orders(power, ["SET DRAW"])
    else:
        await table.send(GM, "SIGNON GM g gmpass\nTERMINATE", subject="the end")
    return table


# every game on SQLite; the standard game on PostgreSQL too, byte for byte the same mails
GAMES = [(variant, "sqlite") for variant in sorted(SCRIPTS)] + [("standard", "postgresql")]


@pytest.mark.parametrize(("variant", "backend"), GAMES)
async def test_golden_game(variant: str, database: Database, tmp_path: Path) -> None:
    table = await play(database, tmp_path, SCRIPTS[variant])
    faults = [f"mail {n}: {f}" for n, text in enumerate(table.texts, 1)
              for f in mail_faults(text)]
    path = GOLDEN / f"{variant}.txt"
    text = table.golden()
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no {path}: run with GM_UPDATE_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (f"the mails of the {variant} game differ from {path}; if the "
                              "change is meant, run with GM_UPDATE_GOLDEN=1 and review the diff")
    assert not faults, "\n".join(faults)


def test_mail_faults_are_found() -> None:
    assert mail_faults("Russia: 1 centres, 2 unit") == [
        "line 1: 1 centres: 'Russia: 1 centres, 2 unit'",
        "line 1: 2 unit: 'Russia: 1 centres, 2 unit'"]
    assert mail_faults("x" * 79) == [f"line 1 has 79 characters: {'x' * 79!r}"]
    assert mail_faults("Russia: 1 centre, 0 units; 2 builds\n" + "x" * 78) == []
