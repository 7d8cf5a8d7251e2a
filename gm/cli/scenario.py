"""`gm scenario FILE...`: run adjudication test cases and say which fail and why."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from gm.scenario.format import Case, ScenarioSyntaxError, read_file
from gm.scenario.runner import CaseResult, run_case

if TYPE_CHECKING:
    import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "scenario",
        help="run scenario (adjudication test) files",
        description=(
            "Run the cases of scenario files: build each position, adjudicate its orders, "
            "compare with the expected position. Prints each failing case with the differences "
            "and the orders' results; the last line is `N passed, N failed`. Exit status: 0 all "
            "passed, 1 some failed, 2 a file could not be read."
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="scenario files")
    p.add_argument("--format", action="store_true",
                   help="print the scenario format (how a case is written) and exit")
    p.add_argument(
        "-v", "--verbose", action="store_true", help="print every case with its orders' results"
    )
    p.add_argument(
        "-k", metavar="PATTERN", dest="pattern", help="run only cases whose name contains PATTERN"
    )
    p.add_argument(
        "--variants", type=Path, metavar="DIR",
        help="a folder of variant files whose variants cases may name (default: "
             "$GM_VARIANTS_DIR, if set)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    # Reading and running cases makes many small objects and almost no reference cycles (any
    # are left to the collector once it is enabled again, on return): collecting meanwhile
    # would only walk the same live objects again and again.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _main(args)
    finally:
        if enabled:
            gc.enable()


def _main(args: argparse.Namespace) -> int:
    out: TextIO = sys.stdout
    if getattr(args, "format", False):
        out.write(format_text())
        return 0
    if not args.files:
        print("gm scenario: give one or more scenario files (gm scenario --format: how they "
              "are written)", file=sys.stderr)
        return 2
    folder = getattr(args, "variants", None) or os.environ.get("GM_VARIANTS_DIR")
    if folder:
        from gm.variants.registry import load_directory

        for path, why in load_directory(Path(folder)).refused:
            print(f"error: variant file {path} is not loaded:\n{why}", file=sys.stderr)
    cases: list[Case] = []
    unreadable = False
    for path in args.files:
        try:
            cases.extend(read_file(path))
        except ScenarioSyntaxError as e:
            print(f"error: {e}", file=sys.stderr)
            unreadable = True
        except OSError as e:
            print(f"error: {path}: {e.strerror or e}", file=sys.stderr)
            unreadable = True
    if args.pattern:
        cases = [c for c in cases if args.pattern.lower() in c.name.lower()]
    passed, failed = _run_all(cases, args.verbose, out)
    print(f"{passed} passed, {failed} failed", file=out)
    if unreadable:
        return 2
    return 1 if failed else 0


def _run_all(cases: list[Case], verbose: bool, out: TextIO) -> tuple[int, int]:
    """Run the cases, printing each failing one (every one when `verbose`); the counts of
    passed and failed cases."""
    passed = failed = 0
    for case in cases:
        result = run_case(case)
        if result.passed:
            passed += 1
            if verbose:
                print_result(result, out)
        else:
            failed += 1
            print_result(result, out)
    return passed, failed


def print_result(result: CaseResult, out: TextIO) -> None:
    """The case's name and verdict, what differs, and every order's result."""
    case = result.case
    print(f"{'PASS' if result.passed else 'FAIL'} {case.name}  ({case.where})", file=out)
    if result.error is not None:
        print(f"  error: {result.error}", file=out)
        return
    for diff in result.differences:
        print(f"  {diff.block}:", file=out)
        for line in diff.missing:
            print(f"    expected, not found: {line}", file=out)
        for line in diff.unexpected:
            print(f"    found, not expected: {line}", file=out)
    if result.results:
        print("  orders:", file=out)
        for r in result.results:
            reason = f" ({r.reason})" if r.reason else ""
            print(f"    {r.power}: {r.text}: {r.outcome.word}{reason}", file=out)
    if result.events:
        print("  events:", file=out)
        for event in result.events:
            print(f"    {event}", file=out)


def format_text() -> str:
    """The scenario format's description, installed with gm (gm/scenario/FORMAT.md)."""
    from importlib.resources import files

    return files("gm.scenario").joinpath("FORMAT.md").read_text(encoding="utf-8")
