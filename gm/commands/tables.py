"""The tables the reader, the dispatcher and HELP use, made from the commands' declarations
(gm.commands.spec.CommandSpec): nothing here is a list kept by hand.

gm.commands.catalog makes them from every command module and publishes them (`publish`); the
HELP command, which is one of those modules, reads them at run time (`published`) instead of
importing the catalog that imports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gm.commands.reading import Reader
from gm.commands.spec import TOPIC_ORDER, CommandSpec, Handler
from gm.commands.values import Command
from gm.secret import MASK


@dataclass(frozen=True)
class Tables:
    """What the commands declare, gathered by what uses it."""

    commands: tuple[CommandSpec, ...]
    rules: Mapping[str, Reader]  # grammar rule (or alias) -> the reader of its parse tree
    keywords: frozenset[str]  # first words a command line starts with
    password_keywords: frozenset[str]  # keywords whose lines may hold a password
    usage: Mapping[str, str]  # keyword -> what a line starting with it needs
    set_usage: Mapping[str, str]  # second word of a SET line -> the same
    handlers: Mapping[type[Command], Handler]
    without_signon: tuple[type[Command], ...]  # run even after a refused SIGNON
    answers_only: tuple[type[Command], ...]  # change nothing, only answer (reply_cap)
    help_topics: Mapping[str, str]  # each HELP topic: every command's lines, by place


def tables(commands: Sequence[CommandSpec]) -> Tables:
    """The tables of these commands."""
    return Tables(
        commands=tuple(commands),
        rules={rule: reader for c in commands for rule, reader in c.rules.items()},
        keywords=frozenset(k for c in commands for k in c.keywords),
        password_keywords=frozenset(k for c in commands if c.holds_password for k in c.keywords),
        usage={**{k: t for c in commands for k, t in c.usage.items()},
               **set_needs(commands)},
        set_usage={**set_no_needs(commands),
                   **{k: t for c in commands for k, t in c.set_usage.items()}},
        handlers={c.value: c.handle for c in commands if c.handle is not None},
        without_signon=tuple(c.value for c in commands if c.without_signon),
        answers_only=tuple(c.value for c in commands if c.answers_only),
        help_topics=help_topics(commands),
    )


def help_topics(commands: Iterable[CommandSpec]) -> dict[str, str]:
    """Each HELP topic: the lines every command gives it, by place (spec.HelpLines)."""
    lines: dict[str, list[tuple[int, str]]] = {}
    for command in commands:
        for entry in command.help:
            lines.setdefault(entry.topic, []).append((entry.place, entry.text))
    order = [*TOPIC_ORDER, *sorted(set(lines).difference(TOPIC_ORDER))]
    return {topic: "".join(text for _, text in sorted(lines[topic])) for topic in order}


def _settings(commands: Iterable[CommandSpec], players: bool) -> list[str]:
    """The SET commands' settings (set_words), players' or the gamemaster's, in the order of
    their lines in HELP, each once."""
    def place(command: CommandSpec) -> tuple[int, int]:
        first = command.help[0] if command.help else None
        if first is None:
            return len(TOPIC_ORDER), 0
        topic = TOPIC_ORDER.index(first.topic) if first.topic in TOPIC_ORDER else len(TOPIC_ORDER)
        return topic, first.place

    chosen = sorted((c for c in commands if c.set_words and c.player_setting == players),
                    key=place)
    return list(dict.fromkeys(w for c in chosen for w in c.set_words))


def set_needs(commands: Sequence[CommandSpec]) -> dict[str, str]:
    """What a SET line that no SET command reads needs: every setting, players' first."""
    players, gm = _settings(commands, True), _settings(commands, False)
    if not players and not gm:
        return {}
    return {"SET": f"SET needs one of {', '.join(players)} (players) or {', '.join(gm)}"
                   " (gamemaster); HELP SET and HELP DEADLINES show each"}


def set_no_needs(commands: Sequence[CommandSpec]) -> dict[str, str]:
    """What `SET NO` followed by no known setting needs: the settings SET NO turns off."""
    def no(players: bool) -> list[str]:
        return [w.removeprefix("NO ") for w in _settings(commands, players)
                if w.startswith("NO ")]

    players, gm = no(True), no(False)
    if not players:
        return {}
    listed = ", ".join(players[:-1]) + f" or {players[-1]}" if len(players) > 1 else players[0]
    return {"NO": (f"SET NO needs {listed}: "
                   + ", ".join(f"SET NO {w}" for w in players[:-1])
                   + (f" or SET NO {players[-1]}" if len(players) > 1 else f"SET NO {players[0]}")
                   + (f" (the gamemaster's: {', '.join(f'SET NO {w}' for w in gm)})"
                      if gm else ""))}


def mask_unread(words: Sequence[str], keyword: str, table: Tables) -> list[str]:
    """The words of a line of `keyword` that was not read, with what may be a password masked:
    where a command of that keyword says (CommandSpec.masks), else the last word of a line
    whose command may end with one (holds_password)."""
    for command in table.commands:
        if keyword in command.keywords and command.masks is not None:
            masked = command.masks(words)
            if masked is not None:
                return masked
    if keyword in table.password_keywords and len(words) > 1:
        return [*words[:-1], MASK]
    return list(words)


_RULE = re.compile(r"^\??(\w+):", re.M)
_ALIAS = re.compile(r"->\s*(\w+)")


def command_rule(grammar: str, keys: Iterable[str]) -> str:
    """The grammar's `command` rule: an alternative for each rule a command reads (`keys`:
    CommandSpec.rules, rule names or the aliases of a rule's alternatives), in that order."""
    owner: dict[str, str] = {}
    starts = list(_RULE.finditer(grammar))
    for at, found in enumerate(starts):
        end = starts[at + 1].start() if at + 1 < len(starts) else len(grammar)
        owner.setdefault(found.group(1), found.group(1))
        for alias in _ALIAS.findall(grammar, found.end(), end):
            owner.setdefault(alias, found.group(1))
    missing = [key for key in keys if key not in owner]
    if missing:
        raise ValueError(f"commands read the rules {missing}, which the grammar lacks")
    chosen = dict.fromkeys(owner[key] for key in keys)
    return "?command: " + "\n        | ".join(chosen) + "\n"


_published: list[Tables] = []


def publish(table: Tables) -> None:
    """Make the catalog's tables known to the commands that read them at run time (HELP)."""
    _published[:] = [table]


def published() -> Tables:
    """The catalog's tables (gm.commands.catalog publishes them when it is imported, which
    importing any command module does first)."""
    if not _published:
        raise RuntimeError("gm.commands.catalog has not been imported")
    return _published[0]
