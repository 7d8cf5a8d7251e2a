"""SET LATE HOLD | WAIT | DISORDER [AFTER n] (GM): what happens to late powers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec
from gm.commands.values import LatePolicy, SetLate

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_late_hold(c: list[Token]) -> Draft:
    return Draft(lambda line: SetLate(line, LatePolicy.HOLD))


def read_set_late_wait(c: list[Token]) -> Draft:
    return Draft(lambda line: SetLate(line, LatePolicy.WAIT))


def read_set_late_disorder(c: list[Token]) -> Draft:
    after = int(c[0]) if c else 1
    if after < 1:
        raise Invalid("DISORDER AFTER needs a number of missed deadlines from 1 up")
    return Draft(lambda line: SetLate(line, LatePolicy.DISORDER, after))


def handle(ctx: Context, command: SetLate) -> None:
    from gm.commands.handlers.gm_settings import set_late

    set_late(ctx, command)


COMMAND = CommandSpec(
    value=SetLate,
    keywords=("SET",),
    rules={
        "set_late_hold": read_set_late_hold,
        "set_late_wait": read_set_late_wait,
        "set_late_disorder": read_set_late_disorder,
    },
    handle=handle,
    set_usage={
        "LATE": (
            "SET LATE needs HOLD, WAIT, or DISORDER with an optional count of missed deadlines: SET"
            " LATE HOLD, SET LATE WAIT or SET LATE DISORDER AFTER 2"
        ),
    },
)
