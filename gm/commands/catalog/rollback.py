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
    matches_phase,
    phase_text,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play.rollback import Refusal, RollbackRefused, roll_back
from gm.store import phases as phases_repo
from gm.variants import Variant

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
    """Reopen an earlier phase (gm.play.rollback) and say so, or why not."""
    signed = as_master(ctx, "ROLLBACK")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    variant = variant_of(game)
    ref = command.phase
    withdrawn = phases_repo.current_phase(ctx.session, game.id)  # its event is cancelled
    outcome = roll_back(
        ctx.session, game, now=ctx.now, actor=ctx.sender, service=ctx.service,
        turn=command.turn, inbound_id=ctx.inbound_id,
        phase=None if ref is None else (lambda r: matches_phase(variant, r, ref)))
    if isinstance(outcome, RollbackRefused):
        ctx.results.add(_refused(game.name, outcome, command, variant))
        return
    if outcome.resumed is not None:
        signed.game = outcome.resumed
    mark = len(ctx.results.mail)
    ctx.results.mail.extend(outcome.mail)
    reopened = phases_repo.current_phase(ctx.session, game.id)
    if reopened is not None:  # the calendar: the reopened phase is a new event
        if withdrawn is not None and not withdrawn.adjudicated \
                and withdrawn.index != reopened.index:
            with_events(ctx, game, withdrawn, mark, moved=True, cancel=True)
        with_events(ctx, game, reopened, mark)
    deadline = shown_deadline(game, outcome.deadline_at)
    waits = ("its deadline, new orders from every power, or PROCESS" if game.settings.early
             else "its deadline or PROCESS")
    ctx.results.add(f"{game.name} is back at the start of {outcome.phase} (deadline "
                    f"{deadline}); the orders of later phases are discarded and every player "
                    f"was told. The orders given for it stand; it waits for {waits}.")


def _refused(game: str, refused: RollbackRefused, command: Rollback, variant: Variant) -> str:
    """Why nothing was rolled back, in words."""
    match refused.why:
        case Refusal.NOT_STARTED:
            return f"ROLLBACK: {game} has not started; there is nothing to roll back."
        case Refusal.FIRST_PHASE:
            return (f"ROLLBACK: {game} is at its first phase; there is none before it (UNSTART "
                    "takes the game back to forming).")
        case Refusal.NO_TURN:
            played = ", ".join(f"{n} {p}" for n, p in enumerate(refused.phases, start=1))
            return (f"ROLLBACK: {game} has no phase {refused.turn} to go back to (its phases "
                    f"by number: {played}).")
        case Refusal.NO_PHASE:
            assert command.phase is not None
            wanted = phase_text(variant, command.phase)
            return (f"ROLLBACK: {game} has no phase {wanted!r} (its phases: "
                    f"{', '.join(refused.phases)}).")
        case Refusal.CURRENT:
            return f"ROLLBACK: {refused.phase} is the current phase of {game} already."


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
