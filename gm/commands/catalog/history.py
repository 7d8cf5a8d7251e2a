"""HISTORY <game> [<phase>]: the results of a game's past phases."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import History, PhaseRef

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_history(c: list[Any]) -> Draft:
    game = game_name(c[0])
    phase: PhaseRef | None = c[1] if len(c) > 1 else None
    return Draft(lambda line: History(line, game, phase))


def handle(ctx: Context, command: History) -> None:
    from gm.commands.handlers.records import history

    history(ctx, command)


COMMAND = CommandSpec(
    value=History,
    keywords=("HISTORY",),
    rules={"history": read_history},
    handle=handle,
    usage={
        "HISTORY": (
            "HISTORY needs a game and may name a phase: HISTORY mygame, HISTORY mygame S1901M or"
            " HISTORY mygame Spring 1901, Movement"
        ),
    },
    without_signon=True,
)
