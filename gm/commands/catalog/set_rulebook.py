"""SET RULEBOOK 2000|2023 (GM): the rulebook the game plays, chosen before START."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh, rulebook_refusal, variant_of
from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.reading import Draft, rulebook_year
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.engine.rulebook import RULEBOOK_KEY
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetRulebook(Command):
    """`SET RULEBOOK 2000|2023`: the rulebook the game plays, chosen before START."""

    rulebook: str


def read_set_rulebook(c: list[Token]) -> Draft:
    rulebook = rulebook_year(str(c[0]))
    return Draft(lambda line: SetRulebook(line, rulebook))


def handle(ctx: Context, command: SetRulebook) -> None:
    """The rulebook is part of the rules the players sign up for: chosen before START."""
    signed = as_master(ctx, "SET RULEBOOK")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"SET RULEBOOK: refused, {game.name} has started; the rulebook is "
                        "chosen before START.")
        return
    refusal = rulebook_refusal(variant_of(game), command.rulebook)
    if refusal is not None:
        ctx.results.add(f"SET RULEBOOK: refused, {refusal}.")
        return
    extra = {**game.settings.extra, RULEBOOK_KEY: command.rulebook}
    if change(ctx, "SET RULEBOOK", {"rulebook": command.rulebook}, extra=extra) is None:
        return
    ctx.results.add(f"Rulebook of {game_name(ctx)}: {command.rulebook} (HELP RULEBOOK).")


COMMAND = CommandSpec(
    value=SetRulebook,
    keywords=("SET",),
    set_words=("RULEBOOK",),
    rules={"set_rulebook": read_set_rulebook},
    handle=handle,
    help=(
        HelpLines("GM", 170, """\
    SET RULEBOOK 2000|2023                 the rulebook, before START (HELP RULEBOOK)
"""),
    ),
)
