"""JOIN [<power>] <game> <password>: take a power (any free one, or the one named) in a
forming game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Join, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_join_any(c: list[Token]) -> Draft:
    game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: Join(line, name, secret), (password,))


def read_join(c: list[Token]) -> Draft:
    *power, game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: Join(line, name, secret, joined(power)), (password,))


def handle(ctx: Context, command: Join) -> None:
    from gm.commands.handlers.signon import join

    join(ctx, command)


COMMAND = CommandSpec(
    value=Join,
    keywords=("JOIN",),
    rules={"join_any": read_join_any, "join": read_join},
    handle=handle,
    usage={
        "JOIN": (
            "JOIN needs a game and a password, and may name the power you want first: JOIN mygame"
            " secret or JOIN France mygame secret; or give your preferences after PREFER: JOIN"
            " mygame secret PREFER France, Italy, Turkey"
        ),
    },
    without_signon=True,
    holds_password=True,
)
