"""SIGNON GM <game> <password>: sign on as the game's gamemaster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import Secret, SignOnMaster

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_signon_master(c: list[Token]) -> Draft:
    game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: SignOnMaster(line, name, secret), (password,))


def handle(ctx: Context, command: SignOnMaster) -> None:
    from gm.commands.handlers.signon import signon_master

    signon_master(ctx, command)


COMMAND = CommandSpec(
    value=SignOnMaster,
    keywords=("SIGNON",),
    rules={"signon_master": read_signon_master},
    handle=handle,
    without_signon=True,
    holds_password=True,
)
