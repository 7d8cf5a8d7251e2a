"""TERMINATE (GM): end the game; everyone is told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_control import gm_game, status_changed
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import game_life

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Terminate(Command):
    pass


def read_terminate(c: list[Token]) -> Draft:
    return Draft(Terminate)


def handle(ctx: Context, command: Terminate) -> None:
    game = gm_game(ctx, "TERMINATE")
    if game is None:
        return
    done = status_changed(ctx, "TERMINATE", game, game_life.terminate(
        ctx.session, game, now=ctx.now, actor=ctx.sender, service=ctx.service,
        inbound_id=ctx.inbound_id))
    if done is None:
        return
    ctx.results.add(f"{game.name} is terminated: the game is over. Every player was told.")
    ctx.results.mail.extend(done.mail)


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
