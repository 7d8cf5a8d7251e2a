"""REPROCESS <phase> (GM): roll the game back to an adjudicated phase and process it again with
the orders that arrived in time for it but were read only after it was adjudicated (the mail
server held them; gm.commands.handlers.order_arrival keeps them aside, and the GM is told once
for the phase). One command for what would be ROLLBACK, the players' orders asked for again,
and PROCESS."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gm.commands.catalog import process, rollback
from gm.commands.handlers.common import as_master, matches_phase, phase_text, refresh, variant_of
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play import reprocessing

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Reprocess(Command):
    """`REPROCESS Spring 1901, Movement` / `REPROCESS S1901M`."""

    phase: PhaseRef


def read_reprocess(c: list[PhaseRef]) -> Draft:
    (phase,) = c
    return Draft(lambda line: Reprocess(line, phase))


def handle(ctx: Context, command: Reprocess) -> None:
    """Roll back to the phase, make its late orders the powers' orders, process it."""
    signed = as_master(ctx, "REPROCESS")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    variant = variant_of(game)
    wanted = phase_text(variant, command.phase)
    found = reprocessing.late_orders(
        ctx.session, game, lambda record: matches_phase(variant, record, command.phase))
    if found is None:
        ctx.results.add(f"REPROCESS {wanted}: refused, no orders for it were read after it was"
                        " adjudicated; nothing was changed (ROLLBACK returns to a phase, "
                        "PROCESS processes the current one).")
        return
    rollback.handle(ctx, rollback.Rollback(command.line, command.phase))
    if not reprocessing.take_late(ctx.session, game, found):
        return  # the rollback said why not
    ctx.results.add(f"The orders read late for {variant.format_phase(found.phase.phase)} "
                    f"({', '.join(found.powers)}) now stand.")
    process.handle(ctx, process.Process(command.line, command.phase))


COMMAND = CommandSpec(
    value=Reprocess,
    keywords=("REPROCESS",),
    rules={"reprocess": read_reprocess},
    handle=handle,
    usage={
        "REPROCESS": "REPROCESS needs a phase: REPROCESS Spring 1901, Movement (or S1901M)",
    },
    help=(
        HelpLines("GM", 141, """\
    REPROCESS <phase>                      process a phase again with the orders that
                                           arrived in time for it but were read after it
                                           was adjudicated (you are told when that
                                           happens): ROLLBACK, those orders, PROCESS:
                                           REPROCESS S1901M
"""),
    ),
)
