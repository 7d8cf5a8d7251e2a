"""SET ABSENCE LIMIT <days> | OFF (GM): the days of absence each power may claim."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec
from gm.commands.values import SetAbsenceLimit

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_absence_limit(c: list[Token]) -> Draft:
    word = str(c[0]).lower()
    if word == "on":
        raise Invalid("SET ABSENCE LIMIT needs a number of days, or OFF:"
                      " SET ABSENCE LIMIT 14")
    days = 0 if word == "off" else int(word)
    return Draft(lambda line: SetAbsenceLimit(line, days))


def handle(ctx: Context, command: SetAbsenceLimit) -> None:
    from gm.commands.handlers.absence import set_absence_limit

    set_absence_limit(ctx, command)


COMMAND = CommandSpec(
    value=SetAbsenceLimit,
    keywords=("SET",),
    rules={"set_absence_limit": read_set_absence_limit},
    handle=handle,
)
