"""OBSERVE <game> [OFF]: get (or stop getting) the observers' report of every phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import Observe

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_observe(c: list[Token]) -> Draft:
    game, off = game_name(c[0]), len(c) > 1
    return Draft(lambda line: Observe(line, game, off))


def handle(ctx: Context, command: Observe) -> None:
    from gm.commands.handlers.observing import observe

    observe(ctx, command)


COMMAND = CommandSpec(
    value=Observe,
    keywords=("OBSERVE",),
    rules={"observe": read_observe},
    handle=handle,
    usage={
        "OBSERVE": "OBSERVE needs a game, and OFF to stop: OBSERVE mygame or OBSERVE mygame OFF",
    },
    without_signon=True,
)
