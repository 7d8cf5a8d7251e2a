"""REVEAL (GM): tell a QUIET game's players who played each power when.

The list (gm.play.seating, with addresses) is mailed to every player and the GM, and from then
on SUMMARY shows the addresses to the players too. A quiet game's end reveals its players in
SUMMARY by itself, without a mail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh, variant_of
from gm.commands.handlers.gm_settings import change
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.render import render
from gm.play.seating import players_lines
from gm.store import phases as phases_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Reveal(Command):
    pass


def read_reveal(c: list[Token]) -> Draft:
    return Draft(Reveal)


def handle(ctx: Context, command: Reveal) -> None:
    signed = as_master(ctx, "REVEAL")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if not game.settings.quiet:
        ctx.results.add(f"REVEAL: {game.name} is not QUIET: its players see one another's "
                        "addresses in SUMMARY already (SET QUIET hides them).")
        return
    if change(ctx, "REVEAL", {"revealed": True}, told=False, revealed=True) is None:
        return
    game = refresh(ctx, signed.game)
    variant = variant_of(game)
    players = players_lines(ctx.session, game, variant,
                            phases_repo.history(ctx.session, game.id), addresses=True)
    tell_game(ctx, game, "who played what", render(
        "reply/revealed.txt.j2", game=game.name, players=players, service=ctx.service),
        observers_too=False)
    ctx.results.game = game.name
    ctx.results.add(f"The players of {game.name} were told who played each power; SUMMARY "
                    f"{game.name} shows them their addresses from now on.")


COMMAND = CommandSpec(
    value=Reveal,
    keywords=("REVEAL",),
    rules={"reveal": read_reveal},
    handle=handle,
    usage={
        "REVEAL": "REVEAL takes nothing after it",
    },
    help=(
        HelpLines("GM", 77, """\
    REVEAL                                 tell a QUIET game's players who played what
"""),
    ),
)
