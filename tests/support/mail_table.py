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
        for path in sorted((self.config.maildir.outbox / "new").iterdir()):
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            msg = read_mail(path)
            files = [p.get_filename() for p in msg.walk() if p.get_filename()]
            text = f"Subject: {msg['Subject']}\nFiles: {files}\n{text_of(msg)}"
            for addr in str(msg["To"]).split(","):
                found[addr.strip().strip("<>").split("<")[-1].rstrip(">")].append(text)
        return found

    async def process(self) -> str:
        """PROCESS the phase; the results report `reporter` receives."""
        self.new_mail()
        await self.gm(f"SIGNON GM {self.game} gmpass\nPROCESS")
        mail = self.new_mail()
        return next(t for t in mail[self.players[self.reporter]]
                    if ": results" in t.splitlines()[0])

    def state(self) -> GameState:
        with self.db.read() as s:
            game = games_repo.find_game(s, self.game)
            assert game is not None
            return phases_repo.history(s, game.id)[-1].state


def seven_powers(database: Database, folder: Path, game: str) -> MailTable:
    """A table of the seven standard powers at their test addresses (PLAYERS), its Maildirs in
    `folder`; `process` returns England's results report."""
    return MailTable(database, maildir_config(folder), game, PLAYERS, reporter="England")
