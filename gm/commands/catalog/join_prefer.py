"""JOIN <game> <password> PREFER <powers>: join a forming game; a power is given at START by
the preferences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import JoinPrefer, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_join_prefer(c: list[Any]) -> Draft:
    game, password, names = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: JoinPrefer(line, name, secret, names), (password,))


def handle(ctx: Context, command: JoinPrefer) -> None:
    from gm.commands.handlers.join_prefer import join_prefer

    join_prefer(ctx, command)


COMMAND = CommandSpec(
    value=JoinPrefer,
    keywords=("JOIN",),
    rules={"join_prefer": read_join_prefer},
    handle=handle,
    without_signon=True,
    holds_password=True,
)
