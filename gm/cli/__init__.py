"""The `gm` command line: one module per subcommand, each with `register(subparsers)`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Subcommand modules, in the order `gm --help` lists them.
SUBCOMMANDS = (
    "gm.cli.demo", "gm.cli.scenario", "gm.cli.db", "gm.cli.serve", "gm.cli.ingest",
    "gm.cli.shunt", "gm.cli.tick", "gm.cli.export",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of the subcommand module `only` alone."""
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
    # `gm COMMAND ...` imports only that command's module (each module is named after its
    # command); `gm --help` and anything unknown get every subcommand.
    only = f"gm.cli.{words[0]}" if words else None
    parser = build_parser(only if only in SUBCOMMANDS else None)
    args = parser.parse_args(words)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
