"""The newcomer's demo: the real service on the embedded default, with a game played by mail.

`gm demo` makes a data directory (SQLite database, Maildir inbox and outbox), starts the
service on it, and drops sample messages into the inbox step by step: the GM creates a
standard game and adds seven players, the players sign on and order, the GM processes each
phase. Every reply and report the service writes to the outbox is printed as it appears.
"""

from __future__ import annotations

import asyncio
import mailbox
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from gm.config import Config, MaildirConfig
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database

SERVICE = "judge@demo.example"
GM = "gm@demo.example"
GAME = "demo"
# The longest one step may take (mail read, phase processed, reports drawn and sent).
STEP_SECONDS = 180.0
PLAYERS = {
    power: f"{power.lower()}@demo.example"
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
}

# Each phase's orders as players would email them.
SCRIPT: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("Spring 1901", {
        "Austria": ("A Vie-Gal", "A Bud-Ser", "F Tri-Alb"),
        "England": ("F Lon-NTH", "F Edi-NWG", "A Lvp-Yor"),
        "France": ("A Par-Bur", "A Mar S A Par-Bur", "F Bre-MAO"),
        "Germany": ("A Mun-Bur", "A Ber-Kie", "F Kie-Den"),
        "Italy": ("A Ven-Tyr", "A Rom-Ven", "F Nap-ION"),
        "Russia": ("A War-Gal", "A Mos-Ukr", "F Sev-BLA", "F StP/sc-BOT"),
        "Turkey": ("A Con-Bul", "A Smy-Con", "F Ank-BLA"),
    }),
    ("Fall 1901", {
        "Austria": ("A Ser-Gre", "F Alb S A Ser-Gre", "A Vie H"),
        "England": ("F NTH C A Yor-Nwy", "A Yor-Nwy", "F NWG S A Yor-Nwy"),
        "France": ("F MAO-Por", "A Mar-Spa", "A Bur H"),
        "Germany": ("F Den H", "A Kie-Hol", "A Mun H"),
        "Italy": ("F ION-Tun", "A Ven H", "A Tyr H"),
        "Russia": ("F BOT-Swe", "A Ukr-Rum", "A War H", "F Sev H"),
        "Turkey": ("A Bul H", "A Con S A Bul", "F Ank-BLA"),
    }),
    ("Winter 1901", {
        "Austria": ("Build A Bud",),
        "England": ("Build F Edi",),
        "France": ("Build F Bre", "Build A Mar"),
        "Germany": ("Build F Kie", "Build A Ber"),
        "Italy": ("Build F Nap",),
        "Russia": ("Build F StP/nc", "Build A Mos"),
        "Turkey": ("Build F Smy",),
    }),
)


@dataclass(frozen=True)
class Step:
    """Mail arriving together, and what the newcomer is told about it."""

    title: str
    messages: tuple[bytes, ...]


def mail(sender: str, body: str, subject: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVICE
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="demo.example")
    msg.set_content(body + "\n")
    return bytes(msg)


def steps() -> list[Step]:
    setup = "\n".join(
        [f"CREATE {GAME} standard gmsecret"]
        + [f"ADD {power} {address} pw-{power.lower()}" for power, address in PLAYERS.items()]
        + ["START"]
    )
    out = [Step("The GM creates a standard game and adds seven players",
                (mail(GM, setup, "new game"),))]
    for season, orders in SCRIPT:
        out.append(Step(f"{season}: every power emails its orders", tuple(
            mail(PLAYERS[power], "\n".join([f"SIGNON {power} {GAME} pw-{power.lower()}",
                                             *lines]), f"{season} orders")
            for power, lines in orders.items()
        )))
        out.append(Step(f"{season}: the GM processes the phase", (
            mail(GM, f"SIGNON GM {GAME} gmsecret\nPROCESS", "process"),)))
    return out


