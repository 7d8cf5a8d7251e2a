"""SET DRAW [<powers>] / SET NO DRAW: the power's vote for a draw, among every survivor or
among the powers named (gm.commands.handlers.draws says when the game ends)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, did_you_mean, refresh
from gm.commands.handlers.draws import keep_vote, settle_draw, survivors
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import powers as powers_repo
from gm.store.settings import DRAW_SETS_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetDraw(Command):
    """`SET DRAW` (draw: True) or `SET NO DRAW` (False): the power's vote for a draw; `among`
    the powers named (`SET DRAW France, Italy`), as written, or () for every survivor."""

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
    named: list[str] | None = None
    if command.among:
        game = refresh(ctx, signed.game)
        _, alive = survivors(ctx, game)
        spelt = {p.casefold(): p for p in alive}
        names = [p.name for p in powers_repo.list_powers(ctx.session, game.id)]
        for written in command.among:
            if written.casefold() not in spelt:
                why = ("is out of the game" if written.casefold() in map(str.casefold, names)
                       else f"is not a power of {game.name}{did_you_mean(written, names)}")
                ctx.results.add(f"{command.line}: refused, {written} {why}; name surviving "
                                f"powers: {', '.join(alive)}.")
                return
        named = [p for p in alive if p.casefold() in {w.casefold() for w in command.among}]
    powers_repo.set_power_flags(ctx.session, signed.game.id, signed.power, now=ctx.now,
                                draw_vote=command.draw)
    keep_vote(ctx, signed.game.id, DRAW_SETS_KEY, signed.power, named)
    if not command.draw:
        ctx.results.add(f"{signed.power} does not vote for a draw.")
        return
    ctx.results.add(f"{signed.power} votes for a draw"
                    + (f" among {', '.join(named)}." if named else "."))
    settle_draw(ctx, signed.game.id)


COMMAND = CommandSpec(
    value=SetDraw,
    keywords=("SET",),
    rules={"set_draw": read_set_draw, "set_draw_among": read_set_draw_among,
           "set_no_draw": read_set_no_draw},
    handle=handle,
    set_usage={
        "DRAW": ("SET DRAW takes nothing after it, or the powers the draw is among:"
                 " SET DRAW or SET DRAW France, Italy (SET NO DRAW takes your vote back)"),
        "NODRAW": "SET NO DRAW takes nothing after it",
    },
    help=(
        HelpLines("SET", 30, """\
    SET DRAW                   vote for a draw among the powers still in the game
    SET DRAW <powers>          vote for a draw among these powers only:
                               SET DRAW France, Italy, Turkey
                               the game ends in a draw when every surviving power
                               still played votes for a draw among the same powers
                               (those left out too); SET DRAW alone names them all
    SET NO DRAW                take your draw vote back
"""),
    ),
)
