"""HELP [<topic>]: the commands, by topic (gm.commands.help), or a variant's rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Help

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_help(c: list[Token]) -> Draft:
    topic = joined(c) or None
    return Draft(lambda line: Help(line, topic))


def handle(ctx: Context, command: Help) -> None:
    from gm.commands.handlers.info import help_command

    help_command(ctx, command)


COMMAND = CommandSpec(
    value=Help,
    keywords=("HELP",),
    rules={"help": read_help},
    handle=handle,
    usage={
        "HELP": "HELP may name a topic: HELP or HELP ORDERS",
    },
    without_signon=True,
)
