"""FORCE BEGIN (GM): start a forming game one or more players short; the powers nobody plays
start in civil disorder (njudge's FORCE BEGIN)."""

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
class ForceBegin(Command):
    """`FORCE BEGIN` (also FORCE START)."""


def read_force_begin(c: list[Token]) -> Draft:
    return Draft(ForceBegin)


def handle(ctx: Context, command: ForceBegin) -> None:
    begin(ctx, "FORCE BEGIN", force=True)


COMMAND = CommandSpec(
    value=ForceBegin,
    keywords=("FORCE",),
    rules={"force_begin": read_force_begin},
    handle=handle,
    usage={
        "FORCE": "FORCE needs BEGIN: FORCE BEGIN (start the game with the players it has)",
    },
    help=(
        HelpLines("GM", 62, """\
    FORCE BEGIN                            start the game players short: the powers
                                           nobody plays start in civil disorder (their
                                           units hold; STANDBY, REPLACE or TAKEOVER
                                           may give them a player)
"""),
    ),
)
