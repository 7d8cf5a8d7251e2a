"""PROCESS [<phase>] (GM): adjudicate the current phase now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gm.commands.handlers.common import matches_phase, phase_text, variant_of
from gm.commands.handlers.gm_control import open_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play.variant_watch import variant_problems

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Process(Command):
    """`PROCESS`: adjudicate the current phase now; `PROCESS <phase>` (the classic judges'
    form): only if that phase is the current one."""

    phase: PhaseRef | None = None


def read_process(c: list[PhaseRef]) -> Draft:
    named = c[0] if c else None
    return Draft(lambda line: Process(line, named))


def handle(ctx: Context, command: Process) -> None:
    # not at the head: adjudicating and the reports cost an order's `gm ingest` ~0.1 s
    # (benchmarks/bench_ingest_startup.py)
    from gm.play.process_phase import process_phase

    found = open_game(ctx, "PROCESS", "process", lock=True)
    if found is None:
        return
    game, phase = found
    problems, _digest = variant_problems(ctx.session, game, now=ctx.now)
    if problems:
        ctx.results.add(f"PROCESS: refused, the variant of {game.name} is not the one it "
                        f"started with: {'; '.join(problems)}. Nothing was processed; put the "
                        "variant's file back as it was, or fix it so the position fits.")
        return
    variant = variant_of(game)
    if command.phase is not None and not matches_phase(variant, phase, command.phase):
        ctx.results.add(f"PROCESS {phase_text(variant, command.phase)}: refused, the current"
                        f" phase of {game.name} is {variant.format_phase(phase.phase)}; nothing"
                        " was processed (PROCESS alone processes the current phase).")
        return
    processed = process_phase(ctx.session, game, phase, now=ctx.now, actor=ctx.sender,
                              service=ctx.service, inbound_id=ctx.inbound_id)
    # one message each: addresses stay private
    ctx.results.mail.extend(processed.mail)
    ctx.results.add(f"{processed.name} of {game.name} processed; the report went to every "
                    "player." + ("" if processed.finished else f" Now: {processed.next_name}."))


COMMAND = CommandSpec(
    value=Process,
    keywords=("PROCESS",),
    rules={"process": read_process},
    handle=handle,
    usage={
        "PROCESS": (
            "PROCESS takes nothing after it, or the current phase: PROCESS, PROCESS S1901M"
        ),
    },
    help=(
        HelpLines("GM", 90, """\
    PROCESS                                process the current phase now
    PROCESS <phase>                        only if it is the current phase
                                           (the classic judges' form):
                                           PROCESS S1901M
"""),
    ),
)
