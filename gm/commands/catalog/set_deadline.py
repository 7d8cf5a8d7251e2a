"""SET DEADLINE <phase type> <duration | time of day>, SET DEADLINE <duration> (GM): how long
phases last, or when they end, from the next phase on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time, timedelta
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.gm_settings import change, duration_text, game_name
from gm.commands.reading import Draft, Invalid, kind_of_phase, time_of_day
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.usage import DURATIONS
from gm.commands.values import Command
from gm.engine.phase import PhaseType

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.settings import Deadline


@dataclass(frozen=True)
class SetDeadline(Command):
    """`SET DEADLINE <MOVEMENT|RETREAT|ADJUSTMENT|ALL> <48h | 20:00>` or `SET DEADLINE 48h`.

    `phase_type` None means all phase types (a time of day alone is the open phase's
    deadline, set_deadline_at.py). `when` is a timedelta (time allowed from the
    start of the phase) or a time of day (the deadline falls at the next such time, in the
    game's time zone).
    """

    phase_type: PhaseType | None
    when: timedelta | time


def read_set_deadline(c: list[Any]) -> Draft:
    kind = c[0] if len(c) == 2 else None
    phase_type = None if kind is None or str(kind).lower() == "all" else kind_of_phase(kind)
    when: timedelta | time = c[-1] if isinstance(c[-1], timedelta) else time_of_day(c[-1])
    if when == timedelta(0):
        raise Invalid("a deadline needs a time after 0: SET DEADLINE MOVEMENT 48h")
    return Draft(lambda line: SetDeadline(line, phase_type, when))


def handle(ctx: Context, command: SetDeadline) -> None:
    signed = as_master(ctx, "SET DEADLINE")
    if signed is None:
        return
    kinds = list(PhaseType) if command.phase_type is None else [command.phase_type]
    deadlines = dict(refresh(ctx, signed.game).settings.deadlines)
    for kind in kinds:
        deadlines[kind] = command.when
    rule = (command.when.strftime("%H:%M") if isinstance(command.when, time)
            else int(command.when.total_seconds()))
    settings = change(ctx, "SET DEADLINE", {"phases": [k.value for k in kinds], "rule": rule},
                       deadlines=deadlines)
    if settings is None:
        return
    which = ("every phase" if command.phase_type is None
             else f"{command.phase_type.value.lower()} phases")
    ctx.results.add(f"Deadline of {which} in {game_name(ctx)}: "
                    f"{deadline_text(command.when, settings.timezone)} (from the next phase on).")


def deadline_text(rule: Deadline, zone: str) -> str:
    if isinstance(rule, time):
        return f"at {rule:%H:%M} ({zone})"
    return f"{duration_text(rule)} after the phase opens"


COMMAND = CommandSpec(
    value=SetDeadline,
    keywords=("SET",),
    set_words=("DEADLINE",),
    rules={"set_deadline": read_set_deadline},
    handle=handle,
    set_usage={
        "DEADLINE": (
            "SET DEADLINE needs a time: the deadline of the phase open now as a date"
            " (SET DEADLINE 23:30, SET DEADLINE Tue 18:00, SET DEADLINE Dec 9 18:00,"
            " SET DEADLINE 2026-12-01 18:00), or the rule for the phases to come, after the"
            " phase type if it is for one type only: SET DEADLINE 48h, SET DEADLINE MOVEMENT 2d,"
            f" SET DEADLINE RETREAT 24h or SET DEADLINE ALL 20:00 (phase types MOVEMENT,"
            f" RETREAT, ADJUSTMENT, ALL; times {DURATIONS} after the phase begins, or a time"
            " of day such as 20:00)"
        ),
    },
    help=(
        HelpLines("DEADLINES", 20, """\
    SET DEADLINE <type> <time>     how long each phase lasts, or when it ends:
                                   SET DEADLINE MOVEMENT 48h
                                   SET DEADLINE RETREAT 24h
                                   SET DEADLINE ADJUSTMENT 1d12h
                                   SET DEADLINE ALL 2d
                                   SET DEADLINE MOVEMENT 20:00  (at the next 20:00)
                                   SET DEADLINE 48h  (a length of time without a
                                   type: every phase; a time of day without a type
                                   is this phase's deadline, SET DEADLINE <date>)
"""),
    ),
)
