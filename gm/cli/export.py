"""`gm export GAME (--json | --scenario) [-o FILE]`: a game's full record."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "export",
        help="write a game's full record as JSON or as scenario-format cases",
        description=(
            "Write the whole record of GAME from the database: --json gives one JSON document "
            "(settings, powers, every phase with its state, submissions, results and events, "
            "and the press; no addresses or passwords); --scenario gives one scenario case "
            "per adjudicated phase, which `gm scenario FILE` runs and should pass."),
    )
    p.add_argument("game", help="the game's name (any letter case)")
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--json", action="store_true", help="the record as JSON")
    kind.add_argument("--scenario", action="store_true", help="the record as scenario cases")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="write to FILE instead of standard output")
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gm.cli.service_setup import open_service
    from gm.export import game_record, scenario_text
    from gm.store import games as games_repo

    opened = open_service("export", args.config)
    if opened is None:
        return 2
    _config, db = opened
    try:
        with db.read() as session:
            game = games_repo.find_game(session, args.game)
            if game is None:
                print(f"gm export: there is no game called {args.game!r}", file=sys.stderr)
                return 1
            if args.json:
                text = json.dumps(game_record(session, game.id), indent=2,
                                  ensure_ascii=False) + "\n"
            else:
                text = scenario_text(session, game.id)
    finally:
        db.dispose()
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0
