"""REPLACE <power> STANDBY (GM): the first player standing by takes the power."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import ReplaceFromStandby

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_replace_standby(c: list[Token]) -> Draft:
    power = joined(c)
    return Draft(lambda line: ReplaceFromStandby(line, power))


def handle(ctx: Context, command: ReplaceFromStandby) -> None:
    from gm.commands.handlers.standby import replace_from_standby

    replace_from_standby(ctx, command)


COMMAND = CommandSpec(
    value=ReplaceFromStandby,
    keywords=("REPLACE",),
    rules={"replace_standby": read_replace_standby},
    handle=handle,
)
