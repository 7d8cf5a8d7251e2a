"""SET RULEBOOK 2000|2023 (GM): the rulebook the game plays, chosen before START."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, rulebook_year
from gm.commands.spec import CommandSpec
from gm.commands.values import SetRulebook

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_rulebook(c: list[Token]) -> Draft:
    rulebook = rulebook_year(str(c[0]))
    return Draft(lambda line: SetRulebook(line, rulebook))


def handle(ctx: Context, command: SetRulebook) -> None:
    from gm.commands.handlers.gm_settings import set_rulebook

    set_rulebook(ctx, command)


COMMAND = CommandSpec(
    value=SetRulebook,
    keywords=("SET",),
    rules={"set_rulebook": read_set_rulebook},
    handle=handle,
)
