"""SET TIMEZONE <zone> (GM): the game's clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, zone_name
from gm.commands.spec import CommandSpec
from gm.commands.values import SetTimezone

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_set_timezone(c: list[Token]) -> Draft:
    zone = zone_name(str(c[0]))
    return Draft(lambda line: SetTimezone(line, zone))


def handle(ctx: Context, command: SetTimezone) -> None:
    from gm.commands.handlers.gm_settings import set_timezone

    set_timezone(ctx, command)


COMMAND = CommandSpec(
    value=SetTimezone,
    keywords=("SET",),
    rules={"set_timezone": read_set_timezone},
    handle=handle,
    set_usage={
        "TIMEZONE": (
            "SET TIMEZONE needs a time zone name: SET TIMEZONE Europe/Paris (or America/New_York,"
            " UTC, ...)"
        ),
        "TZ": (
            "SET TIMEZONE needs a time zone name: SET TIMEZONE Europe/Paris (or America/New_York,"
            " UTC, ...)"
        ),
    },
)
