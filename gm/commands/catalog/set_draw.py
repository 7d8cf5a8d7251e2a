"""SET DRAW [<powers>] / SET NO DRAW: the power's vote for a draw, among every survivor or
(NoDIAS games) among the powers named, for the phase open now (gm.play.votes says which draw
passes, gm.play.draws ends the game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, did_you_mean, refresh, variant_of
from gm.commands.handlers.draws import keep_vote, named_powers, settle_draw, survivors
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import votes as votes_of
from gm.store import powers as powers_repo
from gm.store.settings import DRAW_VOTES_KEY
from gm.store.statuses import GameStatus

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
    phase, alive = survivors(ctx, game)
    if phase is None or game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        ctx.results.add(f"{command.line}: refused, {game.name} is {game.status.value}; draws "
                        "are voted in a game under way.")
        return
    nodias = votes_of.nodias(game.settings)
    named: list[str] | None = None
    if command.among:
        found = named_powers(variant_of(game), command.among)
        names = [p.name for p in powers_repo.list_powers(ctx.session, game.id)]
        gone = [] if isinstance(found, str) else [p for p in found if p not in alive]
        if isinstance(found, str) or gone:
            written = found if isinstance(found, str) else gone[0]
            why = ("is out of the game" if written.casefold() in map(str.casefold, names)
                   else f"is not a power of {game.name}{did_you_mean(written, names)}")
            ctx.results.add(f"{command.line}: refused, {written} {why}; name surviving "
                            f"powers: {', '.join(alive)}.")
            return
        named = [p for p in alive if p in found]
        if not nodias and set(named) != set(alive):
            ctx.results.add(
                f"{command.line}: refused, {game.name} is DIAS (a draw includes all "
                "survivors): vote with SET DRAW alone; a draw of some powers only needs the "
                "GM's SET NODIAS.")
            return
        if not nodias:
            named = None
    votes = (None if not command.draw and not nodias else votes_of.Vote(
        signed.power, phase.id, ctx.now, None if named is None else tuple(named),
        no=not command.draw))
    powers_repo.set_power_flags(ctx.session, game.id, signed.power, now=ctx.now,
                                draw_vote=command.draw)
    keep_vote(ctx, game.id, DRAW_VOTES_KEY, signed.power, votes)
    name = variant_of(game).format_phase(phase.phase)
    if not command.draw:
        ctx.results.add(f"{signed.power} does not vote for a draw" + (
            f" (in this NoDIAS game that approves only a concession to {signed.power}, for "
            f"{name})." if nodias else "."))
        if nodias:
            settle_draw(ctx, game.id)
        return
    ctx.results.add(f"{signed.power} votes for a draw"
                    + (f" among {', '.join(named)}." if named else ".")
                    + f" The vote holds for {name} only: votes lapse when a phase is processed.")
    settle_draw(ctx, game.id)


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
