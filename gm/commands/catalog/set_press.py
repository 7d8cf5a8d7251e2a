"""SET PRESS NONE|WHITE|GREY|ALL (GM): what press is allowed; also njudge's spellings of it
(njudge `data/index`): SET WHITE [PRESS], SET GREY [PRESS], SET WHITE/GREY or SET GREY/WHITE
(both kinds: ALL), SET NO PRESS and SET NONE (NONE)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.policies import PressPolicy

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

_PRESS_TEXT = {
    "none": "no press",
    "white": "signed press only",
    "grey": "grey (anonymous) press only",
    "all": "signed and grey press",
}



@dataclass(frozen=True)
class SetPress(Command):
    policy: PressPolicy


def read_set_press(c: list[Token]) -> Draft:
    word = str(c[0]).lower().replace("gray", "grey")
    policy = PressPolicy(word)
    return Draft(lambda line: SetPress(line, policy))


def read_set_press_kind(c: list[Token]) -> Draft:
    words = str(c[0]).lower().replace("gray", "grey").split("/")
    policy = PressPolicy(words[0]) if len(words) == 1 else PressPolicy.ALL
    return Draft(lambda line: SetPress(line, policy))


def read_set_no_press(c: list[Token]) -> Draft:
    return Draft(lambda line: SetPress(line, PressPolicy.NONE))


def handle(ctx: Context, command: SetPress) -> None:
    if change(ctx, "SET PRESS", {"press": command.policy.value},
               press=command.policy) is not None:
        ctx.results.add(f"Press in {game_name(ctx)}: {command.policy.value.upper()} "
                        f"({_PRESS_TEXT[command.policy.value]}).")


COMMAND = CommandSpec(
    value=SetPress,
    keywords=("SET",),
    set_words=("PRESS", "NO PRESS",),
    rules={"set_press": read_set_press, "set_press_kind": read_set_press_kind,
           "set_no_press": read_set_no_press},
    handle=handle,
    set_usage={
        "PRESS": (
            "SET PRESS needs NONE, WHITE (signed press only), GREY (anonymous press only) or ALL"
            " (both): SET PRESS WHITE"
        ),
        "WHITE": "SET WHITE (or SET WHITE PRESS) allows signed press only; SET WHITE/GREY both",
        "GREY": "SET GREY (or SET GREY PRESS) allows grey press only; SET GREY/WHITE both",
        "NONE": "SET NONE (or SET NO PRESS) allows no press but to and from the GM",
    },
    help=(
        HelpLines("DEADLINES", 50, """\
    SET PRESS NONE|WHITE|GREY|ALL  what press is allowed: none, signed only,
                                   anonymous only, or both
    SET WHITE                      njudge's spellings of SET PRESS WHITE, and
    SET GREY                       of GREY, ALL (both kinds) and NONE
    SET WHITE/GREY
    SET NO PRESS
"""),
    ),
)
