"""What the mail benchmarks share: the database they run on, a game set up to play, and `gm serve`
run as its own process (from compiled bytecode, as an installed service runs) against a real
Dovecot and an aiosmtpd server, with the CPU time and resident memory of it and its sender
worker."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bytecode import cached_bytecode_env, compile_package  # noqa: E402
from gm.store import migrate  # noqa: E402
from tests.support.fixtures.mailservers import ImapAccount, SmtpServer  # noqa: E402
from tests.support.fixtures.postgres import create_database, postgres_server  # noqa: E402
from tests.support.service_support import PLAYERS  # noqa: E402

GAME, GM_PASSWORD = "bench", "gmpass"
SETUP = "\n".join(
    [f"CREATE {GAME} standard {GM_PASSWORD}"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "START"]
)
SETUP_REPLIES = 1 + 7 + 8  # the set-up reply, the seven seated players' notices, the start ones


def password(power: str) -> str:
    """The bench game's password of `power`."""
    return f"pw{power.lower()}"


@contextlib.contextmanager
def database_url(postgresql: bool, root: Path) -> Iterator[str]:
    """A migrated database: SQLite in `root`, or one in a throwaway PostgreSQL cluster."""
    if not postgresql:
        url = f"sqlite:///{root / 'gm.sqlite3'}"
        migrate.upgrade(url)
        yield url
        return
    with postgres_server() as admin:
        url = create_database(admin)
        migrate.upgrade(url)
        yield url


def write_config(root: Path, url: str, account: ImapAccount | None, smtp: SmtpServer, *,
                 poll_interval: float, lmtp: Path | None = None,
                 data_dir: Path | None = None) -> Path:
    """The service's configuration file: the database, the account's INBOX (or, with `lmtp`, an
    LMTP socket the mail is delivered to), the SMTP server; `data_dir` when given (each of
    several processes on one host has its own, for its wake socket)."""
    config = root / "gm.toml"
    # no rate limit: each power sends more than a window's 100 messages
    text = (f'database_url = "{url}"\naddress = "judge@example.org"\n'
            f'poll_interval = {poll_interval}\nrate_limit = 0\n')
    if data_dir is not None:
        text += f'data_dir = "{data_dir}"\n'
    if lmtp is not None:
        text += f'[lmtp]\nlisten = "unix:{lmtp}"\n'
    elif account is not None:
        imap = account.config()
        text += (f'[imap]\nhost = "{imap.host}"\nport = {imap.port}\nsecurity = "plain"\n'
                 f'user = "{imap.user}"\npassword = "{imap.password.reveal()}"\n')
    text += f'[smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nsecurity = "plain"\n'
    config.write_text(text)
    return config


def serve_env() -> dict[str, str]:
    """The environment `gm serve` runs in: without GM_ settings, from bytecode compiled now (as
    `pip install` does)."""
    env = cached_bytecode_env({k: v for k, v in os.environ.items() if not k.startswith("GM_")})
    compile_package(str(ROOT), env)
    return env


def start_serve(root: Path, config: Path, env: dict[str, str], *,
                tick_every: float) -> subprocess.Popen[bytes]:
    """`gm serve` with this configuration and environment (`serve_env`), logging to
    root/serve.log (its first line: the wall-clock time it was started)."""
    with (root / "serve.log").open("wb") as log:
        log.write(f"{time.time():.3f} started\n".encode())  # the log's times are wall clock
        log.flush()
        return subprocess.Popen([sys.executable, "-m", "gm", "serve", "--config", str(config),
                                 "--tick-every", f"{tick_every:g}"], env=env, stdout=log,
                                stderr=subprocess.STDOUT)


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user + system) process `pid` has used so far, its own threads only."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` started (for `gm serve`: its sender worker)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(k) for k in path.read_text().split()] if path.exists() else []


def memory_mib(pid: int) -> tuple[float, float]:
    """Process `pid`'s resident memory now and at its peak, in MiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            values[name] = int(rest.split()[0]) / 1024  # kB
    return values["VmRSS"], values["VmHWM"]
