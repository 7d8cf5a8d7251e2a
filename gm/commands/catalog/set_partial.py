"""SET PARTIAL / SET NO PARTIAL (GM): whether players may send press to some powers only.

With no partial press a player's press must go to everyone (BROADCAST), or to the GM alone;
the classic judges' SET NOPARTIAL. The setting is kept in the game's settings document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change_extra, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.press_settings import PARTIAL_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetPartial(Command):
    """`SET PARTIAL` or `SET NO PARTIAL` (GM)."""

    allowed: bool


def read_set_partial(c: list[Token]) -> Draft:
    return Draft(lambda line: SetPartial(line, True))


def read_set_no_partial(c: list[Token]) -> Draft:
    return Draft(lambda line: SetPartial(line, False))


def handle(ctx: Context, command: SetPartial) -> None:
    what = "SET PARTIAL" if command.allowed else "SET NO PARTIAL"
    if change_extra(ctx, what, PARTIAL_KEY, command.allowed,
                    {"partial": command.allowed}) is not None:
        ctx.results.add(
            f"Partial press in {game_name(ctx)}: allowed (press may go to some powers only)."
            if command.allowed else
            f"Partial press in {game_name(ctx)}: not allowed; players' press goes to everyone"
            " (BROADCAST) or to the GM alone.")


COMMAND = CommandSpec(
    value=SetPartial,
    keywords=("SET",),
    set_words=("PARTIAL", "NO PARTIAL",),
    rules={"set_partial": read_set_partial, "set_no_partial": read_set_no_partial},
    handle=handle,
    set_usage={
        "PARTIAL": "SET PARTIAL takes nothing after it (SET NO PARTIAL forbids partial press)",
        "NOPARTIAL": "SET NOPARTIAL takes nothing after it (SET PARTIAL allows partial press)",
    },
    help=(
        HelpLines("DEADLINES", 52, """\
    SET NO PARTIAL                 players' press only to everyone (BROADCAST)
                                   or to the GM; SET PARTIAL allows press to
                                   some powers again (the default)
"""),
    ),
)
