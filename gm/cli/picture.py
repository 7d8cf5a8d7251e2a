"""`gm picture GAME [PHASE] [-o DIR]`: a game's map pictures as files, for a GM or a reviewer."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "picture",
        help="write the map pictures of a game's phase (PNG and SVG)",
        description=(
            "Write the pictures of a phase of GAME, as the phase report carries them: the "
            "orders drawn on the position they were given in, and the position after the "
            "phase; each as PNG and SVG. PHASE is a phase name as reports write it ('Spring "
            "1901, Movement', any letter case) or its short form (S1901M); without it, the "
            "last processed phase (or, before any, the position now). Prints the files "
            "written."),
    )
    p.add_argument("game", help="the game's name (any letter case)")
    p.add_argument("phase", nargs="?", help="the phase (default: the last processed one)")
    p.add_argument("-o", "--output", type=Path, metavar="DIR", default=Path("."),
                   help="the folder to write to (default: the current one)")
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def run(args: argparse.Namespace) -> int:
    from gm.cli.service_setup import open_service
    from gm.pictures.png import svg_to_png
    from gm.pictures.render import phase_pictures
    from gm.store import games as games_repo
    from gm.store import phases as phases_repo
    from gm.variants import get_variant

    opened = open_service("picture", args.config)
    if opened is None:
        return 2
    _config, db = opened
    try:
        with db.read() as session:
            game = games_repo.find_game(session, args.game)
            if game is None:
                print(f"gm picture: there is no game called {args.game!r}", file=sys.stderr)
                return 1
            history = phases_repo.history(session, game.id)
    finally:
        db.dispose()
    variant = get_variant(game.variant)
    index = None
    if args.phase is not None:
        wanted = _key(args.phase)
        found = [i for i, p in enumerate(history)
                 if wanted in (_key(variant.format_phase(p.phase)),
                               _key(variant.calendar.short(p.phase)))]
        if not found:
            names = ", ".join(variant.format_phase(p.phase) for p in history)
            print(f"gm picture: {game.name} has no phase {args.phase!r}; its phases: {names}",
                  file=sys.stderr)
            return 1
        index = found[0]
    if not history:
        print(f"gm picture: {game.name} has no phase yet", file=sys.stderr)
        return 1
    args.output.mkdir(parents=True, exist_ok=True)
    for picture in phase_pictures(variant, game.name, history, index):
        files = ((".png", svg_to_png(picture.svg)), (".svg", picture.svg.encode("utf-8")))
        for suffix, data in files:
            path = args.output / f"{picture.stem}{suffix}"
            path.write_bytes(data)
            print(path)
    return 0
