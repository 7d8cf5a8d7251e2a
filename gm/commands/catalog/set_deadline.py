"""SET DEADLINE [<phase type>] <duration | time of day> (GM): how long phases last, or when
they end."""

from __future__ import annotations

from datetime import time, timedelta
from typing import TYPE_CHECKING, Any

from gm.commands.reading import Draft, Invalid, kind_of_phase, time_of_day
from gm.commands.spec import CommandSpec
from gm.commands.usage import DURATIONS
from gm.commands.values import SetDeadline

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_deadline(c: list[Any]) -> Draft:
    kind = c[0] if len(c) == 2 else None
    phase_type = None if kind is None or str(kind).lower() == "all" else kind_of_phase(kind)
    when: timedelta | time = c[-1] if isinstance(c[-1], timedelta) else time_of_day(c[-1])
    if when == timedelta(0):
        raise Invalid("a deadline needs a time after 0: SET DEADLINE MOVEMENT 48h")
    return Draft(lambda line: SetDeadline(line, phase_type, when))


def handle(ctx: Context, command: SetDeadline) -> None:
    from gm.commands.handlers.gm_settings import set_deadline

    set_deadline(ctx, command)


COMMAND = CommandSpec(
    value=SetDeadline,
    keywords=("SET",),
    rules={"set_deadline": read_set_deadline},
    handle=handle,
    set_usage={
        "DEADLINE": (
            "SET DEADLINE needs a time, after the phase type if it is for one type only:"
            f" SET DEADLINE 48h, SET DEADLINE MOVEMENT 2d, SET DEADLINE RETREAT 24h or"
            f" SET DEADLINE ALL 20:00 (phase types MOVEMENT, RETREAT, ADJUSTMENT, ALL; times"
            f" {DURATIONS} after the phase begins, or a time of day such as 20:00)"
        ),
    },
)
