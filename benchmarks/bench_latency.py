"""Mail latency benchmark: from a message's APPEND to the judge's mailbox to its reply's
acceptance by the SMTP server, through `gm serve` running as it does in production.

`gm serve` (its own process, with its sender worker; from compiled bytecode) watches a real
Dovecot INBOX with IDLE and sends through an aiosmtpd server; its poll interval is the default
(60 s), so a timer anywhere in the path would show. Dovecot runs with its own default
mailbox_idle_check_interval (30 s; the tests' servers look every second). A game of seven
players is set up first. Then a message is APPENDed every --interval seconds, in turn: a
power's orders, a power's press to another, a GM command (PREVIEW), and orders written in HTML
and plain text with a 150 kB picture attached. For each, the time from its APPEND's completion
(the message is in the mailbox) to the moment the SMTP server accepted its reply (matched by
In-Reply-To); printed: p50, p90, p99 and max, overall and by kind, and how it divides into
steps, read from the service's log (gm serve runs with a trace of its IMAP commands): until
the service noticed the message, the fetch, the ingesting (its wait, decoding, the
transaction), the sending (the worker nudged, claim, compose, SMTP). Then the deadline rush:
--rush order messages APPENDed at once over --connections IMAP connections, the same figures
and the time from the first APPEND to the last reply. Then the resident memory of `gm serve`
and of its sender worker (now and at their peak), their CPU time and the machine's load; last,
measured in this process on the same database, the steps inside the ingesting of each kind
(decoding, reading the commands, the rest of the transaction, the durability sync).

Most of the figure is Dovecot's: it tells an IDLE session of new mail half a second after the
mail arrived (2.3: a fixed 500 ms NOTIFY_DELAY_MSECS after the change it watched), so with
Dovecot no reply comes sooner than that; the step "until noticed" shows it.

With --lmtp the messages are not APPENDed: they are handed to the service over LMTP, as a mail
server configured with [lmtp] delivers them (gm.mail.lmtp), and timed from the start of each
hand-over; nothing then waits for an IMAP server's notice.

With --no-idle Dovecot does not offer IDLE (as a server that lacks it): the service then looks
at the inbox every poll interval, which bounds the latency (--poll-interval, default 60).

    .venv/bin/python benchmarks/bench_latency.py                    # SQLite, 300 messages
    .venv/bin/python benchmarks/bench_latency.py --postgresql       # a throwaway PostgreSQL
    .venv/bin/python benchmarks/bench_latency.py --count 40 --interval 0.5   # a quick look
    .venv/bin/python benchmarks/bench_latency.py --lmtp             # delivered over LMTP
    .venv/bin/python benchmarks/bench_latency.py --no-idle --poll-interval 5 --count 20
    .venv/bin/python benchmarks/bench_latency.py --keep             # keep the service's log
"""

from __future__ import annotations

import argparse
import imaplib
import math
import os
import re
import shutil
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.serve_support import (  # noqa: E402
    GAME,
    GM_PASSWORD,
    SETUP,
    SETUP_REPLIES,
    children,
    cpu_seconds,
    database_url,
    memory_mib,
    password,
    serve_env,
    start_serve,
    write_config,
)
from gm.commands.parse import parse_message  # noqa: E402
from gm.mail.decode import decode_message  # noqa: E402
from gm.service.clock import SystemClock  # noqa: E402
from gm.service.ingest import Disposition, ingest  # noqa: E402
from gm.store.db import open_database  # noqa: E402
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount, SmtpServer  # noqa: E402
from tests.support.service_support import GM, PLAYERS, SERVICE, SPRING_1901, START, maildir_config  # noqa: E402

