"""SET ABSENCE LIMIT <days> | OFF (GM): the days of absence each power may claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.absence import days, save
from gm.commands.handlers.announce import announce
from gm.commands.handlers.common import as_master, refresh
from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.absences import LIMIT_KEY
from gm.store import audit

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

MAX_LIMIT = 366  # days of absence a power may be given in one game, at most


@dataclass(frozen=True)
class SetAbsenceLimit(Command):
    """`SET ABSENCE LIMIT 14` / `SET ABSENCE LIMIT OFF` (GM): the days of absence each power may
    claim in the game (0: absences off)."""

    days: int


def read_set_absence_limit(c: list[Token]) -> Draft:
    word = str(c[0]).lower()
    if word == "on":
        raise Invalid("SET ABSENCE LIMIT needs a number of days, or OFF:"
                      " SET ABSENCE LIMIT 14")
    days = 0 if word == "off" else int(word)
    return Draft(lambda line: SetAbsenceLimit(line, days))


def handle(ctx: Context, command: SetAbsenceLimit) -> None:
    signed = as_master(ctx, "SET ABSENCE LIMIT")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if command.days > MAX_LIMIT:
        ctx.results.add(f"{command.line}: refused, a limit is at most {MAX_LIMIT} days.")
        return
    signed.game = save(ctx, game, {**game.settings.extra, LIMIT_KEY: command.days})
    audit.record_action(ctx.session, actor=ctx.sender, action="set", now=ctx.now,
                        game_id=game.id,
                        details={"setting": "SET ABSENCE LIMIT", "days": command.days},
                        inbound_id=ctx.inbound_id)
    announce(ctx, game, command.line.text)  # everyone in a game under way is told
    if command.days == 0:
        ctx.results.add(f"Absences in {game.name}: OFF (players may claim none from now on; "
                        "those claimed already stand).")
    else:
        ctx.results.add(f"Absences in {game.name}: each power may claim {days(command.days)} "
                        "in all.")


COMMAND = CommandSpec(
    value=SetAbsenceLimit,
    keywords=("SET",),
    set_words=("ABSENCE LIMIT",),
    rules={"set_absence_limit": read_set_absence_limit},
    handle=handle,
    help=(
        HelpLines("DEADLINES", 120, """\
    SET ABSENCE LIMIT <days>|OFF   the days of absence each power may claim (SET
                                   ABSENCE): SET ABSENCE LIMIT 14 (OFF: none)
"""),
    ),
)
