"""SUMMARY <game>: a summary of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import Summary

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_summary(c: list[Token]) -> Draft:
    game = game_name(c[0])
    return Draft(lambda line: Summary(line, game))


def handle(ctx: Context, command: Summary) -> None:
    from gm.commands.handlers.records import summary

    summary(ctx, command)


COMMAND = CommandSpec(
    value=Summary,
    keywords=("SUMMARY",),
    rules={"summary": read_summary},
    handle=handle,
    usage={
        "SUMMARY": "SUMMARY needs a game: SUMMARY mygame",
    },
    without_signon=True,
)
