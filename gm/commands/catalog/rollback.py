"""ROLLBACK <phase> (GM): return the game to that phase. njudge's forms (njudge `data/master`):
ROLLBACK <n>, the game as it was before its n-th phase played was processed (turn 1 is the
first phase), and ROLLBACK alone, back to the phase before the current one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.calendar_notices import with_events
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
from gm.commands.reading import Draft, Invalid
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

    phase: PhaseRef | None = None
    turn: int | None = None  # njudge's turn number (1: the first phase); both None: one back


def read_rollback(c: list[PhaseRef]) -> Draft:
    (phase,) = c
    return Draft(lambda line: Rollback(line, phase))


def read_rollback_turn(c: list[Token]) -> Draft:
    turn = int(str(c[0])) if c else None
    if turn is not None and turn < 1:
        raise Invalid("ROLLBACK takes a turn number from 1 (the first phase) up: ROLLBACK 3")
    return Draft(lambda line: Rollback(line, turn=turn))


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
    records = phases_repo.history(ctx.session, game.id)
    current = phases_repo.current_phase(ctx.session, game.id)
    played = ", ".join(f"{n} {variant.format_phase(p.phase)}"
                       for n, p in enumerate(records, start=1))
    ref = command.phase
    if ref is None:
        # njudge's turn n: the n-th phase, reopened; no number: the one before the current
        at = command.turn
        if at is None:
            at = len(records) - (1 if current is not None and not current.adjudicated else 0)
        if at < 1 and command.turn is None:
            ctx.results.add(f"ROLLBACK: {game.name} is at its first phase; there is none before "
                            "it (UNSTART takes the game back to forming).")
            return
        if not 1 <= at <= len(records):
            ctx.results.add(f"ROLLBACK: {game.name} has no phase {at} to go back to (its "
                            f"phases by number: {played}).")
            return
        target = records[at - 1]
    else:
        wanted = phase_text(variant, ref)
        found = next((r for r in records if matches_phase(variant, r, ref)), None)
        if found is None:
            ctx.results.add(f"ROLLBACK: {game.name} has no phase {wanted!r} (its phases: "
                            f"{', '.join(variant.format_phase(p.phase) for p in records)}).")
            return
        target = found
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
    mark = len(ctx.results.mail)
    tell_game(ctx, game, f"rolled back to {name}", body)  # observers had the withdrawn report
    if current is not None and not current.adjudicated and current.index != target.index:
        with_events(ctx, game, current, mark, moved=True, cancel=True)  # withdrawn with it
    with_events(ctx, game, reopened, mark)  # the reopened phase: a new event
    waits = ("its deadline, new orders from every power, or PROCESS" if early
             else "its deadline or PROCESS")
    ctx.results.add(f"{game.name} is back at the start of {name} (deadline {deadline}); "
                    "the orders of later phases are discarded and every player was told. "
                    f"The orders given for it stand; it waits for {waits}.")


COMMAND = CommandSpec(
    value=Rollback,
    keywords=("ROLLBACK",),
    rules={"rollback": read_rollback, "rollback_turn": read_rollback_turn},
    handle=handle,
    usage={
        "ROLLBACK": "ROLLBACK takes a phase, or a phase's number (njudge's turn), or nothing"
                    " (one phase back): ROLLBACK S1901M, ROLLBACK Spring 1901, Movement,"
                    " ROLLBACK 3 or ROLLBACK",
    },
    help=(
        HelpLines("GM", 140, """\
    ROLLBACK <phase>                       return to a phase, for example:
                                           ROLLBACK S1901M
                                           ROLLBACK Spring 1901, Movement
    ROLLBACK <n>                           njudge's turn number: back to the n-th phase
                                           played, as it was before it was processed (1
                                           is the first, in the order HISTORY lists them)
    ROLLBACK                               back to the phase before the current one
"""),
    ),
)
