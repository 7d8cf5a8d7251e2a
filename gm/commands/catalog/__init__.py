"""Every email command, one module each; the tables the reader and the dispatcher use are
made from this list.

A command's module (say `pause.py`) says what the command is, as one `COMMAND`
(gm.commands.spec.CommandSpec): its keyword, the grammar rule(s) it is read from and the reader
turning each rule's parse tree into its value, what a player is told when its line cannot be
read, and its handler. A handler that needs the store imports its work from
gm.commands.handlers when it first runs, so that a message loads only the work of the commands
it holds (the work modules there are shared by related commands and typed by the values, which
is why the value classes stay in gm.commands.values: the imports go catalog -> handlers ->
values, never back).

To add a command:
1. write its rule in grammars/commands.lark and add it to the `command` alternatives there;
2. add its frozen value class to gm.commands.values;
3. write its module here, with a `COMMAND` naming the rule, its reader, usage and handler
   (the work in the handler itself, or in a module of gm.commands.handlers);
4. list the module in `MODULES` below.
Its HELP lines go in the topic they belong to (gm.commands.catalog.help; a topic about one
command alone, as HELP PRESS, is that command's `HELP`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from gm.commands.catalog import (
    add,
    add_observer,
    ahead,
    clear,
    clear_absence,
    clear_ahead,
    confirm_address,
    create,
    eject,
    help,
    history,
    join,
    join_prefer,
    list_games,
    map_request,
    observe,
    pause,
    press,
    preview,
    process,
    replace,
    replace_standby,
    resign,
    resume,
    rollback,
    set_absence,
    set_absence_limit,
    set_address,
    set_deadline,
    set_draw,
    set_early,
    set_grace,
    set_late,
    set_observe,
    set_observers,
    set_password,
    set_press,
    set_remind,
    set_rulebook,
    set_timezone,
    set_wait,
    signoff,
    signon,
    signon_master,
    standby,
    start,
    summary,
    terminate,
    unlock,
)
from gm.commands.reading import Reader
from gm.commands.spec import CommandSpec, Handler
from gm.commands.usage import SET_USAGE as SHARED_SET_USAGE
from gm.commands.usage import USAGE as SHARED_USAGE
from gm.commands.values import Command

# The command modules, each with its COMMAND.
MODULES: tuple[ModuleType, ...] = (
    signon,
    signon_master,
    join,
    join_prefer,
    signoff,
    press,
    set_password,
    set_draw,
    set_wait,
    list_games,
    history,
    summary,
    help,
    resign,
    clear,
    create,
    add,
    add_observer,
    start,
    pause,
    resume,
    process,
    preview,
    terminate,
    replace,
    replace_standby,
    eject,
    rollback,
    unlock,
    set_deadline,
    set_grace,
    set_timezone,
    set_press,
    set_late,
    set_early,
    set_remind,
    set_observers,
    set_rulebook,
    observe,
    set_observe,
    map_request,
    standby,
    set_address,
    confirm_address,
    set_absence,
    clear_absence,
    set_absence_limit,
    ahead,
    clear_ahead,
)

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


def usage(keyword: str, second: str = "") -> str:
    """What `keyword` (and for SET, the setting `second`) needs, with an example."""
    if keyword == "SET" and second in SET_USAGE:
        return SET_USAGE[second]
    return USAGE.get(keyword, "send HELP for the list of commands")
