"""SET REMIND <duration> | ON | OFF (GM): when powers without orders are reminded."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.usage import DURATIONS
from gm.commands.values import SetRemind

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_remind(c: list[Any]) -> Draft:
    (value,) = c
    before: timedelta | None
    if isinstance(value, timedelta):
        before = value
    else:
        before = None if str(value).lower() == "on" else timedelta(0)
    return Draft(lambda line: SetRemind(line, before))


def handle(ctx: Context, command: SetRemind) -> None:
    from gm.commands.handlers.gm_settings import set_remind

    set_remind(ctx, command)


COMMAND = CommandSpec(
    value=SetRemind,
    keywords=("SET",),
    rules={"set_remind": read_set_remind},
    handle=handle,
    set_usage={
        "REMIND": (
            f"SET REMIND needs how long before the deadline, or ON or OFF: SET REMIND 6h"
            f" (or {DURATIONS}; ON is 12 hours, OFF sends no reminders)"
        ),
    },
)
