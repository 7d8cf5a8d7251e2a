"""The `gm` command line: one module per subcommand, each with `register(subparsers)`."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import argparse

# Subcommand modules, in the order `gm --help` lists them.
SUBCOMMANDS = (
    "gm.cli.demo", "gm.cli.scenario", "gm.cli.db", "gm.cli.serve", "gm.cli.ingest",
    "gm.cli.shunt", "gm.cli.tick", "gm.cli.export", "gm.cli.picture", "gm.cli.unlock",
    "gm.cli.variant", "gm.cli.archive", "gm.cli.import_game",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of the subcommand module `only` alone."""
    import argparse  # here, not at the top: `gm scenario FILE` runs without it
    parser = argparse.ArgumentParser(
        prog="gm",
        description="A play-by-email gamemaster for Diplomacy and its dynamic-map variants.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in SUBCOMMANDS:
        if only is None or name == only:
            importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    plain = _plain_scenario(words, exiting=argv is None)
    if plain is not None:
        return plain
    # `gm COMMAND ...` imports only that command's module (each module is named after its
    # command); `gm --help` and anything unknown get every subcommand.
    only = f"gm.cli.{words[0]}" if words else None
    parser = build_parser(only if only in SUBCOMMANDS else None)
    args = parser.parse_args(words)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())


def _plain_scenario(words: list[str], exiting: bool = False) -> int | None:
    """`gm scenario FILE...` with nothing but file names: run without building the argument
    parser (argparse and its help formatter cost more start-up time than small scenario files
    take to run). None for anything else, which the full parser reads. `exiting`: this is the
    `gm` command itself (the process ends on return)."""
    if len(words) < 2 or words[0] != "scenario" or any(w.startswith("-") for w in words[1:]):
        return None
    import gc
    from types import SimpleNamespace

    # No collections while importing either (as scenario.main runs): the modules make
    # long-lived objects only, which each collection would walk again.
    enabled = gc.isenabled()
    gc.disable()
    try:
        from gm.cli import scenario

        args = SimpleNamespace(files=words[1:], verbose=False, pattern=None, func=scenario.main)
        status = scenario.main(cast("argparse.Namespace", args))
    finally:
        if enabled and not exiting:
            gc.enable()
    if exiting:
        # The command's process ends here: with its output written, it ends at once, without
        # the interpreter's tear-down (which frees every object one by one: the caches of
        # parsed orders, the maps, the order table), a twentieth of a whole run.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status
