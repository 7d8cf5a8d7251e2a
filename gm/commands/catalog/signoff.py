"""SIGNOFF: the rest of the message is ignored (the dispatcher stops at it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import SignOff

if TYPE_CHECKING:
    pass


def read_signoff(c: list[Token]) -> Draft:
    return Draft(SignOff)


COMMAND = CommandSpec(
    value=SignOff,
    keywords=("SIGNOFF",),
    rules={"signoff": read_signoff},
    handle=None,
    usage={
        "SIGNOFF": "SIGNOFF takes nothing after it",
    },
)
