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
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.errors import GameNameTaken
from gm.store.powers import address_key
from gm.store.statuses import GameStatus

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


def _not_under_way(ctx: Context) -> list[str]:
    """The sender's games not yet under way: forming, or paused with no player seated (an
    import not yet seated and resumed)."""
    mine = []
    for status in (GameStatus.FORMING, GameStatus.PAUSED):
        for game in games_repo.list_games(ctx.session, status=status):
            if address_key(game.gm_address) != address_key(ctx.sender):
                continue
            if status is GameStatus.PAUSED and any(
                    p.addresses for p in powers_repo.list_powers(ctx.session, game.id)):
                continue
            mine.append(game.name)
    return mine


def _over_cap(ctx: Context, keyword: str) -> bool:
    """Whether the sender has as many games not yet under way as an address may have (the
    service's `max_forming_games`, which caps CREATE too), after saying so."""
    cap = ctx.limits.forming_games
    mine = _not_under_way(ctx) if cap else []
    if len(mine) < cap or not cap:
        return False
    ctx.results.add(f"{keyword}: refused, {ctx.sender} has {len(mine)} games not yet under way "
                    f"({', '.join(mine)}), the most one address may have here. START one (or "
                    "seat and RESUME an imported one), or TERMINATE one you do not need, then "
                    "IMPORT again.")
    return True


def handle(ctx: Context, command: Import) -> None:
    from gm.play.import_mila import ImportProblem, create_imported_game

    keyword = f"IMPORT {command.game}"
    if _over_cap(ctx, keyword):
        return
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
