"""PAUSE (GM): stop the deadlines; no orders are taken until RESUME."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.calendar_notices import with_events
from gm.commands.handlers.common import open_phase_of
from gm.commands.handlers.gm_control import set_status
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.render import render
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Pause(Command):
    pass


def read_pause(c: list[Token]) -> Draft:
    return Draft(Pause)


def handle(ctx: Context, command: Pause) -> None:
    game = set_status(ctx, "PAUSE", (GameStatus.ACTIVE,), GameStatus.PAUSED)
    if game is None:
        return
    ctx.results.add(f"{game.name} is now paused: no deadline runs and nothing is processed "
                    "until RESUME. Every player was told.")
    mark = len(ctx.results.mail)
    tell_game(ctx, game, "the game is paused", render(
        "reply/paused.txt.j2", game=game.name, service=ctx.service))
    phase = open_phase_of(ctx, game)  # its deadline's event is cancelled until RESUME
    if phase is not None:
        with_events(ctx, game, phase, mark, moved=True, cancel=True)


COMMAND = CommandSpec(
    value=Pause,
    keywords=("PAUSE",),
    rules={"pause": read_pause},
    handle=handle,
    usage={
        "PAUSE": "PAUSE takes nothing after it",
    },
    help=(
        HelpLines("GM", 70, """\
    PAUSE                                  stop the deadlines (no orders are taken)
"""),
    ),
)
