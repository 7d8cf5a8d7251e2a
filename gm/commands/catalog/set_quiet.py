"""SET QUIET / SET NO QUIET (GM; SET GUNBOAT and SET NO GUNBOAT are the same): a gunboat game,
whose players do not learn one another's addresses, before or after the start.

Press and reports never carry a player's address (each is mailed to one address, naming
powers only); what QUIET changes is SUMMARY's list of who played each power when, which then
shows players as "player 1", "player 2" to everyone but the GM, until REVEAL or the game's end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetQuiet(Command):
    """`SET QUIET` (`quiet` True) or `SET NO QUIET`."""

    quiet: bool


def read_set_quiet(c: list[Token]) -> Draft:
    return Draft(lambda line: SetQuiet(line, True))


def read_set_no_quiet(c: list[Token]) -> Draft:
    return Draft(lambda line: SetQuiet(line, False))


def handle(ctx: Context, command: SetQuiet) -> None:
    what = "SET QUIET" if command.quiet else "SET NO QUIET"
    # quiet anew after a REVEAL: hidden again
    changes = {"quiet": True, "revealed": False} if command.quiet else {"quiet": False}
    if change(ctx, what, {"quiet": command.quiet}, **changes) is None:
        return
    if command.quiet:
        ctx.results.add(f"{game_name(ctx)} is QUIET (gunboat): players do not see one "
                        "another's addresses, in SUMMARY or anywhere else, until REVEAL or "
                        "the game's end; you still do.")
    else:
        ctx.results.add(f"{game_name(ctx)} is no longer QUIET: its players see one another's "
                        "addresses in SUMMARY.")


COMMAND = CommandSpec(
    value=SetQuiet,
    keywords=("SET",),
    set_words=("QUIET", "NO QUIET",),
    rules={"set_quiet": read_set_quiet, "set_no_quiet": read_set_no_quiet},
    handle=handle,
    set_usage={
        "QUIET": "SET QUIET takes nothing after it (SET NO QUIET ends it)",
        "GUNBOAT": "SET GUNBOAT takes nothing after it (SET NO GUNBOAT ends it)",
    },
    help=(
        HelpLines("DEADLINES", 57, """\
    SET QUIET                      a gunboat game: players do not see one
                                   another's addresses until REVEAL or the end
                                   (SET GUNBOAT is the same)
    SET NO QUIET                   players see one another's addresses (the
                                   default; SET NO GUNBOAT is the same)
"""),
    ),
)
