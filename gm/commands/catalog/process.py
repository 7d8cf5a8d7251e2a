"""PROCESS [<phase>] (GM): adjudicate the current phase now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gm.commands.handlers.common import matches_phase, phase_text, variant_of
from gm.commands.handlers.context import Notice
from gm.commands.handlers.gm_control import open_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play.bouncing import bouncing_lines
from gm.play.variant_watch import variant_problems
from gm.store import audit
from gm.store import powers as powers_repo
from gm.store import press as press_repo

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
    from gm.play.adjudicate import adjudicate_phase, record_adjudication, submissions
    from gm.play.compose_reports import compose_reports

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
    done = adjudicate_phase(game, phase, powers_repo.list_powers(ctx.session, game.id),
                            submissions(ctx.session, variant, phase), now=ctx.now,
                            session=ctx.session)
    record_adjudication(ctx.session, done)
    reports = compose_reports(done, press_repo.list_press(ctx.session, game.id),
                              service=ctx.service, bouncing=bouncing_lines(ctx.session, game))
    this_phase, step = done.name, done.step
    next_phase = variant.format_phase(step.state.phase)
    audit.record_action(ctx.session, actor=ctx.sender, action="process", now=ctx.now,
                        game_id=game.id, details={"phase": this_phase},
                        inbound_id=ctx.inbound_id)
    for report in reports:  # one message each: addresses stay private
        ctx.results.mail.append(Notice(report.recipients, report.subject, report.text, game.id,
                                       html=report.html, attachments=report.attachments))
    if done.next_phase is not None:  # orders sent ahead for the phase opened now
        from gm.play.orders_ahead import apply_opened  # loads the adjudicator: as above

        for sent in apply_opened(ctx.session, [game.id], now=ctx.now, service=ctx.service):
            ctx.results.mail.append(Notice(sent.recipients, sent.subject, sent.body, game.id))
    ctx.results.add(f"{this_phase} of {game.name} processed; the report went to every player."
                    + ("" if step.state.finished else f" Now: {next_phase}."))


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
