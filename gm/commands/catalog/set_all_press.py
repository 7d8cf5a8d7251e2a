"""SET ALL PRESS / SET NORMAL PRESS (GM): whether the GM gets a copy of partial press between
players (njudge `data/master`: "all partial press between the players to be copied to you").

Off unless set: the GM gets broadcasts and press addressed to the GM (M, GM), not the
players' private press. Players must know who reads their private press, so every player
(and observer) is told when the GM changes it. Kept in the game's settings document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change_extra
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.press_settings import ALL_PRESS_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetAllPress(Command):
    """`SET ALL PRESS` or `SET NORMAL PRESS` (also `SET NO ALL PRESS`) (GM)."""

    copied: bool


def read_set_all_press(c: list[Token]) -> Draft:
    return Draft(lambda line: SetAllPress(line, True))


def read_set_normal_press(c: list[Token]) -> Draft:
    return Draft(lambda line: SetAllPress(line, False))


def handle(ctx: Context, command: SetAllPress) -> None:
    what = "SET ALL PRESS" if command.copied else "SET NORMAL PRESS"
    before = ctx.signed is not None and bool(ctx.signed.game.settings.extra.get(ALL_PRESS_KEY))
    # its own notice tells everyone (observers too), once; not the settings' announcement
    if change_extra(ctx, what, ALL_PRESS_KEY, True if command.copied else None,
                    {"all_press": command.copied}, told=False) is None:
        return
    assert ctx.signed is not None  # change_extra checked the GM
    game = ctx.signed.game
    if before == command.copied:
        ctx.results.add(f"{what}: the GM of {game.name} "
                        + ("already gets" if command.copied else "already does not get")
                        + " a copy of partial press; nothing changed and no one was told.")
        return
    news = (f"From now on the GM of {game.name} gets a copy of all partial press between"
            " players (press to some powers only), grey press with its sender named"
            " (SET ALL PRESS)." if command.copied else
            f"From now on the GM of {game.name} no longer gets a copy of partial press between"
            " players: only broadcasts and press to the GM (SET NORMAL PRESS).")
    ctx.results.add(f"{news} Every player was told.")
    tell_game(ctx, game, "who reads partial press", f"{news}\n\n-- \n{ctx.service}\n")


COMMAND = CommandSpec(
    value=SetAllPress,
    keywords=("SET",),
    set_words=("ALL PRESS", "NORMAL PRESS",),
    rules={"set_all_press": read_set_all_press, "set_normal_press": read_set_normal_press},
    handle=handle,
    set_usage={
        "ALL": "SET ALL PRESS takes nothing after it (SET NORMAL PRESS turns it off)",
        "NORMAL": "SET NORMAL PRESS takes nothing after it (SET ALL PRESS turns it on)",
    },
    help=(
        HelpLines("DEADLINES", 55, """\
    SET ALL PRESS                  the GM gets a copy of partial press between
                                   players (the players are told); the default
    SET NORMAL PRESS               is no copy
"""),
    ),
)