POWERS = sorted(PLAYERS)
KINDS = ("orders", "press", "GM command", "HTML + picture")
PICTURE_BYTES = 150_000  # a phone photo, roughly
# Dovecot's own default (the test servers check every second): a server as deployed, whose
# IDLE push comes from inotify only
AS_DEPLOYED = "mailbox_idle_check_interval = 30 secs"
# The capabilities Dovecot 2.3 offers after login, but IDLE: a server that lacks it
WITHOUT_IDLE = ("imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE SORT "
                "SORT=DISPLAY THREAD=REFERENCES THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND "
                "URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED "
                "I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH "
                "LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE "
                "SAVEDATE LITERAL+ NOTIFY")
TIMEOUT = 120.0  # seconds a reply may take before the run is called failed


@dataclass
class Sent:
    """A message APPENDed: its kind, Message-ID, sender, its number in the INBOX (the first is
    1), and when its APPEND began and ended."""

    kind: str
    message_id: str
    sender: str
    number: int
    began: float
    appended: float


def _mail(sender: str, subject: str, message_id: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVICE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(START)
    msg["Message-ID"] = message_id
    return msg


def _orders(power: str) -> str:
    return "\n".join([f"SIGNON {power} {GAME} {password(power)}", *SPRING_1901[power]])


def make_message(n: int, kind: str, tag: str) -> tuple[str, str, bytes]:
    """Message number `n` of this kind: its Message-ID, its sender and its bytes."""
    power = POWERS[n % len(POWERS)]
    message_id = f"<{tag}-{n}@example.org>"
    sender = GM if kind == "GM command" else PLAYERS[power]
    msg = _mail(sender, f"{kind} {n}", message_id)
    if kind == "orders":
        msg.set_content(_orders(power))
    elif kind == "press":
        to = POWERS[(n + 1) % len(POWERS)]
        msg.set_content(f"SIGNON {power} {GAME} {password(power)}\nPRESS TO {to}\n"
                        f"Shall we talk about the Balkans? ({n})\nENDPRESS\n")
    elif kind == "GM command":
        msg.set_content(f"SIGNON GM {GAME} {GM_PASSWORD}\nPREVIEW\n")
    else:
        text = _orders(power)
        msg.set_content(text)
        msg.add_alternative("<html><body>" + "".join(f"<p>{line}</p>" for line in
                                                     text.splitlines()) + "</body></html>",
                            subtype="html")
        picture = b"\x89PNG\r\n\x1a\n" + os.urandom(PICTURE_BYTES)
        msg.add_attachment(picture, maintype="image", subtype="png", filename="board.png")
    return message_id, sender, bytes(msg)


class Appender:
    """One IMAP connection that APPENDs to the account's INBOX, timing each APPEND."""

    def __init__(self, account: ImapAccount) -> None:
        self.imap = imaplib.IMAP4("127.0.0.1", account.server.imap_port)
        self.imap.login(account.user, account.password)

    def append(self, kind: str, n: int, tag: str) -> Sent:
        message_id, sender, raw = make_message(n, kind, tag)
        return self.append_raw(kind, message_id, sender, raw)

    def append_raw(self, kind: str, message_id: str, sender: str, raw: bytes) -> Sent:
        began = time.perf_counter()
        status, data = self.imap.append("INBOX", None, None, raw)
        appended = time.perf_counter()
        assert status == "OK", status
        # the UID the server gave it (UIDPLUS): the INBOX holds only these, so it is also
        # the message's number there
        uid = re.search(rb"\[APPENDUID \d+ (\d+)\]", data[0] or b"")
        assert uid is not None, data
        return Sent(kind, message_id, sender, int(uid[1]), began, appended)

    def close(self) -> None:
        self.imap.logout()


class LmtpDeliverer:
    """One LMTP connection to the service, as a mail server's delivery agent keeps one: each
    message timed from the start of its hand-over (the service answers it only once stored, so
    the reply may be sent before the hand-over ends)."""

    def __init__(self, socket_path: Path) -> None:
        self.lmtp = smtplib.LMTP(str(socket_path))
        self.number = 0

    def append(self, kind: str, n: int, tag: str) -> Sent:
        message_id, sender, raw = make_message(n, kind, tag)
        return self.append_raw(kind, message_id, sender, raw)

    def append_raw(self, kind: str, message_id: str, sender: str, raw: bytes) -> Sent:
        began = time.perf_counter()
        refused = self.lmtp.sendmail(sender, ["judge@example.org"],
                                     raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        assert not refused, refused
        self.number += 1
        return Sent(kind, message_id, sender, 0, began, began)

    def close(self) -> None:
        self.lmtp.quit()


Deliverer = Appender | LmtpDeliverer


def rush_in(account: ImapAccount, count: int, connections: int,
            lmtp: Path | None = None) -> list[Sent]:
    """`count` order messages (every fifth in HTML with a picture) APPENDed at once, over
    `connections` IMAP connections side by side (as a mail server delivers mail arriving
    together); by number in the INBOX."""
    kinds = ["HTML + picture" if n % 5 == 4 else "orders" for n in range(count)]
    messages = [(kind, *make_message(n, kind, "rush")) for n, kind in enumerate(kinds)]
    appenders: list[Deliverer] = [
        Appender(account) if lmtp is None else LmtpDeliverer(lmtp) for _ in range(connections)]
    start = threading.Barrier(connections)

    def deliver(index: int) -> list[Sent]:
        start.wait()
        return [appenders[index].append_raw(*m) for m in messages[index::connections]]

    with ThreadPoolExecutor(connections) as pool:
        sent = [s for part in pool.map(deliver, range(connections)) for s in part]
    for appender in appenders:
        appender.close()
    return sorted(sent, key=lambda s: (s.number, s.began))


class Replies:
    """The replies the SMTP server accepted, by the Message-ID they answer and the recipient."""

    def __init__(self, smtp: SmtpServer) -> None:
        self.smtp = smtp
        self.looked = 0
        self.at: dict[tuple[str, str], float] = {}

    def arrival(self, sent: Sent) -> float | None:
        received = self.smtp.received
        while self.looked < len(received):
            mail = received[self.looked]
            self.looked += 1
            answers = BytesHeaderParser().parsebytes(mail.data).get("In-Reply-To")
            for rcpt in mail.rcpt_tos:
                if answers:
                    self.at.setdefault((str(answers).strip(), rcpt), mail.at)
        return self.at.get((sent.message_id, sent.sender))

    def wait(self, sent: list[Sent], alive: Callable[[], bool]) -> list[float]:
        """When the SMTP server accepted each message's reply (once all have come)."""
        deadline = time.perf_counter() + TIMEOUT
        while True:
            arrivals = [self.arrival(s) for s in sent]
            if all(a is not None for a in arrivals):
                return [a for a in arrivals if a is not None]
            if time.perf_counter() > deadline:
                missing = [s.message_id for s, a in zip(sent, arrivals, strict=True) if a is None]
                raise RuntimeError(f"no reply to {len(missing)} messages: {missing[:5]}")
            if not alive():
                raise RuntimeError("gm serve stopped")
            time.sleep(0.01)


def quantiles(values: list[float]) -> str:
    """p50, p90, p99 and max in milliseconds (nearest rank)."""
    ordered = sorted(values)

    def rank(p: float) -> float:
        return ordered[max(0, min(len(ordered) - 1, math.ceil(p * len(ordered)) - 1))]

    return (f"p50 {rank(0.50) * 1000:.0f} ms, p90 {rank(0.90) * 1000:.0f} ms, "
            f"p99 {rank(0.99) * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms")


# gm serve logs with this in place: times to the microsecond, and each IMAP line sent and
# received (cut short: the log stays small)
TRACE_LOGGING = """\
import logging


class _Short(logging.Filter):
    def filter(self, record):
        record.msg = str(record.msg)[:300]
        return True


logging.basicConfig(level=logging.INFO, format="%(created).6f %(name)s %(message)s")
logging.getLogger("aioimaplib.aioimaplib").setLevel(logging.DEBUG)
logging.getLogger("aioimaplib.aioimaplib").addFilter(_Short())
"""
_LINE = re.compile(r"^(\d+\.\d+) (\S+) (.*)$")
_EXISTS = re.compile(r"\* (\d+) EXISTS")
_SEARCH = re.compile(r"\* SEARCH((?: \d+)*)")
_FETCH = re.compile(r"^Sending : b'(\w+) UID FETCH ([\d,]+) \(UID RFC822\.SIZE BODY")
_DONE = re.compile(r"^tagged status b'(\w+) ")
_ANSWERED = re.compile(r"^message \d+:(\d+) \(inbound \d+\): ")


@dataclass
class Trace:
    """When `gm serve` learned of each message (UID), had fetched it and had committed its
    transaction, read from its log (times on this process's clock)."""

    learned: dict[int, float]
    fetched: dict[int, float]
    committed: dict[int, float]

    @classmethod
    def read(cls, log: Path, offset: float) -> Trace:
        """The log's events; `offset` is the wall clock less this process's clock."""
        trace = cls({}, {}, {})
        known = 0  # messages the INBOX holds, as the service last heard
        fetching: dict[str, list[int]] = {}  # the UIDs of each FETCH in progress, by tag
        for line in log.read_text(errors="replace").splitlines():
            match = _LINE.match(line)
            if match is None:
                continue
            at, name, text = float(match[1]) - offset, match[2], match[3]
            if name == "aioimaplib.aioimaplib":
                if fetch := _FETCH.match(text):
                    fetching[fetch[1]] = [int(uid) for uid in fetch[2].split(",")]
                elif (done := _DONE.match(text)) and done[1] in fetching:
                    for uid in fetching.pop(done[1]):
                        trace.fetched.setdefault(uid, at)
                elif text.startswith("Received"):
                    new = [int(m) for m in _EXISTS.findall(text)]
                    for uid in range(known + 1, max([known, *new]) + 1):
                        trace.learned.setdefault(uid, at)
                    known = max([known, *new])
                    for found in _SEARCH.findall(text):
                        for uid in found.split():
                            trace.learned.setdefault(int(uid), at)
            elif name == "gm.service.serve" and (answered := _ANSWERED.match(text)):
                trace.committed.setdefault(int(answered[1]), at)
        return trace


def report(title: str, sent: list[Sent], arrivals: list[float], trace: Trace) -> None:
    """The latencies of these messages, and how each divides: until the service noticed it (the
    server's push, `* N EXISTS`, or a search that found it: without IDLE, the next look at the
    inbox), the fetch, the ingesting (waiting for it, decoding, the transaction) and the sending
    (the sender worker nudged, claim, compose, SMTP)."""
    start = "APPEND" if sent and sent[0].number else "the LMTP hand-over"
    print(f"{title}, {start} to SMTP acceptance: "
          f"{quantiles([a - s.appended for s, a in zip(sent, arrivals, strict=True)])}")
    if not sent or not sent[0].number:
        return  # LMTP: no IMAP steps to show
    try:
        steps = [(s.appended, trace.learned[s.number], trace.fetched[s.number],
                  trace.committed[s.number], a) for s, a in zip(sent, arrivals, strict=True)]
    except KeyError as missing:
        print(f"  (the service's log lacks message {missing})")
        return
    for index, name in enumerate(("until noticed", "fetch", "ingest", "send")):
        print(f"  {name:18} {quantiles([step[index + 1] - step[index] for step in steps])}")


def wait_for_setup(proc: subprocess.Popen[bytes], smtp: SmtpServer) -> float:
    """Wait until `gm serve` has sent the set-up replies; the seconds that took."""
    started = time.perf_counter()
    while len(smtp.received) < SETUP_REPLIES:
        if proc.poll() is not None or time.perf_counter() - started > TIMEOUT:
            raise RuntimeError("gm serve did not send the set-up replies")
        time.sleep(0.01)
    return time.perf_counter() - started


def traced_env(root: Path) -> dict[str, str]:
    """`serve_env()` with the trace's logging set up in every process it starts."""
    trace = root / "trace"
    trace.mkdir()
    (trace / "sitecustomize.py").write_text(TRACE_LOGGING)
    env = serve_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(trace), env.get("PYTHONPATH")]))
    return env


