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
from gm.secret import Secret
from gm.store.errors import GameNameTaken

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
    from gm.play.import_mila import ImportProblem, create_imported_game

    keyword = f"IMPORT {command.game}"
    found = attached_saved_game(ctx, keyword)
    if found is None:
        return
    saved, named = found
    try:
        game = create_imported_game(ctx.session, saved, name=command.game,
                                    gm_address=ctx.sender,
                                    gm_password=command.password.value, now=ctx.now)
    except ImportProblem as problem:
        ctx.results.add(f"{keyword}: refused, {named}: {problem}.")
        return
    except GameNameTaken:
        ctx.results.add(f"{keyword}: refused, a game called {command.game!r} exists already; "
                        "choose another name.")
        return
    ctx.signed = Signed(game, None)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(
        f"Game {game.name} ({saved.variant.title}) made from {named} at its last phase, "
        f"{saved.phases[-1].name}; you are its GM. It is paused and its "
        f"powers have no players: seat each with REPLACE <power> <address> <password>, then "
        "RESUME it.",
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
