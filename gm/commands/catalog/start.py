"""START (GM): start the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.begin import begin
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Start(Command):
    pass


def read_start_game(c: list[Token]) -> Draft:
    return Draft(Start)


def handle(ctx: Context, command: Start) -> None:
    begin(ctx, "START", force=False)


COMMAND = CommandSpec(
    value=Start,
    keywords=("START",),
    rules={"start_game": read_start_game},
    handle=handle,
    usage={
        "START": "START takes nothing after it",
    },
    help=(
        HelpLines("GM", 60, """\
    START                                  start the game
"""),
    ),
)
