"""TERMINATE (GM): end the game; everyone is told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.game_end import tell_game_end
from gm.commands.handlers.gm_control import set_status
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.render import render
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Terminate(Command):
    pass


def read_terminate(c: list[Token]) -> Draft:
    return Draft(Terminate)


def handle(ctx: Context, command: Terminate) -> None:
    game = set_status(ctx, "TERMINATE",
                       (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED),
                       GameStatus.FINISHED)
    if game is None:
        return
    ctx.results.add(f"{game.name} is terminated: the game is over. Every player was told.")
    tell_game_end(ctx, game, "the game is over", render(
        "reply/terminated.txt.j2", game=game.name, service=ctx.service))


COMMAND = CommandSpec(
    value=Terminate,
    keywords=("TERMINATE",),
    rules={"terminate": read_terminate},
    handle=handle,
    usage={
        "TERMINATE": "TERMINATE takes nothing after it",
    },
    help=(
        HelpLines("GM", 160, """\
    TERMINATE                              end the game; everyone is told
"""),
    ),
)
