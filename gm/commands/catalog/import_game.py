"""IMPORT <game> <password>: a game made at the last position of the saved game attached to
the message (a MILA saved game: gm.play.import_mila, docs/game-record.md), with the sender as
its GM, as `gm import FILE --game` makes it on the command line: paused, its powers without
players, for the GM to seat with REPLACE and go on with RESUME."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.context import Signed
from gm.commands.handlers.saved_games import attached_saved_game
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import importing
from gm.secret import Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Import(Command):
    """`IMPORT mygame secret`, the saved game attached."""

    game: str
    password: Secret


def read_import(c: list[Any]) -> Draft:
    game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: Import(line, name, secret), (password,))


def handle(ctx: Context, command: Import) -> None:
    keyword = f"IMPORT {command.game}"
    mine = importing.over_cap(ctx.session, ctx.sender, ctx.limits.forming_games)
    if mine is not None:
        ctx.results.add(f"{keyword}: refused, {ctx.sender} has {len(mine)} games not yet under "
                        f"way ({', '.join(mine)}), the most one address may have here. START "
                        "one (or seat and RESUME an imported one), or TERMINATE one you do not "
                        "need, then IMPORT again.")
        return
    found = attached_saved_game(ctx, keyword)
    if found is None:
        return
    saved, named = found
    done = importing.import_game(ctx.session, saved, command.game, command.password.value,
                                 now=ctx.now, actor=ctx.sender)
    match done:
        case importing.Unplayable(problem=problem):
            ctx.results.add(f"{keyword}: refused, {named}: {problem}.")
        case importing.ImportRefusal.NAME_TAKEN:
            ctx.results.add(f"{keyword}: refused, a game called {command.game!r} exists "
                            "already; choose another name.")
        case importing.Imported(game=game):
            ctx.signed = Signed(game, None)
            ctx.refused_signon = False
            ctx.results.game = game.name
            ctx.results.add(
                f"Game {game.name} ({saved.variant.title}) made from {named} at its last "
                f"phase, {saved.phases[-1].name}; you are its GM. It is paused and its "
                f"powers have no players: seat each with REPLACE <power> <address> <password>, "
                "then RESUME it.",
                f"Powers: {', '.join(saved.variant.power_names)}.")


COMMAND = CommandSpec(
    value=Import,
    keywords=("IMPORT",),
    rules={"import_game": read_import},
    handle=handle,
    usage={
        "IMPORT": (
            "IMPORT needs a game name and a password, with the saved game attached as a JSON "
            "file: IMPORT mygame secret (or IMPORT REPLAY to compare its phases with gm's "
            "adjudication)"
        ),
    },
    without_signon=True,
    holds_password=True,
    help=(
        HelpLines("GM", 21, """\
    IMPORT <game> <password>               a game at the last position of
                                           the saved game attached (a JSON
                                           file: a MILA saved game, or the
                                           record HISTORY <game> FILE sends),
                                           you its GM: IMPORT mygame secret
                                           (paused, with no players yet; seat
                                           them with REPLACE, then RESUME it)
"""),
    ),
)
