"""SET FAKE / SET NO FAKE (GM): whether players may send fake press.

Fake press (PRESS TO ... FAKE, FAKE BROADCAST, FAKE TO <powers>) is shown to its recipients as
sent to everyone, or to others than it was, never as from another sender (njudge `data/press`);
the GM's copy tells the truth. A game has none unless its GM allows it. Kept in the game's
settings document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change_extra, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.press_settings import FAKE_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetFake(Command):
    """`SET FAKE` or `SET NO FAKE` (GM)."""

    allowed: bool


def read_set_fake(c: list[Token]) -> Draft:
    return Draft(lambda line: SetFake(line, True))


def read_set_no_fake(c: list[Token]) -> Draft:
    return Draft(lambda line: SetFake(line, False))


def handle(ctx: Context, command: SetFake) -> None:
    what = "SET FAKE" if command.allowed else "SET NO FAKE"
    if change_extra(ctx, what, FAKE_KEY, command.allowed,
                    {"fake": command.allowed}) is not None:
        ctx.results.add(
            f"Fake press in {game_name(ctx)}: allowed (your copy of each names its true"
            " sender and recipients)." if command.allowed else
            f"Fake press in {game_name(ctx)}: not allowed.")


COMMAND = CommandSpec(
    value=SetFake,
    keywords=("SET",),
    set_words=("FAKE", "NO FAKE",),
    rules={"set_fake": read_set_fake, "set_no_fake": read_set_no_fake},
    handle=handle,
    set_usage={
        "FAKE": "SET FAKE takes nothing after it (SET NO FAKE forbids fake press)",
        "NOFAKE": "SET NOFAKE takes nothing after it (SET FAKE allows fake press)",
    },
    help=(
        HelpLines("DEADLINES", 54, """\
    SET FAKE                       allow fake press (HELP PRESS); SET NO FAKE
                                   forbids it again (the default)
"""),
    ),
)
