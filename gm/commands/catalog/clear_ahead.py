"""AHEAD CLEAR: withdraw the orders sent ahead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import orders_ahead as ahead_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class ClearAhead(Command):
    """`AHEAD CLEAR`: withdraw the orders sent ahead."""


def read_clear_ahead(c: list[Token]) -> Draft:
    return Draft(ClearAhead)


def handle(ctx: Context, command: ClearAhead) -> None:
    signed = as_player(ctx, str(command.line))
    if signed is None or signed.power is None:
        return
    count = ahead_repo.clear(ctx.session, signed.game.id, signed.power)
    ctx.results.add(f"{command.line}: " + (f"{count} order{'s' if count != 1 else ''} sent "
                                          "ahead withdrawn." if count else
                                          "no orders sent ahead to withdraw."))


COMMAND = CommandSpec(
    value=ClearAhead,
    keywords=("AHEAD",),
    rules={"clear_ahead": read_clear_ahead},
    handle=handle,
    help=(
        HelpLines("ORDERS", 50, """\
    AHEAD CLEAR                withdraw the orders sent ahead
"""),
    ),
)
