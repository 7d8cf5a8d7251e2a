"""A game played by mail in tests: the GM's and the players' messages delivered to a Maildir
inbox, the service run once per batch, and what it mailed back read by recipient."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from email import message_from_bytes
from email.message import Message
from email.policy import default
from pathlib import Path

from gm.config import Config
from gm.engine.state import GameState
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.service_support import (
    GM,
    PLAYERS,
    START,
    deliver,
    maildir_config,
    message,
    read_head,
    read_mail,
    text_of,
)


class MailTable:
    """A game table: `players` maps each power to its address (password `pw<power>`); the
    results report `process` returns is the one `reporter` receives."""

    def __init__(self, database: Database, config: Config, game: str,
                 players: Mapping[str, str], reporter: str) -> None:
        self.db, self.config, self.game = database, config, game
        self.players, self.reporter = players, reporter
        self.clock = FixedClock(START)
        self.seen: set[str] = set()

    async def run(self) -> list[Disposition]:
        return [r.outcome for r in await Service(self.db, self.config, clock=self.clock).once()]

    async def gm(self, body: str) -> None:
        await self.send(GM, body)

    async def start(self, variant: str, *settings: str) -> None:
        """CREATE the game of `variant`, ADD every player, START; then the GM's `settings`
        lines (e.g. SET PICTURES DEFAULT ALL), in the same message."""
        await self.gm("\n".join(
            [f"CREATE {self.game} {variant} gmpass"]
            + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in self.players.items()]
            + ["START", *settings]))

    def _signed_body(self, power: str, lines: Sequence[str]) -> str:
        return "\n".join([f"SIGNON {power} {self.game} pw{power.lower()}", *lines])

    def outbox(self) -> list[Message]:
        """Every message the service has mailed, oldest first."""
        folder = self.config.maildir.outbox / "new"
        return [read_mail(path) for path in sorted(folder.iterdir() if folder.exists() else ())]

    async def send(self, sender: str, body: str) -> Message:
        """Deliver `body` from `sender` and run the service once (answered): the reply, whole."""
        raw = message(sender, body)
        asked = message_from_bytes(raw, policy=default)["Message-ID"]
        folder = self.config.maildir.outbox / "new"
        before = set(folder.iterdir()) if folder.exists() else set()
        deliver(self.config.maildir.inbox, raw)
        assert await self.run() == [Disposition.ANSWERED]
        [reply] = [read_mail(path) for path in sorted(set(folder.iterdir()) - before)
                   if read_head(path)["In-Reply-To"] == asked]
        return reply

    async def signed(self, power: str, *lines: str) -> Message:
        """`lines` from `power`'s address after its SIGNON: the reply, whole."""
        return await self.send(self.players[power], self._signed_body(power, lines))

    async def answer(self, power: str, *lines: str) -> str:
        """`lines` from `power`'s address after its SIGNON: the text of the reply."""
        return text_of(await self.signed(power, *lines))

    async def orders(self, orders: dict[str, list[str]]) -> None:
        """Send each power's orders (signed on), all answered."""
        for power, lines in orders.items():
            deliver(self.config.maildir.inbox, message(self.players[power],
                                                       self._signed_body(power, lines),
                                                       subject="orders"))
        assert await self.run() == [Disposition.ANSWERED] * len(orders)

    def new_mail(self) -> dict[str, list[str]]:
        """Texts of the mail sent since the last call, by recipient (with attachment names)."""
        found: dict[str, list[str]] = defaultdict(list)
        for path in self._unseen():
            msg = read_mail(path)
            text = _entry(msg)
            for addr in _recipients(msg):
                found[addr].append(text)
        return found

    def _unseen(self) -> list[Path]:
        """The files mailed since the last look, oldest name first, now counted as seen."""
        paths = [p for p in sorted((self.config.maildir.outbox / "new").iterdir())
                 if p.name not in self.seen]
        self.seen.update(p.name for p in paths)
        return paths

    async def process(self) -> str:
        """PROCESS the phase; the results report `reporter` receives (as `new_mail` words
        it). The other mail is passed over unread."""
        self._unseen()
        await self.gm(f"SIGNON GM {self.game} gmpass\nPROCESS")
        reporter = self.players[self.reporter]
        return next(_entry(read_mail(path)) for path in self._unseen()
                    if ": results" in f"Subject: {read_head(path)['Subject']}"
                    and reporter in _recipients(read_head(path)))

    def state(self) -> GameState:
        with self.db.read() as s:
            game = games_repo.find_game(s, self.game)
            assert game is not None
            return phases_repo.history(s, game.id)[-1].state


def _recipients(msg: Message) -> list[str]:
    """The addresses a message is to."""
    return [addr.strip().strip("<>").split("<")[-1].rstrip(">")
            for addr in str(msg["To"]).split(",")]


def _entry(msg: Message) -> str:
    """A message as `MailTable.new_mail` gives it: its subject, attachment names and text."""
    files = [p.get_filename() for p in msg.walk() if p.get_filename()]
    return f"Subject: {msg['Subject']}\nFiles: {files}\n{text_of(msg)}"


def seven_powers(database: Database, folder: Path, game: str) -> MailTable:
    """A table of the seven standard powers at their test addresses (PLAYERS), its Maildirs in
    `folder`; `process` returns England's results report."""
    return MailTable(database, maildir_config(folder), game, PLAYERS, reporter="England")
