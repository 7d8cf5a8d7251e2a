"""RESUME (GM): start the deadlines again; the phase gets back the time it had left."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.calendar_notices import with_events
from gm.commands.handlers.common import shown_deadline
from gm.commands.handlers.gm_control import gm_game, status_changed
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import game_life

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Resume(Command):
    pass


def read_resume(c: list[Token]) -> Draft:
    return Draft(Resume)


def handle(ctx: Context, command: Resume) -> None:
    game = gm_game(ctx, "RESUME")
    if game is None:
        return
    done = status_changed(ctx, "RESUME", game, game_life.resume(
        ctx.session, game, now=ctx.now, actor=ctx.sender, service=ctx.service,
        inbound_id=ctx.inbound_id))
    if done is None:
        return
    shown = shown_deadline(game, done.deadline)
    ctx.results.add(f"{game.name} is active again; deadline {shown}. Every player was told.")
    mark = len(ctx.results.mail)
    ctx.results.mail.extend(done.mail)
    if done.phase is not None:  # the deadline's event again, moved on by the pause
        with_events(ctx, game, done.phase, mark, moved=True)


COMMAND = CommandSpec(
    value=Resume,
    keywords=("RESUME",),
    rules={"resume": read_resume},
    handle=handle,
    usage={
        "RESUME": "RESUME takes nothing after it",
    },
    help=(
        HelpLines("GM", 80, """\
    RESUME                                 start them again: the phase gets back the
                                           time it had left; everyone is told
"""),
    ),
)
