"""EJECT <power> (GM): remove a power's player; the power is in civil disorder."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Eject

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_eject(c: list[Token]) -> Draft:
    return Draft(lambda line: Eject(line, joined(c)))


def handle(ctx: Context, command: Eject) -> None:
    from gm.commands.handlers.seats import eject

    eject(ctx, command)


COMMAND = CommandSpec(
    value=Eject,
    keywords=("EJECT",),
    rules={"eject": read_eject},
    handle=handle,
    usage={
        "EJECT": "EJECT needs a power: EJECT France",
    },
)
