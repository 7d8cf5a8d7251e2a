"""ROLLBACK <phase> (GM): return the game to that phase."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gm.commands.handlers.common import (
    as_master,
    deadline_for,
    matches_phase,
    phase_text,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play.render import render
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Rollback(Command):
    """`ROLLBACK S1901M` / `ROLLBACK Spring 1901, Movement`: return the game to that phase."""

    phase: PhaseRef


def read_rollback(c: list[PhaseRef]) -> Draft:
    (phase,) = c
    return Draft(lambda line: Rollback(line, phase))


def handle(ctx: Context, command: Rollback) -> None:
    """Reopen an earlier phase: later phases and their orders go (kept in the audit log); the
    phase's own orders stand; every player and the GM are told."""
    signed = as_master(ctx, "ROLLBACK")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FORMING:
        ctx.results.add(f"ROLLBACK: {game.name} has not started; there is nothing to roll back.")
        return
    games_repo.lock_game(ctx.session, game.id)
    variant = variant_of(game)
    ref = command.phase
    wanted = phase_text(variant, ref)
    target = next((r for r in phases_repo.history(ctx.session, game.id)
                   if matches_phase(variant, r, ref)), None)
    if target is None:
        played = ", ".join(variant.format_phase(p.phase)
                           for p in phases_repo.history(ctx.session, game.id))
        ctx.results.add(f"ROLLBACK: {game.name} has no phase {wanted!r} (its phases: {played}).")
        return
    current = phases_repo.current_phase(ctx.session, game.id)
    name = variant.format_phase(target.phase)
    if current is not None and current.index == target.index and not current.adjudicated:
        ctx.results.add(f"ROLLBACK: {name} is the current phase of {game.name} already.")
        return
    reopened = phases_repo.rollback_to(
        ctx.session, game.id, target.index, actor=ctx.sender, now=ctx.now,
        deadline_at=deadline_for(game, target.phase.type, ctx.now), inbound_id=ctx.inbound_id)
    if game.status is GameStatus.FINISHED:
        signed.game = games_repo.set_game_status(ctx.session, game.id, GameStatus.ACTIVE,
                                                 now=ctx.now)
    deadline = shown_deadline(game, reopened.deadline_at)
    early = game.settings.early
    body = render("reply/rollback.txt.j2", game=game.name, phase=name, deadline=deadline,
                  early=early, service=ctx.service)
    tell_game(ctx, game, f"rolled back to {name}", body)  # observers had the withdrawn report
    waits = ("its deadline, new orders from every power, or PROCESS" if early
             else "its deadline or PROCESS")
    ctx.results.add(f"{game.name} is back at the start of {name} (deadline {deadline}); "
                    "the orders of later phases are discarded and every player was told. "
                    f"The orders given for it stand; it waits for {waits}.")


COMMAND = CommandSpec(
    value=Rollback,
    keywords=("ROLLBACK",),
    rules={"rollback": read_rollback},
    handle=handle,
    usage={
        "ROLLBACK": "ROLLBACK needs a phase: ROLLBACK S1901M or ROLLBACK Spring 1901, Movement",
    },
    help=(
        HelpLines("GM", 140, """\
    ROLLBACK <phase>                       return to a phase, for example:
                                           ROLLBACK S1901M
                                           ROLLBACK Spring 1901, Movement
"""),
    ),
)
