"""SUMMARY <game>: a summary of a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

@dataclass(frozen=True)
class _PowerView:
    name: str
    centres: int
    units: str
    status: str



@dataclass(frozen=True)
class Summary(Command):
    game: str


def read_summary(c: list[Token]) -> Draft:
    game = game_name(c[0])
    return Draft(lambda line: Summary(line, game))


def handle(ctx: Context, command: Summary) -> None:
    from gm.commands.handlers.common import no_game, shown_deadline, variant_of
    from gm.commands.handlers.records import add_rendered
    from gm.play.render import render
    from gm.store import games as games_repo
    from gm.store import phases as phases_repo
    from gm.store import powers as powers_repo
    from gm.store.statuses import GameStatus, PowerStatus

    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"SUMMARY: {no_game(ctx, command.game)}")
        return
    variant = variant_of(game)
    ctx.results.game = game.name
    phase = phases_repo.current_phase(ctx.session, game.id)
    powers: list[_PowerView] = []
    deadline = None
    if phase is not None:
        state = phase.state
        statuses = {p.name: p.status for p in powers_repo.list_powers(ctx.session, game.id)}
        for name in variant.power_names:
            status = statuses.get(name, PowerStatus.PLAYING)
            powers.append(_PowerView(
                name, len(state.centres_of(name)),
                ", ".join(str(u) for u in sorted(state.units_of(name))),
                status.value.replace("_", " ")))
        if phase.deadline_at is not None and not phase.adjudicated:
            if game.status is GameStatus.ACTIVE:
                deadline = shown_deadline(game, phase.deadline_at)
            elif game.status is GameStatus.PAUSED:
                deadline = "none while the game is paused"
    settings = game.settings
    late = settings.late.value.upper() + (f" after {settings.late_after}"
                                          if settings.late_after else "")
    add_rendered(ctx, render(
        "reply/summary.txt.j2", game=game.name, title=variant.title, status=game.status.value,
        phase=None if phase is None else variant.format_phase(phase.phase), deadline=deadline,
        press=settings.press.value.upper(), late=late, powers=powers))


COMMAND = CommandSpec(
    value=Summary,
    keywords=("SUMMARY",),
    rules={"summary": read_summary},
    handle=handle,
    usage={
        "SUMMARY": "SUMMARY needs a game: SUMMARY mygame",
    },
    without_signon=True,
    help=(
        HelpLines("GAMES", 40, """\
    SUMMARY <game>             a summary of a game, for example:
                               SUMMARY mygame
"""),
    ),
)
