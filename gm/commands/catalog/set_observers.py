"""SET OBSERVERS <addresses> | NONE (GM): the whole list of the observers' report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec
from gm.commands.values import SetObservers

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_observers(c: list[Token]) -> Draft:
    addresses = tuple(dict.fromkeys(bare_address(t).rstrip(",") for t in c))
    return Draft(lambda line: SetObservers(line, addresses))


def handle(ctx: Context, command: SetObservers) -> None:
    from gm.commands.handlers.gm_settings import set_observers

    set_observers(ctx, command)


COMMAND = CommandSpec(
    value=SetObservers,
    keywords=("SET",),
    rules={"set_observers": read_set_observers},
    handle=handle,
    set_usage={
        "OBSERVERS": (
            "SET OBSERVERS needs e-mail addresses, or NONE: SET OBSERVERS watcher@example.org"
            " other@example.org"
        ),
    },
)
