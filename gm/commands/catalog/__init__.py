"""Every email command, one module each: the package is the registry. The tables the reader and
the dispatcher use are made from the modules found in it (each exposing its `COMMAND`).

A command's module (say `pause.py`) is all there is of the command: its frozen value class (a
gm.commands.values.Command), and as its `COMMAND` (gm.commands.spec.CommandSpec) its keyword, the
grammar rule(s) it is read from with the reader turning each rule's parse tree into its value,
what a player is told when its line cannot be read, its lines in the HELP topics, and its
handler. A module imports what its work needs at its head; only the adjudicator and the reports
(gm.play.adjudicate, .reports, .compose_reports, .process_phase) are imported where used: they
add about 0.1 s to a `gm ingest` of orders (benchmarks/bench_ingest_startup.py). The helpers
several commands share sit in gm.commands.handlers, which never imports a command module: the
imports go catalog -> handlers -> values, never back.

To add a command:
1. write its rule in grammars/commands.lark (the `command` rule's alternatives are made from
   the rules the commands name: gm.commands.tables.command_rule);
2. write its module here: its value class, and a `COMMAND` naming the rule, its reader, usage,
   its HELP lines (`help`: the topic and the place among the topic's lines) and its handler
   (the handler holds its work).
The module is found by the scan below; HELP_TOPICS puts its lines in their topic.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import ModuleType

from gm.commands.reading import Reader
from gm.commands.spec import CommandSpec, Handler
from gm.commands.tables import publish, tables
from gm.commands.values import Command


def _command_modules() -> tuple[ModuleType, ...]:
    """The modules of this package, in name order (each has its COMMAND)."""
    return tuple(importlib.import_module(f"{__name__}.{found.name}")
                 for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name))


# The command modules, each with its COMMAND.
MODULES: tuple[ModuleType, ...] = _command_modules()

COMMANDS: tuple[CommandSpec, ...] = tuple(module.COMMAND for module in MODULES)

TABLES = tables(COMMANDS)
publish(TABLES)

# The tables by name (gm.commands.tables.Tables says what each holds).
RULES: Mapping[str, Reader] = TABLES.rules
KEYWORDS = TABLES.keywords
PASSWORD_KEYWORDS = TABLES.password_keywords
USAGE: Mapping[str, str] = TABLES.usage
SET_USAGE: Mapping[str, str] = TABLES.set_usage
HANDLERS: Mapping[type[Command], Handler] = TABLES.handlers
WITHOUT_SIGNON: tuple[type[Command], ...] = TABLES.without_signon
ANSWERS_ONLY: tuple[type[Command], ...] = TABLES.answers_only
HELP_TOPICS: Mapping[str, str] = TABLES.help_topics


def usage(keyword: str, second: str = "") -> str:
    """What `keyword` (and for SET, the setting `second`) needs, with an example."""
    if keyword == "SET" and second in SET_USAGE:
        return SET_USAGE[second]
    return USAGE.get(keyword, "send HELP for the list of commands")
