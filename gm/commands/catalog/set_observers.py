"""SET OBSERVERS <addresses> | NONE (GM): the whole list of the observers' report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master
from gm.commands.handlers.gm_settings import store_observers
from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetObservers(Command):
    """`SET OBSERVERS a@example.org b@example.org` / `SET OBSERVERS NONE`: the whole list of
    addresses that get the observers' report."""

    addresses: tuple[str, ...]


def read_set_observers(c: list[Token]) -> Draft:
    addresses = tuple(dict.fromkeys(bare_address(t).rstrip(",") for t in c))
    return Draft(lambda line: SetObservers(line, addresses))


def handle(ctx: Context, command: SetObservers) -> None:
    if as_master(ctx, "SET OBSERVERS") is not None:
        store_observers(ctx, "SET OBSERVERS", list(command.addresses))


COMMAND = CommandSpec(
    value=SetObservers,
    keywords=("SET",),
    set_words=("OBSERVERS",),
    rules={"set_observers": read_set_observers},
    handle=handle,
    set_usage={
        "OBSERVERS": (
            "SET OBSERVERS needs e-mail addresses, or NONE: SET OBSERVERS watcher@example.org"
            " other@example.org"
        ),
    },
    help=(
        HelpLines("DEADLINES", 90, """\
    SET OBSERVERS <address> ...    who gets the observers' report of every phase (the
                                   whole list; SET OBSERVERS NONE empties it)
"""),
    ),
)
