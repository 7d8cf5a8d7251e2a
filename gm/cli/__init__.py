"""The `gm` command line: one module per subcommand, each with `register(subparsers)`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Subcommand modules, in the order `gm --help` lists them.
SUBCOMMANDS = (
    "gm.cli.demo", "gm.cli.scenario", "gm.cli.db", "gm.cli.serve", "gm.cli.ingest",
    "gm.cli.shunt",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gm",
        description="A play-by-email gamemaster for Diplomacy and its dynamic-map variants.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
