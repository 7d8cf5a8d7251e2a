"""The size of a whole phase report mail, as the sender writes it to the outbox, for a played
movement phase of each variant: with the game's default pictures (INLINE: the PNGs in the HTML
report), with SET PICTURES DEFAULT ALL (the SVGs attached too) and with SET PICTURES DEFAULT NONE
(text and HTML only).

    .venv/bin/python benchmarks/bench_report_bytes.py [--modes default,all,none] [--variants ...]

Each game is played through the real service (ingest, the GM's PROCESS, the sender into a
Maildir outbox; SQLite in a temporary folder): every power's units hold, so every unit has a
line and a mark in the orders picture. The figure is the first power's report of the first
movement phase processed, in kB (1024 bytes) of the message file. `default` sends no SET
PICTURES (so the script also measures a version of gm without the command).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from email import message_from_bytes
from email.policy import default
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.service.clock import FixedClock  # noqa: E402
from gm.service.ingest import ingest  # noqa: E402
from gm.service.serve import Service  # noqa: E402
from gm.store import migrate  # noqa: E402
from gm.store.db import open_database  # noqa: E402
from gm.variants import get_variant  # noqa: E402
from gm.variants.registry import names  # noqa: E402
from tests.support.service_support import START, maildir_config, message  # noqa: E402

GM = "master@example.org"
SETTINGS = {"default": [], "all": ["SET PICTURES DEFAULT ALL"],
            "none": ["SET PICTURES DEFAULT NONE"]}


def report_bytes(variant_name: str, mode: str) -> int:
    """The bytes of the first power's report of the variant's first movement phase played."""
    variant = get_variant(variant_name)
    powers = list(variant.power_names)
    first = "p0@example.org"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        url = f"sqlite:///{root / 'gm.sqlite3'}"
        migrate.upgrade(url)
        db = open_database(url)
        config = maildir_config(root)
        clock = FixedClock(START)
        setup = "\n".join([f"CREATE g {variant_name} gmpass"]
                          + [f"ADD {p} p{i}@example.org pw{i}" for i, p in enumerate(powers)]
                          + SETTINGS[mode] + ["START"])
        ingest(db, message(GM, setup), config=config, clock=clock)
        for _ in range(6):  # up to the first movement phase processed
            ingest(db, message(GM, "SIGNON GM g gmpass\nPROCESS"), config=config, clock=clock)
            asyncio.run(Service(db, config, clock=clock, tick_every=None).once())
            for path in sorted((config.maildir.outbox / "new").iterdir()):
                raw = path.read_bytes()
                mail = message_from_bytes(raw, policy=default)
                subject = str(mail["Subject"])
                if (first in str(mail["To"]) and subject.endswith(": results")
                        and "Movement" in subject):
                    return len(raw)
        raise RuntimeError(f"{variant_name}: no movement phase was reported")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="default,all,none")
    parser.add_argument("--variants", default=",".join(names()))
    args = parser.parse_args()
    modes = args.modes.split(",")
    print(f"{'variant':14s}" + "".join(f"{m + ' kB':>12s}" for m in modes))
    for name in args.variants.split(","):
        sizes = [report_bytes(name, m) / 1024 for m in modes]
        print(f"{name:14s}" + "".join(f"{s:12.0f}" for s in sizes))


if __name__ == "__main__":
    main()
