"""SET TIMEZONE <zone> (GM): the game's clock; from a player: the player's own clock, in which
their mail of the game shows the deadlines too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lark import Token

from gm.commands.handlers.common import as_master
from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.handlers.reader_zone import set_reader_zone
from gm.commands.reading import Draft, zone_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetTimezone(Command):
    """`SET TIMEZONE Europe/Paris`: `zone` is the tz database name, as the database spells it."""

    zone: str


def read_set_timezone(c: list[Token]) -> Draft:
    zone = zone_name(str(c[0]))
    return Draft(lambda line: SetTimezone(line, zone))


def handle(ctx: Context, command: SetTimezone) -> None:
    signed = ctx.signed
    if signed is not None and signed.power is not None and not signed.master:
        set_reader_zone(ctx, signed, command.zone, command.line.text)  # a player's own zone
        return
    if as_master(ctx, "SET TIMEZONE") is None:
        return
    try:
        ZoneInfo(command.zone)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a file
        ctx.results.add(f"SET TIMEZONE: {command.zone!r} is not a time zone; give a tz "
                        "database name such as Europe/Paris or UTC.")
        return
    if change(ctx, "SET TIMEZONE", {"zone": command.zone}, timezone=command.zone) is not None:
        ctx.results.add(f"Time zone of {game_name(ctx)}: {command.zone}.")


COMMAND = CommandSpec(
    value=SetTimezone,
    keywords=("SET",),
    set_words=("TIMEZONE",),
    player_setting=True,  # a player's own clock too (gm.commands.handlers.reader_zone)
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
    help=(
        HelpLines("DEADLINES", 40, """\
    SET TIMEZONE <zone>            the game's clock: SET TIMEZONE Europe/Paris
"""),
        HelpLines("SET", 65, """\
    SET TIMEZONE <zone>         your own clock (after SIGNON <power>; a tz database
                               name): every mail of the game to you shows the
                               deadlines in your time and in the game's:
                               SET TIMEZONE America/New_York
                               The start mail, the reports and the mail that moves
                               a deadline carry it as a calendar event (.ics).
"""),
    ),
)
