"""SET CONCEDE <power> / SET NO CONCEDE: concede the game to one power (njudge's SET CONCEDE);
when every other surviving power still played has conceded to it, the game ends with that
power the winner (gm.commands.handlers.draws)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, did_you_mean, refresh
from gm.commands.handlers.draws import keep_vote, settle_concession, survivors
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import powers as powers_repo
from gm.store.settings import CONCESSIONS_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetConcede(Command):
    """`SET CONCEDE <power>` (the power as written) or `SET NO CONCEDE` (None)."""

    power: str | None


def read_set_concede(c: list[Token]) -> Draft:
    name = joined(c)
    return Draft(lambda line: SetConcede(line, name))


def read_set_no_concede(c: list[Token]) -> Draft:
    return Draft(lambda line: SetConcede(line, None))


def handle(ctx: Context, command: SetConcede) -> None:
    signed = as_player(ctx, "SET CONCEDE")
    if signed is None or signed.power is None:
        return
    if command.power is None:
        keep_vote(ctx, signed.game.id, CONCESSIONS_KEY, signed.power, None)
        ctx.results.add(f"{signed.power} does not concede.")
        return
    game = refresh(ctx, signed.game)
    _, alive = survivors(ctx, game)
    winner = next((p for p in alive if p.casefold() == command.power.casefold()), None)
    if winner is None:
        names = [p.name for p in powers_repo.list_powers(ctx.session, game.id)]
        why = ("is out of the game" if command.power.casefold() in map(str.casefold, names)
               else f"is not a power of {game.name}{did_you_mean(command.power, names)}")
        ctx.results.add(f"{command.line}: refused, {command.power} {why}; concede to a "
                        f"surviving power: {', '.join(alive)}.")
        return
    if winner == signed.power:
        ctx.results.add(f"{command.line}: refused, a power cannot concede to itself.")
        return
    keep_vote(ctx, signed.game.id, CONCESSIONS_KEY, signed.power, winner)
    ctx.results.add(f"{signed.power} concedes the game to {winner}.")
    settle_concession(ctx, signed.game.id)


COMMAND = CommandSpec(
    value=SetConcede,
    keywords=("SET",),
    rules={"set_concede": read_set_concede, "set_no_concede": read_set_no_concede},
    handle=handle,
    set_usage={
        "CONCEDE": "SET CONCEDE needs the power you concede to: SET CONCEDE France",
        "NOCONCEDE": "SET NO CONCEDE takes nothing after it",
    },
    help=(
        HelpLines("SET", 32, """\
    SET CONCEDE <power>        concede the game to that power: SET CONCEDE Turkey
                               the game ends with it the winner when every other
                               surviving power still played concedes to it
    SET NO CONCEDE             take your concession back
"""),
    ),
)
