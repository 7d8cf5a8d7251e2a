"""SET GRACE <duration> (GM): extra time for late powers, after each deadline (SET GRACE
<date>, set_grace_at.py, ends the open phase's)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from gm.commands.handlers.gm_settings import change, duration_text, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.usage import DURATIONS
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetGrace(Command):
    grace: timedelta


def read_set_grace(c: list[timedelta]) -> Draft:
    (grace,) = c
    return Draft(lambda line: SetGrace(line, grace))


def handle(ctx: Context, command: SetGrace) -> None:
    if change(ctx, "SET GRACE", {"seconds": int(command.grace.total_seconds())},
               grace=command.grace) is not None:
        ctx.results.add(f"Grace period in {game_name(ctx)}: {duration_text(command.grace)}.")


COMMAND = CommandSpec(
    value=SetGrace,
    keywords=("SET",),
    set_words=("GRACE",),
    rules={"set_grace": read_set_grace},
    handle=handle,
    set_usage={
        "GRACE": (f"SET GRACE needs a duration: SET GRACE 12h (or {DURATIONS}), or when the"
                  " open phase's grace period ends: SET GRACE Tue 23:30"),
    },
    help=(
        HelpLines("DEADLINES", 30, """\
    SET GRACE <duration>           extra time for late powers: SET GRACE 12h
                                   (SET GRACE 0h: none)
"""),
    ),
)
