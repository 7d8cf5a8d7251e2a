"""Mail benchmark: 1,000 order messages through a real Dovecot, end to end.

The messages (seven powers' Spring 1901 orders, each signed on; with --varied each power's
orders change from message to message, so each acknowledgement's picture is drawn anew, as in
real play, instead of seven order sets repeated) are APPENDed to the service's
IMAP mailbox before the clock starts; then `gm serve` runs in its own process (IMAP in, the real
ingest pipeline, SMTP out to an aiosmtpd server) until every message has its acknowledgement at
the SMTP server (`gm serve` sends the replies from its sender worker process; with --profile
the service runs inside this process, sending from its own event loop, under cProfile: one
profile of its event loop, one of its database thread).
Reported: messages per second from the service's start to the last acknowledgement, and from
its first reply to its last (the steady rate). Goal: at least 150 messages per second. Also the
CPU seconds `gm serve` and its sender worker used, and this process's (the SMTP server): on a
busy machine they compare runs better than the rates do. The SMTP server is the benchmark's own
(benchmarks/fast_sink.py: DATA read in one piece), or with --aiosmtpd the tests' aiosmtpd one,
which costs some 3.7 ms a message on the same cores. With --keep the working directory
stays, with the service's log (its first line: the wall-clock time `gm serve` was started).
`gm serve` runs from compiled bytecode (compiled beforehand, as `pip install` does; see
benchmarks/bytecode.py).

    .venv/bin/python benchmarks/bench_mail.py                  # SQLite (the embedded default)
    .venv/bin/python benchmarks/bench_mail.py --postgresql     # a throwaway PostgreSQL cluster
    .venv/bin/python benchmarks/bench_mail.py --count 200 --profile   # cProfile of the run
    .venv/bin/python benchmarks/bench_mail.py --fuzz 10000    # the 10,000-message fuzz soak
    .venv/bin/python benchmarks/bench_mail.py --count 200 --keep    # keep the service's log
    .venv/bin/python benchmarks/bench_mail.py --postgresql --processes 2   # two gm serve
    .venv/bin/python benchmarks/bench_mail.py --postgresql --processes 2 --waits  # their waits
    .venv/bin/python benchmarks/bench_mail.py --rate 150      # paced: the reply latency's p99

With --rate R the messages are APPENDed at R a second while the service runs (not before it
starts), and the reply latency (from a message's APPEND to its acknowledgement at the SMTP
server) is reported: median, 99th percentile and worst.

With --processes N, N `gm serve` processes (each with its own data directory) share the one
mailbox and database; reported beside the rate: how many messages each handled, and how many
were handled twice (read by more than one process, or logged `duplicate`; goal 0), and the
rate and CPU a message once every process had answered an order (their start-ups, which run
side by side on the same cores, behind them; `--processes 1` measures one process so). With
--games N the messages go to N games in turn (on PostgreSQL a game's row lock is taken only
at a message's commit, gm.store.commit_locks: processes answering one game take turns only
for their commits).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import imaplib
import os
import pstats
import re
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fast_sink import FastSmtpServer  # noqa: E402
from benchmarks.pg_waits import Waits  # noqa: E402
from benchmarks.serve_support import (  # noqa: E402
    GAME,
    SETUP,
    SETUP_REPLIES,
    children,
    cpu_seconds,
    database_url,
    serve_env,
    start_serve,
    write_config,
)
from gm.config import Config  # noqa: E402
from gm.mail.connect import make_sink, make_source  # noqa: E402
from gm.service.clock import FixedClock, SystemClock  # noqa: E402
from gm.service.ingest import Disposition, ingest  # noqa: E402
from gm.service.serve import Service  # noqa: E402
from gm.store import migrate  # noqa: E402
from gm.store.db import Database, open_database  # noqa: E402
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer  # noqa: E402
from tests.support.service_support import (  # noqa: E402
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    maildir_config,
    message,
)

POWERS = sorted(PLAYERS)
PROFILE_SORT = ("cumulative",)
ACKNOWLEDGED = b"Units without orders: none."  # in the reply to a message of complete orders
_HANDLED = re.compile(r"message (\S+) \(inbound \d+\): (\w+)")


def game_name(k: int) -> str:
    """The name of the benchmark's k-th game (the first is serve_support's GAME)."""
    return GAME if k == 0 else f"{GAME}{k + 1}"


def setup_text(k: int) -> str:
    """The GM's message that creates, seats and starts the k-th game."""
    return SETUP.replace(f"CREATE {GAME} ", f"CREATE {game_name(k)} ", 1)


