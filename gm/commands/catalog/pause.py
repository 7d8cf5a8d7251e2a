"""PAUSE (GM): stop the deadlines; no orders are taken until RESUME."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.calendar_notices import with_events
from gm.commands.handlers.gm_control import gm_game, status_changed
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import game_life

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Pause(Command):
    pass


def read_pause(c: list[Token]) -> Draft:
    return Draft(Pause)


def handle(ctx: Context, command: Pause) -> None:
    game = gm_game(ctx, "PAUSE")
    if game is None:
        return
    done = status_changed(ctx, "PAUSE", game, game_life.pause(
        ctx.session, game, now=ctx.now, actor=ctx.sender, service=ctx.service,
        inbound_id=ctx.inbound_id))
    if done is None:
        return
    ctx.results.add(f"{game.name} is now paused: no deadline runs and nothing is processed "
                    "until RESUME. Every player was told.")
    mark = len(ctx.results.mail)
    ctx.results.mail.extend(done.mail)
    if done.phase is not None:  # its deadline's event is cancelled until RESUME
        with_events(ctx, game, done.phase, mark, moved=True, cancel=True)


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
