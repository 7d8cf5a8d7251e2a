"""RESUME (GM): start the deadlines again; the phase gets back the time it had left."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.calendar_notices import with_events
from gm.commands.handlers.common import open_phase_of, shown_deadline, variant_of
from gm.commands.handlers.gm_control import set_status
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.render import render
from gm.store import audit
from gm.store import phases as phases_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from datetime import datetime

    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord, PhaseRecord


@dataclass(frozen=True)
class Resume(Command):
    pass


def read_resume(c: list[Token]) -> Draft:
    return Draft(Resume)


def handle(ctx: Context, command: Resume) -> None:
    game = set_status(ctx, "RESUME", (GameStatus.PAUSED,), GameStatus.ACTIVE)
    if game is None:
        return
    phase = open_phase_of(ctx, game)
    deadline = None if phase is None else _deadline_after_pause(ctx, game, phase)
    shown = shown_deadline(game, deadline)
    ctx.results.add(f"{game.name} is active again; deadline {shown}. Every player was told.")
    mark = len(ctx.results.mail)
    tell_game(ctx, game, "the game goes on", render(
        "reply/resumed.txt.j2", game=game.name, deadline=shown,
        phase=None if phase is None else variant_of(game).format_phase(phase.phase),
        service=ctx.service))
    if phase is not None:  # the deadline's event again, moved on by the pause
        with_events(ctx, game, open_phase_of(ctx, game) or phase, mark, moved=True)


def _deadline_after_pause(ctx: Context, game: GameRecord, phase: PhaseRecord) -> datetime | None:
    """The open phase's deadline moved on by the time the game was paused (the time left at
    PAUSE is given back), and stored."""
    if phase.deadline_at is None:
        return None
    paused = audit.audit_log(ctx.session, game_id=game.id, action="pause")
    since = paused[-1].at if paused else ctx.now
    moved = phase.deadline_at + max(ctx.now - since, timedelta(0))
    if moved != phase.deadline_at:
        phases_repo.set_deadline(ctx.session, phase.id, moved)
    return moved


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
