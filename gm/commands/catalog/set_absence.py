"""SET ABSENCE <from> TO <to>: days away; deadlines within move past them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, Invalid, day
from gm.commands.spec import CommandSpec
from gm.commands.values import SetAbsence

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_absence(c: list[Token]) -> Draft:
    start, end = day(c[0]), day(c[1])
    if end < start:
        raise Invalid(f"the absence ends ({end}) before it begins ({start}); write the"
                      " first day away, then the last: SET ABSENCE 2026-03-05 TO 2026-03-08")
    return Draft(lambda line: SetAbsence(line, start, end))


def handle(ctx: Context, command: SetAbsence) -> None:
    from gm.commands.handlers.absence import set_absence

    set_absence(ctx, command)


COMMAND = CommandSpec(
    value=SetAbsence,
    keywords=("SET",),
    rules={"set_absence": read_set_absence},
    handle=handle,
    set_usage={
        "ABSENCE": (
            "SET ABSENCE needs your first and last day away, as year-month-day: SET ABSENCE"
            " 2026-03-05 TO 2026-03-08 (SET NO ABSENCE withdraws it; the GM sets the days allowed"
            " with SET ABSENCE LIMIT 14 or SET ABSENCE LIMIT OFF)"
        ),
    },
)
