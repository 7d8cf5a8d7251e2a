"""Reply latency behind Postfix, as the guide sets gm up (deploy/GUIDE.md, section 3): a player
submits a message to Postfix's smtpd, Postfix hands it to `gm serve` over LMTP, gm answers
through Postfix, and Postfix delivers the answer into the player's Maildir. Timed for each
message from the end of its SMTP submission to the moment its reply (matched by In-Reply-To)
is in the player's mailbox: what a player waits, the mail server's own steps included.

`gm serve` runs as in production (its own process and sender worker, from compiled bytecode),
with the default poll interval (60 s), so a timer anywhere in the path would show. A game of
seven players is set up first; then a message is submitted every --interval seconds, in turn:
a power's orders, a power's press to another, a GM command (SUMMARY). Printed: p50, p90, p99
and max, overall and by kind. Needs root (Postfix's master) and Postfix installed (tests/run
installs it).

    .venv/bin/python benchmarks/bench_postfix_latency.py               # 120 messages
    .venv/bin/python benchmarks/bench_postfix_latency.py --count 30    # a quick look
"""

from __future__ import annotations

import argparse
import email
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_latency import quantiles  # noqa: E402
from benchmarks.serve_support import (  # noqa: E402
    GAME,
    GM_PASSWORD,
    SETUP,
    database_url,
    password,
    serve_env,
)
from tests.support.fixtures.postfix import PostfixServer  # noqa: E402
from tests.support.service_support import GM, PLAYERS, SERVICE, SPRING_1901  # noqa: E402

POWERS = sorted(PLAYERS)
KINDS = ("orders", "press", "GM command")


@dataclass
class Sent:
    kind: str
    address: str
    message_id: str
    at: float


def _mail(sender: str, body: str, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, SERVICE, "latency"
    msg["Message-ID"] = message_id
    msg.set_content(body + "\n")
    return bytes(msg)


def _body(n: int, kind: str) -> tuple[str, str]:
    """The sender's address and the body of message `n`."""
    power = POWERS[n % len(POWERS)]
    signon = f"SIGNON {power} {GAME} {password(power)}"
    if kind == "orders":
        return PLAYERS[power], "\n".join([signon, *SPRING_1901[power]])
    if kind == "press":
        other = POWERS[(n + 1) % len(POWERS)]
        return PLAYERS[power], f"{signon}\nPRESS TO {other}\nShall we talk?\nENDPRESS"
    return GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nSUMMARY"


def _replied(postfix: PostfixServer, address: str, message_id: str) -> bool:
    folder = postfix.maildir(address) / "new"
    if not folder.exists():
        return False
    for path in folder.iterdir():
        head = path.read_bytes().split(b"\n\n", 1)[0]
        if message_id.encode() in head:
            msg = email.message_from_bytes(head + b"\n\n", policy=default)
            if msg["In-Reply-To"] == message_id:
                return True
    return False


def _wait(condition: object, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise RuntimeError(f"no {what} after {timeout:g} s")
        time.sleep(0.005)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--interval", type=float, default=0.3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-postfix-") as tmp:
        root = Path(tmp)
        root.chmod(0o755)
        postfix = PostfixServer(root / "postfix")
        postfix.start()
        try:
            with database_url(False, root) as url:
                return _run(args, root, postfix, url)
        finally:
            postfix.stop()


def _run(args: argparse.Namespace, root: Path, postfix: PostfixServer, url: str) -> int:
    import subprocess

    config = root / "gm.toml"
    config.write_text(
        f'database_url = "{url}"\naddress = "{SERVICE}"\n'
        'trusted_received_hosts = ["mx.example.org"]\n'
        f'[lmtp]\nlisten = "127.0.0.1:{postfix.lmtp_port}"\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {postfix.port}\nsecurity = "plain"\n')
    log = (root / "serve.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "gm", "serve", "--config", str(config)],
                            env=serve_env(), stdout=log, stderr=subprocess.STDOUT)
    try:
        postfix.submit(GM, [SERVICE], _mail(GM, SETUP, "<setup@bench>"))
        _wait(lambda: _replied(postfix, GM, "<setup@bench>"), "reply to the set-up")
        sent: list[Sent] = []
        waits: dict[str, list[float]] = {kind: [] for kind in KINDS}
        lock = threading.Lock()
        done = threading.Event()

        def watch() -> None:  # the replies are timed as they land, while more are sent
            seen: set[str] = set()
            while not done.is_set():
                with lock:
                    pending = [item for item in sent if item.message_id not in seen]
                for item in pending:
                    if _replied(postfix, item.address, item.message_id):
                        waits[item.kind].append(time.perf_counter() - item.at)
                        seen.add(item.message_id)
                if len(seen) == args.count:
                    return
                time.sleep(0.002)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            for n in range(args.count):
                kind = KINDS[n % len(KINDS)]
                address, body = _body(n, kind)
                message_id = f"<m{n}@bench>"
                postfix.submit(address, [SERVICE], _mail(address, body, message_id))
                with lock:
                    sent.append(Sent(kind, address, message_id, time.perf_counter()))
                time.sleep(args.interval)
            watcher.join(120)
        finally:
            done.set()
            watcher.join()
        got = sum(len(v) for v in waits.values())
        if got < args.count:
            raise RuntimeError(f"no reply to {args.count - got} messages")
    finally:
        proc.terminate()
        proc.wait(60)
        log.close()
    every = [w for values in waits.values() for w in values]
    print(f"{len(every)} messages through Postfix (submitted every {args.interval:g} s), "
          "from the end of the SMTP submission to the reply in the sender's Maildir:")
    print(f"  all: {quantiles(every)}")
    for kind, values in waits.items():
        print(f"  {kind}: {quantiles(values)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
