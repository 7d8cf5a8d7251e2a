"""Every email command, one module each: the package is the registry. The tables the reader and
the dispatcher use are made from the modules found in it (each exposing its `COMMAND`).

A command's module (say `pause.py`) is all there is of the command: its frozen value class (a
gm.commands.values.Command), and as its `COMMAND` (gm.commands.spec.CommandSpec) its keyword, the
grammar rule(s) it is read from with the reader turning each rule's parse tree into its value,
what a player is told when its line cannot be read, its lines in the HELP topics, and its
handler. A module imports what its work needs at its head; only the adjudicator and the reports
(gm.play.adjudicate, .reports, .compose_reports) are imported where they are used, because they
add about 0.1 s to a `gm ingest` of orders (benchmarks/bench_ingest_startup.py). The helpers
several commands share sit in gm.commands.handlers, which never imports a command module: the
imports go catalog -> handlers -> values, never back.

To add a command:
1. write its rule in grammars/commands.lark and add it to the `command` alternatives there;
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
from gm.commands.spec import TOPIC_ORDER, CommandSpec, Handler
from gm.commands.usage import SET_USAGE as SHARED_SET_USAGE
from gm.commands.usage import USAGE as SHARED_USAGE
from gm.commands.values import Command


def _command_modules() -> tuple[ModuleType, ...]:
    """The modules of this package, in name order (each has its COMMAND)."""
    return tuple(importlib.import_module(f"{__name__}.{found.name}")
                 for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name))


# The command modules, each with its COMMAND.
MODULES: tuple[ModuleType, ...] = _command_modules()

COMMANDS: tuple[CommandSpec, ...] = tuple(module.COMMAND for module in MODULES)

# Grammar rule (or alias) -> the reader of its parse tree (gm.commands.parse builds with them).
RULES: Mapping[str, Reader] = {
    rule: reader for command in COMMANDS for rule, reader in command.rules.items()
}

# First words a command line starts with (other lines are orders, or not commands).
KEYWORDS = frozenset(keyword for command in COMMANDS for keyword in command.keywords)

# Keywords whose lines may hold a password (masked when a line is quoted back unread).
PASSWORD_KEYWORDS = frozenset(
    keyword for command in COMMANDS if command.holds_password for keyword in command.keywords
)

# Keyword -> what a line starting with it needs; second word of a SET line -> the same.
USAGE: Mapping[str, str] = {
    **SHARED_USAGE, **{k: text for command in COMMANDS for k, text in command.usage.items()}
}
SET_USAGE: Mapping[str, str] = {
    **SHARED_SET_USAGE,
    **{k: text for command in COMMANDS for k, text in command.set_usage.items()},
}

# Value type -> what it does.
HANDLERS: Mapping[type[Command], Handler] = {
    command.value: command.handle for command in COMMANDS if command.handle is not None
}

# Commands that run even after a refused SIGNON (they need no sign-on).
WITHOUT_SIGNON: tuple[type[Command], ...] = tuple(
    command.value for command in COMMANDS if command.without_signon
)

# Commands that change nothing and only answer (deduplicated and capped, gm.commands.reply_cap).
ANSWERS_ONLY: tuple[type[Command], ...] = tuple(
    command.value for command in COMMANDS if command.answers_only
)


def _help_topics() -> dict[str, str]:
    lines: dict[str, list[tuple[int, str]]] = {}
    for command in COMMANDS:
        for entry in command.help:
            lines.setdefault(entry.topic, []).append((entry.place, entry.text))
    order = [*TOPIC_ORDER, *sorted(set(lines).difference(TOPIC_ORDER))]
    return {topic: "".join(text for _, text in sorted(lines[topic])) for topic in order}


# Each HELP topic: the lines every command gives it, by place (gm.commands.spec.HelpLines).
HELP_TOPICS: Mapping[str, str] = _help_topics()


def usage(keyword: str, second: str = "") -> str:
    """What `keyword` (and for SET, the setting `second`) needs, with an example."""
    if keyword == "SET" and second in SET_USAGE:
        return SET_USAGE[second]
    return USAGE.get(keyword, "send HELP for the list of commands")
