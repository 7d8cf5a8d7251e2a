"""STANDBY [<game>] [OFF]: offer (or withdraw the offer) to take over a power that loses its
player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import Standby

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_standby(c: list[Token]) -> Draft:
    off = bool(c) and c[-1].type == "OFF"
    words = c[:-1] if off else c
    game = game_name(words[0]) if words else None
    return Draft(lambda line: Standby(line, game, off))


def handle(ctx: Context, command: Standby) -> None:
    from gm.commands.handlers.standby import standby

    standby(ctx, command)


COMMAND = CommandSpec(
    value=Standby,
    keywords=("STANDBY",),
    rules={"standby": read_standby},
    handle=handle,
    usage={
        "STANDBY": (
            "STANDBY may name a game, and OFF withdraws: STANDBY mygame, STANDBY (any game),"
            " STANDBY mygame OFF or STANDBY OFF"
        ),
    },
    without_signon=True,
)
