"""ADD OBSERVER <address> (GM): one more address for the observers' report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.gm_settings import store_observers
from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.observers import observers

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class AddObserver(Command):
    """`ADD OBSERVER a@example.org`: one more address for the observers' report."""

    address: str


def read_add_observer(c: list[Token]) -> Draft:
    address = bare_address(c[0])
    return Draft(lambda line: AddObserver(line, address))


def handle(ctx: Context, command: AddObserver) -> None:
    signed = as_master(ctx, "ADD OBSERVER")
    if signed is None:
        return
    current = observers(refresh(ctx, signed.game))
    if any(a.lower() == command.address.lower() for a in current):
        ctx.results.add(f"ADD OBSERVER: {command.address} already observes {signed.game.name}.")
        return
    store_observers(ctx, "ADD OBSERVER", [*current, command.address])


COMMAND = CommandSpec(
    value=AddObserver,
    keywords=("ADD",),
    rules={"add_observer": read_add_observer},
    handle=handle,
    help=(
        HelpLines("GM", 50, """\
    ADD OBSERVER <address>                 someone who gets the public report of
                                           every phase (also SET OBSERVERS)
"""),
        HelpLines("DEADLINES", 100, """\
    ADD OBSERVER <address>         one more observer
"""),
    ),
)
