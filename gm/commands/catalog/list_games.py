"""LIST [<game>]: the games on the server, or one game's details."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game, variant_label, variant_of
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.variants import UnknownVariant

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class ListGames(Command):
    """`LIST` (all games) or `LIST mygame` (one game's details)."""

    game: str | None = None


def read_list_games(c: list[Token]) -> Draft:
    game = game_name(c[0]) if c else None
    return Draft(lambda line: ListGames(line, game))


def handle(ctx: Context, command: ListGames) -> None:
    if command.game is None:
        games = games_repo.list_games(ctx.session)
        if not games:
            ctx.results.add("There are no games yet (CREATE starts one).")
            return
        ctx.results.add("Games:")
        for game in games:
            try:
                label = variant_label(variant_of(game))
            except UnknownVariant:  # listed as stored, so LIST still answers
                label = game.variant
            ctx.results.add(f"  {game.name}: {label}, {game.status.value}")
        return
    found = games_repo.find_game(ctx.session, command.game)
    if found is None:
        ctx.results.add(f"LIST: {no_game(ctx, command.game)}")
        return
    game = found
    variant = variant_of(game)
    phase = phases_repo.current_phase(ctx.session, game.id)
    where = "not started" if phase is None else variant.format_phase(phase.phase)
    ctx.results.add(f"{game.name}: {variant.title}, {game.status.value}, {where}")
    for power in powers_repo.list_powers(ctx.session, game.id):
        who = "taken" if power.addresses else "free"
        ctx.results.add(f"  {power.name}: {who}, {power.status.value.replace('_', ' ')}")


COMMAND = CommandSpec(
    value=ListGames,
    keywords=("LIST",),
    rules={"list_games": read_list_games},
    handle=handle,
    usage={
        "LIST": "LIST takes at most a game name: LIST or LIST mygame",
    },
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 20, """\
    LIST                       the games on this server
    LIST <game>                the details of one game
"""),
    ),
)
