"""SET REMIND <duration> | ON | OFF (GM): when powers without orders are reminded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.gm_settings import change, duration_text, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.usage import DURATIONS
from gm.commands.values import Command
from gm.play.reminders import DEFAULT_REMIND, REMIND_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetRemind(Command):
    """`SET REMIND 6h` / `SET REMIND OFF` / `SET REMIND ON`: how long before the deadline
    powers without orders are reminded (zero: never; None: the default)."""

    before: timedelta | None


def read_set_remind(c: list[Any]) -> Draft:
    (value,) = c
    before: timedelta | None
    if isinstance(value, timedelta):
        before = value
    else:
        before = None if str(value).lower() == "on" else timedelta(0)
    return Draft(lambda line: SetRemind(line, before))


def handle(ctx: Context, command: SetRemind) -> None:
    before = DEFAULT_REMIND if command.before is None else command.before
    signed = as_master(ctx, "SET REMIND")
    if signed is None:
        return
    extra = {**refresh(ctx, signed.game).settings.extra,
             REMIND_KEY: int(before.total_seconds())}
    if change(ctx, "SET REMIND", {"seconds": int(before.total_seconds())},
               extra=extra) is None:
        return
    ctx.results.add(f"Reminders in {game_name(ctx)}: " + (
        "OFF (no reminders)." if before <= timedelta(0) else
        f"{duration_text(before)} before the deadline, to powers without orders."))


COMMAND = CommandSpec(
    value=SetRemind,
    keywords=("SET",),
    set_words=("REMIND",),
    rules={"set_remind": read_set_remind},
    handle=handle,
    set_usage={
        "REMIND": (
            f"SET REMIND needs how long before the deadline, or ON or OFF: SET REMIND 6h"
            f" (or {DURATIONS}; ON is 12 hours, OFF sends no reminders)"
        ),
    },
    help=(
        HelpLines("DEADLINES", 80, """\
    SET REMIND <duration>|ON|OFF   remind powers without orders this long before the
                                   deadline (ON: 12 hours, the default; OFF: never)
"""),
    ),
)