def demo_config(data_dir: Path) -> Config:
    return Config(data_dir=data_dir, address=SERVICE, display_name="gm demo judge",
                  maildir=MaildirConfig(inbox=data_dir / "inbox", outbox=data_dir / "outbox"),
                  poll_interval=0.5)


class Outbox:
    """Reads what the service has sent, once each."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.box = mailbox.Maildir(path, create=True)
        self.seen: set[str] = set()

    def new(self) -> list[EmailMessage]:
        self.box = mailbox.Maildir(self.path, create=True)  # re-read the folder
        fresh = sorted(k for k in self.box.keys() if k not in self.seen)  # noqa: SIM118 (keys start with time)
        out = []
        for key in fresh:
            self.seen.add(key)
            raw = self.box.get_bytes(key)
            msg = message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out


def describe(messages: list[EmailMessage]) -> list[str]:
    """The outbox's new messages in words: each body once, with everyone it went to."""
    bodies: dict[str, list[str]] = {}
    subjects: dict[str, str] = {}
    for msg in messages:
        part = msg.get_body(preferencelist=("plain",))
        body = part.get_content() if isinstance(part, EmailMessage) else ""
        key = body
        bodies.setdefault(key, []).append(str(msg["To"]))
        subjects.setdefault(key, str(msg["Subject"]))
    lines: list[str] = []
    for key, recipients in bodies.items():
        lines.append(f"  -> {', '.join(recipients)}: {subjects[key]}")
        lines.extend("     " + line for line in key.rstrip().splitlines())
    return lines


async def _answers(db: Database, config: Config, outbox: Outbox, mails: int) -> list[EmailMessage]:
    """What the service sent for the step's mail: waited for until all `mails` messages given
    to it so far are read and handled and nothing it wrote is left to send (so the replies and
    reports of a step are never counted for the next one, on however loaded a machine), or for
    at most STEP_SECONDS."""
    got: list[EmailMessage] = []
    deadline = asyncio.get_running_loop().time() + STEP_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.25)
        got += outbox.new()
        with db.read() as session:
            done = inbound_repo.count_handled(session) >= mails \
                and not outbound_repo.count_unsent(session)
        if done and not any(Path(config.maildir.inbox, "new").iterdir()):
            got += outbox.new()
            break
    return got


async def run_demo(data_dir: Path, *, pause: float, keep_running: bool,
                   say: Callable[[str], None]) -> int:
    """Run the service on `data_dir`, feed it the demo mail, print what it sends."""
    from gm.service.clock import SystemClock
    from gm.service.serve import Service
    from gm.store import migrate
    from gm.store.db import open_database, resolve_url

    if data_dir.exists():
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    config = demo_config(data_dir)
    url = resolve_url(None, data_dir)
    migrate.upgrade(url)
    db = open_database(url)
    inbox = mailbox.Maildir(config.maildir.inbox, create=True)
    outbox = Outbox(config.maildir.outbox)
    say(f"gm demo: the service runs on {data_dir} (SQLite database, Maildir inbox and outbox)")
    # the GM processes each phase by mail here: no tick runs (it would process early)
    service = Service(db, config, clock=SystemClock(), tick_every=None)
    running = asyncio.create_task(service.run())
    sent = 0
    try:
        for step in steps():
            say(f"\n== {step.title} ({len(step.messages)} message(s) into {config.maildir.inbox})")
            for raw in step.messages:
                inbox.add(raw)
            got = await _answers(db, config, outbox, sent + len(step.messages))
            sent += len(step.messages)
            for line in describe(got):
                say(line)
            if pause:
                await asyncio.sleep(pause)
        if keep_running:
            say(f"\nThe service is still running: drop mail into {config.maildir.inbox}/new and "
                f"read the replies in {config.maildir.outbox}/new. Ctrl-C stops it.")
            await running
        return 0
    finally:
        service.stop()
        await asyncio.gather(running, return_exceptions=True)
        db.dispose()