def breakdown(url: str, root: Path, rounds: int) -> None:
    """Where an answer's time goes inside the ingesting, measured here (the service stopped) on
    the same database: decoding, reading the commands, the rest of the transaction (storing the
    message, running its commands, rendering and queueing the replies, the commit), and the
    durability sync the service runs before it marks messages processed. Every password was
    checked once first (the service remembers them; the first SIGNON of each power pays a
    scrypt)."""
    db = open_database(url)
    config = maildir_config(root)
    for n, kind in [*((n, "orders") for n in range(len(POWERS))), (0, "GM command")]:
        ingest(db, make_message(n, kind, "warm")[2], config=config, clock=SystemClock())
    times: dict[str, dict[str, list[float]]] = {kind: {} for kind in KINDS}
    try:
        for n in range(rounds * len(KINDS)):
            kind = KINDS[n % len(KINDS)]
            raw = make_message(n, kind, "breakdown")[2]
            t0 = time.perf_counter()
            decoded = decode_message(raw, max_bytes=config.max_message_bytes,
                                     own_addresses=config.address)
            t1 = time.perf_counter()
            parse_message(decoded.text)
            t2 = time.perf_counter()
            ingest(db, raw, config=config, clock=SystemClock())
            t3 = time.perf_counter()
            db.make_durable()
            t4 = time.perf_counter()
            for step, seconds in (("decode", t1 - t0), ("commands read", t2 - t1),
                                  ("the rest of the transaction", (t3 - t2) - (t2 - t0)),
                                  ("durability sync", t4 - t3)):
                times[kind].setdefault(step, []).append(seconds)
    finally:
        db.dispose()
    print(f"inside the ingesting (medians of {rounds} of each kind, measured in this process):")
    for kind, steps in times.items():
        print(f"  {kind:15} " + ", ".join(f"{step} {statistics.median(values) * 1000:.1f} ms"
                                          for step, values in steps.items()))


