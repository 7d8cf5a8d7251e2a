"""SET DRAW [<powers>] / SET NO DRAW: the power's vote for a draw, among every survivor or
(NoDIAS games) among the powers named, for the phase open now (gm.play.votes says which draw
passes, gm.play.draws ends the game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, refresh
from gm.commands.handlers.draws import not_survivor, told_ended
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import voting

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetDraw(Command):
    """`SET DRAW` (draw: True) or `SET NO DRAW` (False): the power's vote for a draw; `among`
    the powers named (`SET DRAW France, Italy`, `SET DRAW AEG`), as written, or () for every
    survivor."""

    draw: bool
    among: tuple[str, ...] = ()


def read_set_draw(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDraw(line, True))


def read_set_draw_among(c: list[tuple[str, ...]]) -> Draft:
    among = c[0]
    return Draft(lambda line: SetDraw(line, True, among))


def read_set_no_draw(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDraw(line, False))


def handle(ctx: Context, command: SetDraw) -> None:
    signed = as_player(ctx, "SET DRAW")
    if signed is None or signed.power is None:
        return
    game = refresh(ctx, signed.game)
    done = voting.vote_draw(ctx.session, game, signed.power, command.draw, command.among,
                            now=ctx.now, actor=ctx.sender, service=ctx.service,
                            inbound_id=ctx.inbound_id)
    match done:
        case voting.NotUnderWay(status=status):
            ctx.results.add(f"{command.line}: refused, {game.name} is {status.value}; draws "
                            "are voted in a game under way.")
        case voting.NotSurvivor():
            ctx.results.add(f"{command.line}: refused, {not_survivor(game, done)}; name "
                            f"surviving powers: {', '.join(done.alive)}.")
        case voting.VoteRefusal.DIAS_ALL:
            ctx.results.add(
                f"{command.line}: refused, {game.name} is DIAS (a draw includes all "
                "survivors): vote with SET DRAW alone; a draw of some powers only needs the "
                "GM's SET NODIAS.")
        case voting.Voted(draw=False, nodias=nodias, phase=name, ended=ended):
            ctx.results.add(f"{signed.power} does not vote for a draw" + (
                f" (in this NoDIAS game that approves only a concession to {signed.power}, "
                f"for {name})." if nodias else "."))
            told_ended(ctx, ended)
        case voting.Voted(among=named, phase=name, ended=ended):
            ctx.results.add(f"{signed.power} votes for a draw"
                            + (f" among {', '.join(named)}." if named else ".")
                            + f" The vote holds for {name} only: votes lapse when a phase is "
                            "processed.")
            told_ended(ctx, ended)


COMMAND = CommandSpec(
    value=SetDraw,
    keywords=("SET",),
    set_words=("DRAW", "NO DRAW",),
    player_setting=True,
    rules={"set_draw": read_set_draw, "set_draw_among": read_set_draw_among,
           "set_no_draw": read_set_no_draw},
    handle=handle,
    set_usage={
        "DRAW": ("SET DRAW takes nothing after it, or (NoDIAS games) the powers the draw is"
                 " among: SET DRAW, SET DRAW France, Italy or SET DRAW AEG (SET NO DRAW takes"
                 " your vote back)"),
        "NODRAW": "SET NO DRAW takes nothing after it",
    },
    help=(
        HelpLines("SET", 30, """\
    SET DRAW                   vote for a draw of the powers still in the game;
                               the game ends in a draw when every surviving power
                               still played has voted for it in the same phase
    SET DRAW <powers>          NoDIAS games (the GM's SET NODIAS): a draw of these
                               powers, or of fewer: SET DRAW AEG or SET DRAW
                               Austria, England, Germany approves AEG, AE, AG and A
                               (including yourself you cannot be left out); a list
                               without you also approves it with you added (FT: FT,
                               F, T, AFT, AF, AT, A); the largest draw every
                               survivor approves passes, a draw of one power is a
                               concession to it
    SET NO DRAW                take your draw vote back (NoDIAS: you approve only a
                               concession to yourself)
                               every draw vote and concession holds for the phase it
                               was sent in only: the phase report tells you it lapsed,
                               and you vote again in the next phase to keep it
"""),
    ),
)
