"""SET CONCEDE <power> / SET NO CONCEDE: concede the game to one power (njudge's SET CONCEDE);
when every other surviving power still played has conceded to it, the game ends with that
power the winner (gm.play.draws)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, refresh
from gm.commands.handlers.draws import not_survivor, told_ended
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import voting

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
    game = refresh(ctx, signed.game)
    done = voting.concede(ctx.session, game, signed.power, command.power, now=ctx.now,
                          actor=ctx.sender, service=ctx.service, inbound_id=ctx.inbound_id)
    match done:
        case voting.NotUnderWay(status=status):
            ctx.results.add(f"{command.line}: refused, {game.name} is {status.value}; "
                            "concessions are voted in a game under way.")
        case voting.VoteRefusal.NODIAS:
            ctx.results.add(f"{command.line}: refused, {game.name} is NoDIAS: concede with a "
                            f"draw of that power alone, SET DRAW {command.power}.")
        case voting.NotSurvivor():
            ctx.results.add(f"{command.line}: refused, {not_survivor(game, done)}; concede to "
                            f"a surviving power: {', '.join(done.alive)}.")
        case voting.VoteRefusal.SELF:
            ctx.results.add(f"{command.line}: refused, a power cannot concede to itself.")
        case voting.Voted(to=None):
            ctx.results.add(f"{signed.power} does not concede.")
        case voting.Voted(to=winner, phase=phase, ended=ended):
            ctx.results.add(f"{signed.power} concedes the game to {winner}. The concession "
                            f"holds for {phase} only: it lapses when the phase is processed.")
            told_ended(ctx, ended)


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
