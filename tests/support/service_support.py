"""Mail for the service tests: raw messages as players send them, the game they play, and
driving the real service over Maildirs."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.utils import format_datetime, make_msgid
from functools import lru_cache
from pathlib import Path

from sqlalchemy import select

from gm.config import Config, MaildirConfig
from gm.mail.maildir import ensure_maildir
from gm.service.clock import FixedClock, SystemClock
from gm.service.ingest import Disposition, ingest
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.models import OutboundMessage
from gm.store.rows import OutboundRecord, PhaseRecord
from tests.support.raw_mail import LazyMail, parse_head

GM = "master@example.org"
SERVICE = "judge@example.org"
PLAYERS = {
    "Austria": "austria@example.org",
    "England": "england@example.org",
    "France": "france@example.org",
    "Germany": "germany@example.org",
    "Italy": "italy@example.org",
    "Russia": "russia@example.org",
    "Turkey": "turkey@example.org",
}
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# Spring 1901 orders, one set per power (every unit ordered).
SPRING_1901 = {
    "Austria": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "England": ["F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
    "France": ["A Par - Bur", "A Mar - Spa", "F Bre - MAO"],
    "Germany": ["A Ber - Kie", "A Mun - Ruh", "F Kie - Den"],
    "Italy": ["A Ven - Pie", "A Rom - Apu", "F Nap - ION"],
    "Russia": ["A Mos - Ukr", "A War - Gal", "F Sev - BLA", "F StP/sc - BOT"],
    "Turkey": ["A Con - Bul", "A Smy - Arm", "F Ank - BLA"],
}


def setup_mail(game: str = "omega", players: dict[str, str] = PLAYERS) -> str:
    """The GM's mail that creates standard game `game`, adds `players` (power: address, each
    with the password pw<power>) and starts it."""
    return "\n".join([f"CREATE {game} standard gmpass"]
                     + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in players.items()]
                     + ["START"])


def start_game(db: Database, config: Config) -> None:
    """setup_mail's game, by mail, on the real clock."""
    done = ingest(db, message(GM, setup_mail()), config=config, clock=SystemClock())
    assert done.outcome is Disposition.ANSWERED


def game_phases(db: Database, game: str = "omega") -> list[PhaseRecord]:
    """Game `game`'s phases, the first first (none before the game is made)."""
    with db.read() as s:
        found = games_repo.find_game(s, game)
        return [] if found is None else phases_repo.history(s, found.id)


