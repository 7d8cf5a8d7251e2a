"""`gm shunt list|replay`: the messages the service kept because handling them failed
(shunted), or because their sender was over the rate limit (held)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.config import Config
    from gm.store.db import Database

# The store and the service are imported inside the handlers: `gm` starts fast.


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "shunt",
        help="list or replay messages whose handling failed or that were held",
        description="A message whose handling raised is kept (shunted) with the error, and its "
        "sender is told. Once the cause is fixed, replay it: it is handled again as if it had "
        "just arrived, in one transaction, and answered. A message over its sender's rate "
        "limit (the rate_limit and rate_window settings) is kept unread (held), and its sender "
        "told once per window; replaying it handles it as if it had just arrived.",
    )
    actions = p.add_subparsers(dest="shunt_command", metavar="ACTION")
    actions.required = True
    ls = actions.add_parser("list", help="list the shunted messages with their errors, the "
                                         "held ones, and the GM addresses that bounce")
    ls.set_defaults(func=list_shunted)
    replay = actions.add_parser("replay", help="handle shunted or held messages again")
    replay.add_argument("ids", nargs="*", type=int, metavar="ID", help="message ids (see list)")
    replay.add_argument("--all", action="store_true", help="replay every shunted message")
    replay.add_argument("--held", action="store_true", help="replay every held message")
    replay.set_defaults(func=replay_shunted)
    for sub in (ls, replay):
        sub.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")


def _open(args: argparse.Namespace) -> tuple[Config, Database]:
    from gm.config import load_config
    from gm.store.db import open_database, resolve_url

    config = load_config(args.config, os.environ)
    if config.variants_dir is not None:  # a replayed message may be about a file's variant
        from gm.variants.registry import load_directory

        load_directory(config.variants_dir)
    return config, open_database(resolve_url(config.database_url, config.data_dir))


def list_shunted(args: argparse.Namespace) -> int:
    from gm.store import address_failures
    from gm.store import inbound as inbound_repo
    from gm.store.statuses import InboundStatus

    try:
        _config, db = _open(args)
    except Exception as exc:  # a bad configuration file, no database, an old schema
        print(f"gm shunt: {exc}", file=sys.stderr)
        return 2
    try:
        with db.read() as s:
            kept = inbound_repo.list_inbound(
                s, status=(InboundStatus.SHUNTED, InboundStatus.HELD), limit=10_000)
            masters = address_failures.failing_masters(s)
    finally:
        db.dispose()
    if not kept:
        print("no shunted messages, no held messages")
    for m in reversed(kept):
        error = (m.error or "").strip().splitlines()
        held = "HELD\t" if m.status is InboundStatus.HELD else ""
        print(f"{m.id}\t{held}{m.received_at:%Y-%m-%d %H:%M} UTC\t{m.sender}\t"
              f"{m.subject or ''}")
        print(f"\t{error[-1] if error else 'no error recorded'}")
    for game, failure in masters:  # only the operator can reach a GM whose mail bounces
        print(f"GM BOUNCING\t{failure.since:%Y-%m-%d %H:%M} UTC\t{failure.address}\t"
              f"GM of {game}")
        print(f"\t{failure.reason}")
    return 0


def replay_shunted(args: argparse.Namespace) -> int:
    from gm.service.clock import SystemClock
    from gm.service.ingest import ingest
    from gm.service.sender_wake import wake_sender
    from gm.store import inbound as inbound_repo
    from gm.store.errors import StoreError
    from gm.store.statuses import InboundStatus

    if not args.ids and not args.all and not args.held:
        print("gm shunt replay: name message ids, or --all, or --held", file=sys.stderr)
        return 2
    try:
        config, db = _open(args)
    except Exception as exc:
        print(f"gm shunt: {exc}", file=sys.stderr)
        return 2
    status = 0
    try:
        kinds = [kind for kind, wanted in ((InboundStatus.SHUNTED, args.all),
                                           (InboundStatus.HELD, args.held)) if wanted]
        with db.read() as s:
            listed = inbound_repo.list_inbound(s, status=kinds, limit=10_000) if kinds else []
        ids = list(dict.fromkeys([*args.ids, *(m.id for m in reversed(listed))]))
        for inbound_id in ids:
            try:
                with db.transaction() as s:
                    record = inbound_repo.requeue_inbound(s, inbound_id)
            except StoreError as exc:
                print(f"{inbound_id}: not replayed: {exc}")
                status = 1
                continue
            done = ingest(db, record.raw, config=config, clock=SystemClock())
            detail = f" ({done.error.strip().splitlines()[-1]})" if done.error else ""
            print(f"{inbound_id}: {done.outcome.value}{detail}")
            if done.error:
                status = 1
    finally:
        db.dispose()
    wake_sender(config)
    return status