def bench(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="gm-bench-latency-"))
    root.chmod(0o755)
    dovecot = DovecotServer(root, settings=AS_DEPLOYED + ("\n" + WITHOUT_IDLE if args.no_idle
                                                          else ""))
    smtp = SmtpServer()
    dovecot.start()
    smtp.start()
    proc = None
    try:
        account = dovecot.add_user()
        with database_url(args.postgresql, root) as url:
            db = open_database(url)
            result = ingest(db, _setup_message(), config=maildir_config(root),
                            clock=SystemClock())
            assert result.outcome is Disposition.ANSWERED, result
            db.dispose()
            lmtp = root / "lmtp.sock" if args.lmtp else None
            config = write_config(root, url, account, smtp, poll_interval=args.poll_interval,
                                  lmtp=lmtp)
            offset = time.time() - time.perf_counter()
            proc = start_serve(root, config, traced_env(root), tick_every=60)
            print(f"gm serve sent its first reply {wait_for_setup(proc, smtp):.2f} s after it "
                  "was started")
            time.sleep(1.0)  # its IMAP session waits for new mail now
            while lmtp is not None and not lmtp.exists():  # it listens for LMTP
                if proc.poll() is not None:
                    raise RuntimeError("gm serve stopped")
                time.sleep(0.05)

            def alive() -> bool:
                return proc is not None and proc.poll() is None

            appender: Deliverer = Appender(account) if lmtp is None else LmtpDeliverer(lmtp)
            replies = Replies(smtp)
            steady: list[Sent] = []
            begin = time.perf_counter()
            for n in range(args.count):
                pause = begin + n * args.interval - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                steady.append(appender.append(KINDS[n % len(KINDS)], n, "steady"))
                if not alive():
                    raise RuntimeError("gm serve stopped")
            steady_arrivals = replies.wait(steady, alive)
            time.sleep(2.0)
            rush = rush_in(account, args.rush, args.connections, lmtp)
            rush_arrivals = replies.wait(rush, alive)
            appender.close()
            worker = children(proc.pid)
            memory = [("gm serve", memory_mib(proc.pid))]
            memory += [("its sender worker", memory_mib(pid)) for pid in worker]
            cpu = cpu_seconds(proc.pid) + sum(cpu_seconds(pid) for pid in worker)
            load = os.getloadavg()
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
            trace = Trace.read(root / "serve.log", offset)
            backend = "PostgreSQL" if args.postgresql else "SQLite"
            mode = ("delivered over LMTP" if args.lmtp
                    else f"without IDLE (poll every {args.poll_interval:g} s)" if args.no_idle
                    else "with IDLE")
            report(f"{backend}, {mode}: {len(steady)} messages, one every {args.interval:g} s",
                   steady, steady_arrivals, trace)
            for kind in KINDS:
                of_kind = [(a - s.appended) for s, a in zip(steady, steady_arrivals, strict=True)
                           if s.kind == kind]
                if of_kind:
                    print(f"  {kind:18} {quantiles(of_kind)}")
            print(f"  the first message (the service's first ingesting): "
                  f"{(steady_arrivals[0] - steady[0].appended) * 1000:.0f} ms")
            if not args.lmtp:
                append_ms = statistics.median(s.appended - s.began for s in steady) * 1000
                print(f"  (an APPEND itself: median {append_ms:.1f} ms)")
            report(f"rush of {len(rush)} at once", rush, rush_arrivals, trace)
            first = min(s.began for s in rush)
            print(f"  the last reply {max(rush_arrivals) - first:.2f} s after the first delivery "
                  f"began (over {args.connections} connections, the deliveries took "
                  f"{max(s.appended for s in rush) - first:.2f} s)")
            print("resident memory: " + "; ".join(f"{name} {now:.0f} MiB (peak {peak:.0f} MiB)"
                                                   for name, (now, peak) in memory)
                  + f"; CPU of both {cpu:.1f} s; load {' '.join(f'{x:.2f}' for x in load)}")
            if args.breakdown:
                breakdown(url, root, args.breakdown)
    finally:
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
        smtp.stop()
        dovecot.stop()
        if args.keep:
            print(f"kept {root} (the service's log: {root / 'serve.log'})")
        else:
            shutil.rmtree(root, ignore_errors=True)


def _setup_message() -> bytes:
    msg = _mail(GM, "setup", "<setup@example.org>")
    msg.set_content(SETUP)
    return bytes(msg)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="messages, one per interval")
    parser.add_argument("--interval", type=float, default=1.0, metavar="SECONDS")
    parser.add_argument("--rush", type=int, default=50, help="messages APPENDed at once")
    parser.add_argument("--connections", type=int, default=5,
                        help="IMAP connections the rush is APPENDed over (default 5)")
    parser.add_argument("--postgresql", action="store_true")
    parser.add_argument("--no-idle", action="store_true",
                        help="Dovecot without IDLE: the service polls")
    parser.add_argument("--lmtp", action="store_true",
                        help="deliver to the service over LMTP (as a mail server does with "
                             "[lmtp]) instead of APPENDing to Dovecot")
    parser.add_argument("--poll-interval", type=float, default=60.0, metavar="SECONDS",
                        help="the service's poll_interval (default 60, its default)")
    parser.add_argument("--breakdown", type=int, default=20, metavar="N",
                        help="then time the steps of ingesting N messages of each kind here "
                             "(default 20; 0: not)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the working directory (the service's log) afterwards")
    bench(parser.parse_args())


if __name__ == "__main__":
    main()
