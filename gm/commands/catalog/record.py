"""RECORD (anyone): the sender's reliability record over the server's games (gm.play.reliability;
njudge's GET DEDICATION and INFO PLAYER give the like)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.reliability import tell_record
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Record(Command):
    """`RECORD`: the sender's own record."""


def read_record(c: list[Token]) -> Draft:
    return Draft(Record)


def handle(ctx: Context, command: Record) -> None:
    tell_record(ctx)


COMMAND = CommandSpec(
    value=Record,
    keywords=("RECORD",),
    rules={"record": read_record},
    handle=handle,
    usage={"RECORD": "RECORD takes nothing after it: it answers with your own record"},
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 85, """\
    RECORD                     your record over this server's games: phases
                               ordered in time, late and missed, games finished
                               or abandoned, replacements taken (the GMs of games
                               you JOIN or STANDBY for see it; quiet games are
                               counted, not named)
"""),
    ),
)
