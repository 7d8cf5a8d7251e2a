"""SET PASSWORD <new>: change the power's password."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import Secret, SetPassword

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_password(c: list[Token]) -> Draft:
    (password,) = c
    secret = Secret(str(password))
    return Draft(lambda line: SetPassword(line, secret), (password,))


def handle(ctx: Context, command: SetPassword) -> None:
    from gm.commands.handlers.player_settings import set_password

    set_password(ctx, command)


COMMAND = CommandSpec(
    value=SetPassword,
    keywords=("SET",),
    rules={"set_password": read_set_password},
    handle=handle,
    set_usage={
        "PASSWORD": "SET PASSWORD needs the new password, one word: SET PASSWORD newsecret",
    },
)
