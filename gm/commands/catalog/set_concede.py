"""SET CONCEDE <power> / SET NO CONCEDE: concede the game to one power (njudge's SET CONCEDE);
when every other surviving power still played has conceded to it, the game ends with that
power the winner (gm.play.draws)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, did_you_mean, refresh, variant_of
from gm.commands.handlers.draws import keep_vote, settle_concession, survivors
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import votes as votes_of
from gm.store import powers as powers_repo
from gm.store.settings import CONCESSIONS_KEY
from gm.store.statuses import GameStatus

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
    phase, alive = survivors(ctx, game)
    if phase is None or game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        ctx.results.add(f"{command.line}: refused, {game.name} is {game.status.value}; "
                        "concessions are voted in a game under way.")
        return
    if votes_of.nodias(game.settings):
        ctx.results.add(f"{command.line}: refused, {game.name} is NoDIAS: concede with a draw "
                        f"of that power alone, SET DRAW {command.power}.")
        return
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
    keep_vote(ctx, signed.game.id, CONCESSIONS_KEY, signed.power,
              votes_of.Vote(signed.power, phase.id, ctx.now, to=winner))
    ctx.results.add(f"{signed.power} concedes the game to {winner}. The concession holds for "
                    f"{variant_of(game).format_phase(phase.phase)} only: it lapses when the "
                    "phase is processed.")
    settle_concession(ctx, signed.game.id)


COMMAND = CommandSpec(
    value=SetConcede,
    keywords=("SET",),
    set_words=("CONCEDE", "NO CONCEDE",),
    player_setting=True,
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
                               surviving power still played concedes to it in the
                               same phase (a concession lapses with its phase, as
                               draw votes do; NoDIAS games: SET DRAW <power>)
    SET NO CONCEDE             take your concession back
"""),
    ),
)
