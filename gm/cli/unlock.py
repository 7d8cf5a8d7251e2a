"""`gm unlock GAME [POWER|GM|ALL]`: the operator lifts the throttling of sign-ons to a game (as
the GM's UNLOCK does; see gm.play.signon_guard)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "unlock",
        help="forget the wrong passwords that throttle sign-ons to a game",
        description="Wrong passwords slow sign-ons to a power (or the GM) from addresses it is "
        "not registered with, and refuse the addresses that sent them. This forgets those "
        "counted so far for one power, the GM, or all of them (the default), as the GM's "
        "UNLOCK command does.",
    )
    p.add_argument("game", help="the game's name")
    p.add_argument("who", nargs="*", metavar="WHO",
                   help="a power (one or two words), GM or ALL (the default)")
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gm.cli.service_setup import open_service
    from gm.play.signon_locks import ALL_KEY, GM_KEY, lift
    from gm.service.clock import SystemClock
    from gm.store import games as games_repo
    from gm.variants import registry

    opened = open_service("unlock", args.config)
    if opened is None:
        return 2
    config, db = opened
    word = " ".join(args.who) or "ALL"
    try:
        with db.transaction() as session:
            game = games_repo.find_game(session, args.game)
            if game is None:
                print(f"gm unlock: no game {args.game!r}", file=sys.stderr)
                return 1
            if word.upper() in ("ALL", "*"):
                key, who = ALL_KEY, "every power and the GM"
            elif word.upper() == GM_KEY:
                key, who = GM_KEY, "the GM"
            else:
                variant = registry.get_variant(game.variant)
                power = variant.power(word)
                if power is None:
                    names = ", ".join(variant.power_names)
                    print(f"gm unlock: {word!r} is not a power of {game.name} (powers: {names}; "
                          "or GM, ALL)", file=sys.stderr)
                    return 1
                key = who = power.name
            lift(session, game.id, key, actor=config.operator or "operator",
                 now=SystemClock().now())
    finally:
        db.dispose()
    print(f"gm unlock: sign-ons to {who} in {game.name} are no longer throttled")
    return 0
