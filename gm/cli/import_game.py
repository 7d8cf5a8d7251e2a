"""`gm import FILE (--replay | --game NAME --gm ADDRESS --password PASSWORD)`: a MILA saved
game (the `diplomacy` package's JSON, or a line of its .jsonl; docs/game-record.md) replayed
through gm's adjudicator, or made a game at its last position."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "import",
        help="replay a MILA saved game through gm's adjudicator, or start a game from it",
        description=(
            "Read FILE, a MILA saved game (the diplomacy package's to_saved_game_format JSON, "
            "or one line of a .jsonl file; gm's own HISTORY FILE record too). --replay "
            "adjudicates each phase with gm from the file's position and orders and names "
            "every phase where gm reaches another position than the file's next phase "
            "(exit status 1 if any). Otherwise a game called NAME is made at the file's last "
            "position (a movement or adjustment phase), paused, its powers without players: "
            "the GM seats them by mail with REPLACE <power> <address> and goes on with "
            "RESUME."),
    )
    p.add_argument("file", type=Path, metavar="FILE", help="the saved game (JSON or JSONL)")
    p.add_argument("--line", type=int, default=1, metavar="N",
                   help="the game on line N of a .jsonl file (default 1)")
    p.add_argument("--replay", action="store_true",
                   help="compare the file's phases with gm's adjudication")
    p.add_argument("--game", metavar="NAME", help="the new game's name")
    p.add_argument("--gm", metavar="ADDRESS", help="the new game's GM")
    p.add_argument("--password", metavar="PASSWORD", help="the GM's password")
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def _load(path: Path, line: int) -> Any:
    from gm.play.import_mila import load_saved

    return load_saved(path.read_text(encoding="utf-8"), line)


def run(args: argparse.Namespace) -> int:
    from gm.play.import_mila import ImportProblem, read_saved_game, replay, replay_lines

    try:
        saved = read_saved_game(_load(args.file, args.line))
    except (OSError, ValueError, ImportProblem) as problem:
        print(f"gm import: {args.file}: {problem}", file=sys.stderr)
        return 2
    if args.replay:
        found = replay(saved)
        print("\n".join(replay_lines(saved, found)))
        return 1 if found else 0
    if not (args.game and args.gm and args.password):
        print("gm import: give --replay, or --game NAME --gm ADDRESS --password PASSWORD to "
              "start a game", file=sys.stderr)
        return 2
    return _create(args, saved)


def _create(args: argparse.Namespace, saved: Any) -> int:
    from gm.cli.service_setup import open_service
    from gm.play.import_mila import ImportProblem, create_imported_game
    from gm.service.clock import SystemClock
    from gm.store.errors import GameNameTaken

    opened = open_service("import", args.config)
    if opened is None:
        return 2
    _config, db = opened
    try:
        with db.transaction() as session:
            game = create_imported_game(session, saved, name=args.game, gm_address=args.gm,
                                        gm_password=args.password, now=SystemClock().now())
    except ImportProblem as problem:
        print(f"gm import: {args.file}: {problem}", file=sys.stderr)
        return 1
    except GameNameTaken:
        print(f"gm import: there is a game called {args.game!r} already", file=sys.stderr)
        return 1
    finally:
        db.dispose()
    print(f"{game.name}: made at {saved.phases[-1].name} ({saved.variant.title}), paused; "
          f"the GM seats each power by mail (SIGNON GM {game.name} <password>, then "
          "REPLACE <power> <address>) and sends RESUME.")
    return 0
