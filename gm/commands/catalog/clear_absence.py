"""SET NO ABSENCE: withdraw the absences that have not begun."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import ClearAbsence

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_clear_absence(c: list[Token]) -> Draft:
    return Draft(ClearAbsence)


def handle(ctx: Context, command: ClearAbsence) -> None:
    from gm.commands.handlers.absence import clear_absence

    clear_absence(ctx, command)


COMMAND = CommandSpec(
    value=ClearAbsence,
    keywords=("SET",),
    rules={"clear_absence": read_clear_absence},
    handle=handle,
    set_usage={
        "NOABSENCE": "SET NO ABSENCE takes nothing after it",
    },
)
