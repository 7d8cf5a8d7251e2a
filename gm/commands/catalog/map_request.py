"""MAP <game> [<phase>]: the picture of the board, now or at the start of a phase."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import MapRequest, PhaseRef

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_map(c: list[Any]) -> Draft:
    game = game_name(c[0])
    phase: PhaseRef | None = c[1] if len(c) > 1 else None
    return Draft(lambda line: MapRequest(line, game, phase))


def handle(ctx: Context, command: MapRequest) -> None:
    from gm.commands.handlers.map_request import map_request

    map_request(ctx, command)


COMMAND = CommandSpec(
    value=MapRequest,
    keywords=("MAP",),
    rules={"map": read_map},
    handle=handle,
    usage={
        "MAP": (
            "MAP needs a game and may name a phase: MAP mygame, MAP mygame S1901M or MAP mygame"
            " Fall 1901, Retreats"
        ),
    },
    without_signon=True,
)