# for --varied: four orders each unit may be given in Spring 1901 (its move in SPRING_1901
# first), so that a power's messages carry 64 (Russia 256) different order sets
CHOICES = {
    "Austria": [["A Vie - Gal", "A Vie H", "A Vie - Boh", "A Vie - Tyr"],
                ["A Bud - Ser", "A Bud H", "A Bud - Rum", "A Bud - Gal"],
                ["F Tri - Alb", "F Tri H", "F Tri - ADR", "F Tri - Ven"]],
    "England": [["F Lon - NTH", "F Lon H", "F Lon - ENG", "F Lon - Wal"],
                ["F Edi - NWG", "F Edi H", "F Edi - NTH", "F Edi - Cly"],
                ["A Lvp - Yor", "A Lvp H", "A Lvp - Wal", "A Lvp - Cly"]],
    "France": [["A Par - Bur", "A Par H", "A Par - Pic", "A Par - Gas"],
               ["A Mar - Spa", "A Mar H", "A Mar - Pie", "A Mar - Gas"],
               ["F Bre - MAO", "F Bre H", "F Bre - ENG", "F Bre - Pic"]],
    "Germany": [["A Ber - Kie", "A Ber H", "A Ber - Pru", "A Ber - Sil"],
                ["A Mun - Ruh", "A Mun H", "A Mun - Bur", "A Mun - Tyr"],
                ["F Kie - Den", "F Kie H", "F Kie - HEL", "F Kie - Hol"]],
    "Italy": [["A Ven - Pie", "A Ven H", "A Ven - Tyr", "A Ven - Apu"],
              ["A Rom - Apu", "A Rom H", "A Rom - Tus", "A Rom - Nap"],
              ["F Nap - ION", "F Nap H", "F Nap - TYS", "F Nap - Apu"]],
    "Russia": [["A Mos - Ukr", "A Mos H", "A Mos - Sev", "A Mos - Lvn"],
               ["A War - Gal", "A War H", "A War - Ukr", "A War - Sil"],
               ["F Sev - BLA", "F Sev H", "F Sev - Rum", "F Sev - Arm"],
               ["F StP/sc - BOT", "F StP/sc H", "F StP/sc - Fin", "F StP/sc - Lvn"]],
    "Turkey": [["A Con - Bul", "A Con H", "A Con - Smy", "A Con - Ank"],
               ["A Smy - Arm", "A Smy H", "A Smy - Syr", "A Smy - Con"],
               ["F Ank - BLA", "F Ank H", "F Ank - Arm", "F Ank - Con"]],
}


