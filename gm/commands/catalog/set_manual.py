"""SET MANUAL PROCESS / SET NO MANUAL PROCESS (GM): hold every phase for the GM's PROCESS, or
let the deadlines process them again (njudge's SET [NO] MANUAL PROCESS)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change_extra, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store.settings import MANUAL_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetManual(Command):
    """`SET [NO] MANUAL PROCESS`: whether the tick leaves every phase to the GM's PROCESS."""

    manual: bool


def read_set_manual(c: list[Token]) -> Draft:
    return Draft(lambda line: SetManual(line, True))


def read_set_no_manual(c: list[Token]) -> Draft:
    return Draft(lambda line: SetManual(line, False))


def handle(ctx: Context, command: SetManual) -> None:
    what = "SET MANUAL PROCESS" if command.manual else "SET NO MANUAL PROCESS"
    if change_extra(ctx, what, MANUAL_KEY, True if command.manual else None,
                    {"manual": command.manual}) is None:
        return
    ctx.results.add(
        f"Manual processing in {game_name(ctx)}: ON. No phase is processed until you send "
        "PROCESS; you are told once per phase when its deadline has passed or every power "
        "has ordered." if command.manual else
        f"Manual processing in {game_name(ctx)}: OFF. Phases are processed at their "
        "deadline (or early, as SET EARLY says) again.")


COMMAND = CommandSpec(
    value=SetManual,
    keywords=("SET",),
    set_words=("MANUAL PROCESS", "NO MANUAL PROCESS",),
    rules={"set_manual": read_set_manual, "set_no_manual": read_set_no_manual},
    handle=handle,
    set_usage={
        "MANUAL": "SET MANUAL PROCESS takes nothing after it (SET NO MANUAL PROCESS undoes it)",
        "NOMANUAL": "SET NO MANUAL PROCESS takes nothing after it",
    },
    help=(
        HelpLines("DEADLINES", 75, """\
    SET MANUAL PROCESS             hold every phase for your PROCESS: nothing is processed
                                   at the deadline; you are told once per phase when it is
                                   due (phases where no power has a choice go on alone)
    SET NO MANUAL PROCESS          process at the deadline again (the default)
"""),
    ),
)
