"""ADD <power> <address> [<password>] (GM): seat a player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, bare_address, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Add, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_add(c: list[Token]) -> Draft:
    at = next(i for i, t in enumerate(c) if t.type == "ADDRESS")
    power, address, rest = c[:at], c[at], c[at + 1 :]
    secret = Secret(str(rest[0])) if rest else None
    return Draft(lambda line: Add(line, joined(power), bare_address(address), secret),
                 tuple(rest))


def handle(ctx: Context, command: Add) -> None:
    from gm.commands.handlers.create import add

    add(ctx, command)


COMMAND = CommandSpec(
    value=Add,
    keywords=("ADD",),
    rules={"add": read_add},
    handle=handle,
    usage={
        "ADD": (
            "ADD needs a power and the player's e-mail address, and may add a password: ADD France"
            " player@example.org or ADD France player@example.org secret (or ADD OBSERVER"
            " watcher@example.org)"
        ),
    },
    holds_password=True,
)
