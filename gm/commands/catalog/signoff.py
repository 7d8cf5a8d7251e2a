"""SIGNOFF: the rest of the message is ignored (the dispatcher stops at it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class SignOff(Command):
    """`SIGNOFF`: the rest of the message is ignored."""


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
    help=(
        HelpLines("SIGNON", 30, """\
    SIGNOFF      the rest of the message is ignored (useful above a signature)
"""),
    ),
)