def message(sender: str, body: str, *, subject: str = "commands",
            message_id: str | None = None, headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVICE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(START)
    msg["Message-ID"] = message_id or make_msgid(domain="example.org")
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return bytes(msg)


def maildir_config(root: Path) -> Config:
    """The service on Maildirs under `root`. The tests play whole games within minutes, so one
    address sends more in an hour than a person would: the rate limit is set far above its
    default here (tests/service/test_service_amplify.py tests the default)."""
    return Config(data_dir=root, address=SERVICE, display_name="Judge",
                  maildir=MaildirConfig(inbox=root / "inbox", outbox=root / "outbox"),
                  rate_limit=TEST_RATE_LIMIT)


TEST_RATE_LIMIT = 2000


# -- driving the service over Maildirs ---------------------------------------------------------


def deliver(inbox: Path, raw: bytes) -> None:
    """Put a raw message into a Maildir inbox as a mail server would (tmp, then new)."""
    ensure_maildir(inbox)
    name = f"{time.time_ns()}.test.localhost"
    (inbox / "tmp" / name).write_bytes(raw)
    (inbox / "tmp" / name).rename(inbox / "new" / name)


def read_mail(path: Path) -> Message:
    """The message in a Maildir file, parsed once: a delivered file does not change (its size
    and time are part of the key all the same), and a test reads its outbox again and again."""
    stat = path.stat()
    return _parsed(str(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=256)
def _parsed(path: str, size: int, mtime: int) -> Message:
    return LazyMail(Path(path).read_bytes())  # the body parsed when first read


def read_head(path: Path) -> Message:
    """The header of the message in a Maildir file, parsed once without its body (a report's
    pictures are thousands of lines the parser would read): for finding a message by its
    headers among many."""
    stat = path.stat()
    return _parsed_head(str(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=1024)
def _parsed_head(path: str, size: int, mtime: int) -> Message:
    return parse_head(Path(path).read_bytes())


def mail_by_recipient(outbox: Path) -> dict[str, list[Message]]:
    """Every message in a Maildir outbox, by recipient address."""
    found: dict[str, list[Message]] = defaultdict(list)
    for path in sorted((outbox / "new").iterdir()):
        msg = read_mail(path)
        for addr in str(msg["To"]).split(","):
            found[addr.strip().strip("<>").split("<")[-1].rstrip(">")].append(msg)
    return found


def unwrapped(text: str) -> str:
    """A mail's text with its wrapped lines joined again, for tests about wording (mail is
    wrapped at 78 columns, gm.play.render; tests/play/test_golden_mail.py checks the wrapping):
    a line indented 2 or 4 more than the line it follows continues it when its first word
    would not have fitted on that line within 78 columns."""
    out: list[str] = []
    base = 0
    previous = ""
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        first = line.strip().split(" ")[0]
        if out and first and indent - base in (2, 4) and len(previous) + 1 + len(first) > 78:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
            base = indent
        previous = line
    return "\n".join(out)


def text_of(msg: Message) -> str:
    """The plain text of a message, unwrapped."""
    part = msg.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
    return unwrapped(str(part.get_content()))


async def service_pass(db: Database, config: Config, clock: FixedClock) -> list[Disposition]:
    """One pass of the real service over its inbox; what became of each message."""
    service = Service(db, config, clock=clock)
    return [r.outcome for r in await service.once()]


def send_all(db: Database, tmp_path: Path, sender: str, body: str,
             clock: FixedClock | None = None) -> tuple[str, list[OutboundRecord]]:
    """Ingest one message (it must be answered); the reply's text and the other mail it
    queued."""
    result = ingest(db, message(sender, body), config=maildir_config(tmp_path),
                    clock=clock or FixedClock(START))
    assert result.outcome is Disposition.ANSWERED, result
    queued = queued_for(db, result.inbound_id)
    reply = [o for o in queued if o.message_id == result.reply_message_id]
    assert len(reply) == 1
    return unwrapped(reply[0].parts[0].text), [
        o for o in queued if o.message_id != result.reply_message_id]


def queued_for(db: Database, inbound_id: int) -> list[OutboundRecord]:
    """The mail queued in answer to one inbound message, oldest first (read by the index on
    the inbound message, not by loading every outbound message there is)."""
    with db.read() as s:
        rows = s.scalars(select(OutboundMessage).where(OutboundMessage.inbound_id == inbound_id)
                         .order_by(OutboundMessage.id))
        return [outbound_repo.to_record(row) for row in rows]


def observe(db: Database, tmp_path: Path, sender: str, game: str,
            *more: str) -> tuple[str, list[OutboundRecord]]:
    """OBSERVE `game` from `sender`, confirmed from it with the code the reply holds (`more`
    lines follow in the confirming message): that message's reply and other mail."""
    asked, _ = send_all(db, tmp_path, sender, f"OBSERVE {game}")
    found = re.search(rf"OBSERVE {game} CONFIRM (\S+)", asked)
    assert found, asked
    return send_all(db, tmp_path, sender,
                    "\n".join([f"OBSERVE {game} CONFIRM {found.group(1)}", *more]))


# -- the service running in the test's event loop ---------------------------------------------

WAIT = 60.0  # seconds a test waits for what the running service should do


async def until(condition: Callable[[], bool], what: str, *, wait: float = WAIT) -> None:
    """Wait until `condition()` holds (looked at every 20 ms), or fail naming `what`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"no {what} after {wait} s")
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def running(service: Service) -> AsyncIterator[Service]:
    """The service's run loop as a task for the block's length; stopped as on SIGTERM."""
    task = asyncio.create_task(service.run())
    try:
        yield service
    finally:
        service.stop()
        await asyncio.wait_for(task, WAIT)
