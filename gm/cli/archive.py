"""`gm archive [GAME] DIR`: write the static web archive of a game (or of every started game)
under DIR, as the service does after each processed phase under `[web] archive_dir`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "archive",
        help="write the static web archive of a game, or of every game",
        description=(
            "Write under DIR an index of the games and, for GAME (or with --all every started "
            "game), its pages: every phase's board, orders and results, the public press, the "
            "record (MILA saved-game JSON) and the one-file history. Nothing secret is written:"
            " no address, no partial or grey press, no orders of the open phase. Any web "
            "server serves DIR as it is; so does a browser from the folder."),
    )
    p.add_argument("game", nargs="?", help="the game's name (any letter case)")
    p.add_argument("dir", type=Path, metavar="DIR", help="the archive's folder")
    p.add_argument("--all", action="store_true", help="every started game")
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gm.cli.service_setup import open_service
    from gm.play.archive import update_archive
    from gm.store import games as games_repo

    if (args.game is None) == (not args.all):
        print("gm archive: name a GAME or give --all (gm archive mygame DIR, "
              "gm archive --all DIR)", file=sys.stderr)
        return 2
    opened = open_service("archive", args.config)
    if opened is None:
        return 2
    _config, db = opened
    try:
        with db.read() as session:
            if args.game is not None:
                game = games_repo.find_game(session, args.game)
                if game is None:
                    print(f"gm archive: there is no game called {args.game!r}",
                          file=sys.stderr)
                    return 1
                if game.status.value == "forming":
                    print(f"gm archive: {game.name} has not started; it has no phases yet",
                          file=sys.stderr)
                    return 1
            written = update_archive(session, args.dir, only=args.game, force=True)
    finally:
        db.dispose()
    for name in written:
        print(f"{name}: written to {args.dir}")
    return 0