def varied_orders(power: str, round_: int) -> list[str]:
    """The power's orders in its round_-th message under --varied: every unit ordered, the
    order sets taken in a stride (37) that visits all of them before one comes again."""
    units = CHOICES[power]
    pick = round_ * 37 % 4 ** len(units)
    return [unit[pick // 4 ** j % 4] for j, unit in enumerate(units)]


def order_message(n: int, games: int = 1, varied: bool = False) -> bytes:
    """The n-th order message: each power's in turn, the games taking turns by round; with
    `varied`, each power's orders change from one of its messages to the next."""
    power = POWERS[n % len(POWERS)]
    game = game_name(n // len(POWERS) % games)
    orders = varied_orders(power, n // len(POWERS)) if varied else SPRING_1901[power]
    body = "\n".join([f"SIGNON {power} {game} pw{power.lower()}", *orders])
    return message(PLAYERS[power], body, subject=f"orders {n}",
                   message_id=f"<bench-{n}@example.org>")


def append_all(account: ImapAccount, raws: list[bytes]) -> None:
    """APPEND every message to the account's INBOX over IMAP."""
    imap = imaplib.IMAP4("127.0.0.1", account.server.imap_port)
    imap.login(account.user, account.password)
    for raw in raws:
        imap.append("INBOX", None, None, raw)
    imap.logout()


class Pacer(threading.Thread):
    """APPENDs the messages at `rate` a second (one connection), noting when each was in."""

    def __init__(self, account: ImapAccount, raws: list[bytes], rate: float) -> None:
        super().__init__(daemon=True)
        self.account, self.raws, self.rate = account, raws, rate
        self.appended: list[float] = []  # time.perf_counter() after each APPEND

    def run(self) -> None:
        imap = imaplib.IMAP4("127.0.0.1", self.account.server.imap_port)
        imap.login(self.account.user, self.account.password)
        start = time.perf_counter()
        for n, raw in enumerate(self.raws):
            time.sleep(max(0.0, start + n / self.rate - time.perf_counter()))
            imap.append("INBOX", None, None, raw)
            self.appended.append(time.perf_counter())
        imap.logout()


def latencies(smtp: SmtpServer, seen: list[float], pacer: Pacer) -> list[float]:
    """Seconds from each order message's APPEND to its acknowledgement's arrival."""
    out = []
    for item, at in zip(smtp.received, seen, strict=False):
        if ACKNOWLEDGED not in item.data:
            continue
        found = re.search(rb"In-Reply-To: <bench-(\d+)@", item.data)
        if found is not None and int(found.group(1)) < len(pacer.appended):
            out.append(at - pacer.appended[int(found.group(1))])
    return sorted(out)


async def run_service(db: Database, config: Config, smtp: SmtpServer, expected: int,
                      timeout: float, db_profiler: cProfile.Profile) -> float:
    """Run the service until the SMTP server has `expected` messages; the seconds it took.
    `db_profiler` profiles the service's database thread."""
    db_thread = ThreadPoolExecutor(1, initializer=db_profiler.enable)
    service = Service(db, config, clock=SystemClock(), source=make_source(config),
                      sink=make_sink(config, keep_open=True), tick_every=None,
                      db_thread=db_thread)
    started = time.perf_counter()
    task = asyncio.create_task(service.run())
    try:
        while len(smtp.received) < expected:
            if task.done():
                task.result()
                raise RuntimeError("the service stopped")
            if time.perf_counter() - started > timeout:
                raise RuntimeError(f"only {len(smtp.received)} of {expected} after {timeout} s")
            await asyncio.sleep(0.01)
        return time.perf_counter() - started
    finally:
        service.stop()
        await asyncio.wait_for(task, 60)  # the database thread has ended (its profile too)


def serve_process(root: Path, url: str, account: ImapAccount, smtp: SmtpServer, expected: int,
                  timeout: float, pacer: Pacer | None = None,
                  seen: list[float] | None = None) -> tuple[float, float, tuple[float, float],
                                                             float, float]:
    """Run `gm serve` as its own process until the SMTP server has `expected` messages: the
    seconds from its start, and from its first reply, to the last reply; the seconds from its
    start to its first answer to an order message (the replies queued before it started go out
    earlier), with the CPU seconds `gm serve` (not its worker) had used by then; and the CPU
    seconds (user + system) `gm serve` and its sender worker used, until they stopped, and of
    those `gm serve`'s own (its reading and ingesting, the worker's sending aside). With a
    `pacer`, it APPENDs the messages meanwhile; `seen` gets the time each reply was seen."""
    config = write_config(root, url, account, smtp, poll_interval=0.5)
    env = serve_env()  # gm serve from compiled bytecode, as an installed service runs
    before = len(smtp.received)
    started = time.perf_counter()
    first: float | None = None
    answered: float | None = None
    answered_cpu = 0.0
    looked = before  # replies looked at for the first answer to an order message
    proc = start_serve(root, config, env, tick_every=0)
    if pacer is not None:
        pacer.start()
    seen = [] if seen is None else seen
    reaped = False
    try:
        while len(smtp.received) < expected:
            now = time.perf_counter()
            seen.extend([now] * (len(smtp.received) - len(seen)))
            if first is None and len(smtp.received) > before:
                first = time.perf_counter()
            while answered is None and looked < len(smtp.received):
                if ACKNOWLEDGED in smtp.received[looked].data:
                    answered = time.perf_counter()
                    answered_cpu = cpu_seconds(proc.pid)
                looked += 1
            if proc.poll() is not None:
                reaped = True
                raise RuntimeError(f"gm serve exited with {proc.returncode}")
            if time.perf_counter() - started > timeout:
                raise RuntimeError(f"only {len(smtp.received)} of {expected} after {timeout} s")
            time.sleep(0.005)
        done = time.perf_counter()
        own = cpu_seconds(proc.pid)  # gm serve's own threads, its worker aside
        proc.send_signal(signal.SIGTERM)
        # its rusage counts the sender worker too (it waits for it)
        _, _, usage = os.wait4(proc.pid, 0)
        reaped = True
        return (done - started, done - (first or started),
                ((answered or done) - started, answered_cpu), usage.ru_utime + usage.ru_stime,
                own)
    finally:
        if not reaped:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)


def handled(logs: list[Path]) -> tuple[list[int], int]:
    """From the services' logs: how many messages each handled, and how many messages were
    handled twice (by more than one process, or logged `duplicate`)."""
    per: list[int] = []
    seen: Counter[str] = Counter()
    duplicates: set[str] = set()
    for log in logs:
        lines = _HANDLED.findall(log.read_text(errors="replace"))
        per.append(len(lines))
        duplicates.update(mail for mail, outcome in lines if outcome == "duplicate")
        seen.update({mail for mail, _ in lines})
    return per, len(duplicates | {mail for mail, n in seen.items() if n > 1})


def sent_twice(smtp: SmtpServer) -> int:
    """Messages the SMTP server received more than once (by Message-ID)."""
    ids = Counter(found.group(1) for r in smtp.received
                  if (found := re.search(rb"Message-ID: (\S+)", r.data, re.IGNORECASE)))
    return sum(1 for n in ids.values() if n > 1)


@dataclass(frozen=True)
class Steady:
    """The run of several processes once every one of them had answered an order (their
    start-ups behind them): the acknowledgements of orders (`replies`) the SMTP server got
    from then to the last, in `seconds`, with the CPU seconds `gm serve` and its sender worker
    used meanwhile (`cpu`), of those `gm serve`'s own (`own`), and the whole machine's CPU
    seconds meanwhile (`machine`: the database server, Dovecot and the SMTP server too)."""

    replies: int
    seconds: float
    cpu: float
    own: float
    machine: float


def machine_cpu() -> float:
    """The CPU seconds every core of the machine has been busy so far (/proc/stat: all but
    idle and waiting for I/O), whoever used them."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(v) for v in fields[:8]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """The CPU seconds process `pid` and the processes it started have used so far."""
    try:
        return cpu_seconds(pid) + sum(cpu_seconds(child) for child in children(pid))
    except (FileNotFoundError, ProcessLookupError):  # gone meanwhile: counted at its wait
        return 0.0


def serve_processes(root: Path, url: str, account: ImapAccount, smtp: SmtpServer,
                    expected: int, timeout: float, processes: int) -> tuple[float, float,
                                                                             list[Path], Steady]:
    """Run `processes` `gm serve` processes on the one mailbox and database until the SMTP
    server has `expected` messages: the seconds from their start to the last reply, the CPU
    seconds they and their sender workers used, their logs, and the run once all of them had
    answered an order."""
    env = serve_env()
    roots = [root / f"serve{i}" for i in range(processes)]
    procs = []
    started = time.perf_counter()
    for where in roots:
        where.mkdir()
        config = write_config(where, url, account, smtp, poll_interval=0.5, data_dir=where)
        procs.append(start_serve(where, config, env, tick_every=0))
    logs = [where / "serve.log" for where in roots]
    reaped: set[int] = set()
    cpu = 0.0
    # acknowledgements, time, CPU, gm serve's own CPU, the machine's: when all had answered
    ready: tuple[int, float, float, float, float] | None = None
    looked = 0.0
    try:
        while len(smtp.received) < expected:
            for proc in procs:
                if proc.poll() is not None:
                    reaped.add(proc.pid)
                    raise RuntimeError(f"a gm serve exited with {proc.returncode}")
            now = time.perf_counter()
            if now - started > timeout:
                raise RuntimeError(f"only {len(smtp.received)} of {expected} after {timeout} s")
            if ready is None and now - looked > 0.05:  # has each answered an order yet?
                looked = now
                if all(b"): answered" in log.read_bytes() for log in logs):
                    acks = sum(ACKNOWLEDGED in r.data for r in list(smtp.received))
                    ready = (acks, now, sum(tree_cpu(p.pid) for p in procs),
                             sum(cpu_seconds(p.pid) for p in procs), machine_cpu())
            time.sleep(0.005)
        done, machine = time.perf_counter(), machine_cpu()
        own = sum(cpu_seconds(p.pid) for p in procs)  # gm serve's own threads, workers aside
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            _, _, usage = os.wait4(proc.pid, 0)
            reaped.add(proc.pid)
            cpu += usage.ru_utime + usage.ru_stime
        acks, at, used, own_used, machine_used = ready or (0, started, 0.0, 0.0, 0.0)
        replies = sum(ACKNOWLEDGED in r.data for r in smtp.received) - acks
        return (done - started, cpu, logs,
                Steady(replies, done - at, cpu - used, own - own_used, machine - machine_used))
    finally:
        for proc in procs:
            if proc.pid not in reaped:
                proc.send_signal(signal.SIGTERM)
                proc.wait(60)


def bench(count: int, postgresql: bool, profile: bool, keep: bool = False,
          processes: int | None = None, rate: float | None = None, aiosmtpd: bool = False,
          games: int = 1, varied: bool = False, sample_waits: bool = False) -> None:
    """`processes` (even 1): that many `gm serve` sharing the mailbox, measured alike (with
    `sample_waits`, on PostgreSQL, what their connections waited for)."""
    shared = processes is not None
    processes = processes or 1
    root = Path(tempfile.mkdtemp(prefix="gm-bench-mail-"))
    root.chmod(0o755)
    dovecot = DovecotServer(root)
    # the benchmark's own SMTP server (benchmarks/fast_sink.py) unless asked for aiosmtpd's
    smtp: SmtpServer = SmtpServer() if aiosmtpd else FastSmtpServer()  # type: ignore[assignment]
    dovecot.start()
    smtp.start()
    try:
        account = dovecot.add_user()
        with database_url(postgresql, root) as url:
            db = open_database(url)
            base = maildir_config(root)
            config = Config(data_dir=root, address=base.address, display_name="Judge",
                            maildir=base.maildir, imap=account.config(),
                            smtp=smtp.config(), poll_interval=0.5, rate_limit=0)
            for k in range(games):
                result = ingest(db, message(GM, setup_text(k)), config=config,
                                clock=SystemClock())
                assert result.outcome is Disposition.ANSWERED
            queued = SETUP_REPLIES * games
            t = time.perf_counter()
            raws = [order_message(n, games, varied) for n in range(count)]
            pacer = None if rate is None else Pacer(account, raws, rate)
            seen: list[float] = []
            if pacer is None:
                append_all(account, raws)
            append_s = time.perf_counter() - t
            profiler = db_profiler = None
            steady = cpu = first_s = own_cpu = steady_run = None
            waited = ""
            own = resource.getrusage(resource.RUSAGE_SELF)
            logs = [root / "serve.log"]
            if shared:  # `gm serve` processes sharing the mailbox and the database
                sampling = Waits(url) if sample_waits and postgresql else contextlib.nullcontext()
                with sampling as sampler:
                    seconds, cpu, logs, steady_run = serve_processes(
                        root, url, account, smtp, count + queued, 900, processes)
                if sampler is not None:
                    waited = sampler.report()
            elif profile:  # in this process, to see where the time goes
                # each thread's CPU time, not the wall clock (which counts waits for the GIL)
                profiler = cProfile.Profile(time.thread_time)
                db_profiler = cProfile.Profile(time.thread_time)
                profiler.enable()
                seconds = asyncio.run(run_service(db, config, smtp, count + queued, 900,
                                                  db_profiler))
                profiler.disable()
            else:  # the real thing: `gm serve` in its own process
                seconds, steady, first_s, cpu, own_cpu = serve_process(
                    root, url, account, smtp, count + queued, 900, pacer, seen)
            mine = resource.getrusage(resource.RUSAGE_SELF)
            smtp_cpu = mine.ru_utime + mine.ru_stime - own.ru_utime - own.ru_stime
            acked = Counter(ACKNOWLEDGED in r.data for r in smtp.received)
            ack_bytes = [len(r.data) for r in smtp.received if ACKNOWLEDGED in r.data]
            db.dispose()
        backend = "PostgreSQL" if postgresql else "SQLite"
        per, twice = handled(logs) if not profile else ([], 0)
        replied = Counter(str(r.data.split(b"In-Reply-To: ", 1)[-1].split(b"\r\n", 1)[0])
                          for r in smtp.received if ACKNOWLEDGED in r.data)
        print(f"{processes} gm serve process{'es' if processes > 1 else ''}: handled "
              + " + ".join(str(n) for n in per)
              + f" messages; handled twice: {twice}; acknowledged twice: "
              f"{sum(1 for n in replied.values() if n > 1)}; sent twice: {sent_twice(smtp)}")
        print(f"{count} order messages" + (f" to {games} games" if games > 1 else "")
              + (", their orders varied" if varied else "")
              + f", {backend}: "
              + (f"APPEND {append_s:.1f} s; " if pacer is None else "APPENDed meanwhile; ")
              + f"served in {seconds:.2f} s = {count / seconds:.0f} messages/s end to end "
              f"({acked[True]} acknowledgements with every unit ordered, "
              f"{sum(ack_bytes) // max(1, len(ack_bytes)):,} bytes each on average)"
              + ("" if steady is None else
                 f"; {(count - 1) / steady:.0f} messages/s from the first reply to the last")
              + ("" if first_s is None else
                 f"; first order answered {first_s[0]:.2f} s after the start ({first_s[1]:.2f} s "
                 "of CPU used by gm serve then)"))
        if steady_run is not None and steady_run.replies:
            n = steady_run.replies
            print(f"once every process had answered an order: {n} replies in "
                  f"{steady_run.seconds:.2f} s = {n / steady_run.seconds:.0f} messages/s, CPU "
                  f"{steady_run.cpu / n * 1000:.1f} ms a message (gm serve "
                  f"{steady_run.own / n * 1000:.1f}, its sender worker "
                  f"{(steady_run.cpu - steady_run.own) / n * 1000:.1f})")
            busy = steady_run.machine / steady_run.seconds
            print(f"meanwhile the machine's {os.cpu_count()} cores were {busy:.2f} busy: "
                  f"{steady_run.machine / n * 1000:.1f} ms of CPU a message in all, gm's "
                  f"{steady_run.cpu / n * 1000:.1f} and the rest's (the database server, "
                  f"Dovecot, the SMTP server, anything else running) "
                  f"{(steady_run.machine - steady_run.cpu) / n * 1000:.1f}")
        if waited:
            print(waited)
        if pacer is not None:
            waits = latencies(smtp, seen, pacer)
            if waits:
                print(f"paced at {rate:g} messages/s: reply latency (APPEND to acknowledgement) "
                      f"median {waits[len(waits) // 2] * 1000:.0f} ms, p99 "
                      f"{waits[min(len(waits) - 1, len(waits) * 99 // 100)] * 1000:.0f} ms, "
                      f"worst {waits[-1] * 1000:.0f} ms ({len(waits)} replies)")
        if cpu is not None:
            print(f"CPU: gm serve and its sender worker {cpu:.2f} s ({cpu / count * 1000:.1f} ms "
                  "per message" + ("" if own_cpu is None else
                                   f": gm serve {own_cpu / count * 1000:.1f} ms, its sender "
                                   f"worker {(cpu - own_cpu) / count * 1000:.1f} ms")
                  + f"); this process (the SMTP server) {smtp_cpu:.2f} s; load "
                  f"{os.getloadavg()[0]:.2f}")
        if profiler and db_profiler:
            print("== the event loop (IMAP, SMTP, compose)")
            pstats.Stats(profiler).sort_stats(*PROFILE_SORT).print_stats("gm/", 30)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
            print("== the database thread (ingest, claims, marks)")
            pstats.Stats(db_profiler).sort_stats(*PROFILE_SORT).print_stats("gm/", 40)
            pstats.Stats(db_profiler).sort_stats("tottime").print_stats(25)
    finally:
        smtp.stop()
        dovecot.stop()
        if keep:
            print(f"kept {root} (the service's log: {root / 'serve.log'})")
        else:
            shutil.rmtree(root, ignore_errors=True)


def fuzz(count: int) -> None:
    """The fuzz soak: `count` seeded random messages through ingest (SQLite)."""
    from tests.support.hostile_mail import fuzz_messages

    root = Path(tempfile.mkdtemp(prefix="gm-bench-fuzz-"))
    try:
        url = f"sqlite:///{root / 'gm.sqlite3'}"
        migrate.upgrade(url)
        db = open_database(url)
        config, clock = maildir_config(root), FixedClock(START)
        outcomes: Counter[Disposition] = Counter()
        t = time.perf_counter()
        for raw in fuzz_messages(20261123, count):
            outcomes[ingest(db, raw, config=config, clock=clock).outcome] += 1
        seconds = time.perf_counter() - t
        db.dispose()
        print(f"fuzz: {count} messages in {seconds:.1f} s ({count / seconds:.0f}/s): "
              + ", ".join(f"{o.value} {n}" for o, n in sorted(outcomes.items())))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--postgresql", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--fuzz", type=int, metavar="N", help="run the fuzz soak instead")
    parser.add_argument("--processes", type=int, metavar="N",
                        help="run N gm serve processes sharing the mailbox and the database "
                        "(1: one, measured as several are)")
    parser.add_argument("--rate", type=float, metavar="R",
                        help="APPEND the messages at R a second while the service runs, and "
                        "report the reply latency")
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="spread the order messages over N games")
    parser.add_argument("--varied", action="store_true",
                        help="vary each power's orders from message to message (each "
                        "acknowledgement's picture drawn anew), not seven order sets repeated")
    parser.add_argument("--aiosmtpd", action="store_true",
                        help="receive the replies with aiosmtpd (the tests' SMTP server) instead "
                        "of the benchmark's cheaper one")
    parser.add_argument("--waits", action="store_true",
                        help="with --processes on PostgreSQL: sample what gm's connections "
                        "wait for (pg_stat_activity every 10 ms; benchmarks/pg_waits.py)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the working directory (the service's log) afterwards")
    args = parser.parse_args()
    if args.fuzz:
        fuzz(args.fuzz)
    else:
        bench(args.count, args.postgresql, args.profile, args.keep, args.processes,
              args.rate, args.aiosmtpd, args.games, args.varied, args.waits)


if __name__ == "__main__":
    main()
