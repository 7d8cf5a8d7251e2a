"""LIST [<game>]: the games on the server, or one game's details."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import ListGames

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_list_games(c: list[Token]) -> Draft:
    game = game_name(c[0]) if c else None
    return Draft(lambda line: ListGames(line, game))


def handle(ctx: Context, command: ListGames) -> None:
    from gm.commands.handlers.info import list_games

    list_games(ctx, command)


COMMAND = CommandSpec(
    value=ListGames,
    keywords=("LIST",),
    rules={"list_games": read_list_games},
    handle=handle,
    usage={
        "LIST": "LIST takes at most a game name: LIST or LIST mygame",
    },
    without_signon=True,
)
