"""SET DEADLINE <date> <time> (GM): move the open phase's deadline (njudge's SET DEADLINE),
told to every player. SET DEADLINE <type> <time> (set_deadline.py) is the rule for the phases
to come; a line with a date is this one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import shown_deadline, variant_of
from gm.commands.handlers.gm_control import open_game
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft, Invalid, day, kept_day, quote, time_of_day
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.render import render
from gm.play.zones import wall_clock
from gm.store import audit
from gm.store import phases as phases_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class SetDeadlineAt(Command):
    """`SET DEADLINE 2026-12-01 18:00`: the open phase's deadline, a wall-clock time in the
    game's time zone (`at` is naive)."""

    at: datetime


def read_set_deadline_iso(c: list[Token]) -> Draft:
    when = datetime.combine(day(c[0]), time_of_day(c[1]))
    return Draft(lambda line: SetDeadlineAt(line, when))


def read_set_deadline_words(c: list[Token]) -> Draft:
    *weekday, month, day_num, year = (str(t) for t in c[:-1])
    number = int(re.sub(r"\D", "", day_num))
    written = " ".join([*weekday, month, day_num, year])
    try:
        when = datetime(int(year), _MONTHS.index(month[:3].lower()) + 1, number)
    except ValueError:
        raise Invalid(f"{quote(written, 30)} is not a date: SET DEADLINE Dec 1 2026 18:00 or "
                      "SET DEADLINE 2026-12-01 18:00") from None
    if weekday and _WEEKDAYS.index(weekday[0][:3].lower()) != when.weekday():
        raise Invalid(f"{quote(written, 30)}: {when:%b} {number} {year} is a "
                      f"{_DAY_NAMES[when.weekday()]}, not {weekday[0].rstrip('.,')}")
    when = datetime.combine(kept_day(when.date(), written), time_of_day(c[-1]))
    return Draft(lambda line: SetDeadlineAt(line, when))


def handle(ctx: Context, command: SetDeadlineAt) -> None:
    found = open_game(ctx, "SET DEADLINE", "move the deadline of", lock=True)
    if found is None:
        return
    game, phase = found
    if game.status is GameStatus.PAUSED:
        ctx.results.add(f"{command.line}: refused, {game.name} is paused; RESUME it first, "
                        "then move the deadline.")
        return
    zone = game.settings.timezone
    moment, twice = wall_clock(command.at, zone)
    if moment is None:
        ctx.results.add(f"{command.line}: refused, {command.at:%H:%M} does not exist on "
                        f"{command.at:%Y-%m-%d} in {zone} (the clocks go forward over it); "
                        "give another time.")
        return
    if moment <= ctx.now:
        ctx.results.add(f"{command.line}: refused, {shown_deadline(game, moment)} is in the "
                        f"past (it is now {shown_deadline(game, ctx.now)}); give a later time.")
        return
    before = phase.deadline_at
    phases_repo.set_deadline(ctx.session, phase.id, moment)
    audit.record_action(ctx.session, actor=ctx.sender, action="deadline", now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id,
                        details={"from": None if before is None else before.isoformat(),
                                 "to": moment.isoformat()})
    name = variant_of(game).format_phase(phase.phase)
    shown = shown_deadline(game, moment)
    ctx.results.add(f"Deadline of {name} in {game.name} moved to {shown} (it was "
                    f"{shown_deadline(game, before)}). Every player was told.")
    if twice:
        ctx.results.add(f"{command.at:%H:%M} comes twice on {command.at:%Y-%m-%d} in {zone} "
                        "(the clocks go back over it): the deadline is the first.")
    tell_game(ctx, game, "the deadline has moved", render(
        "reply/deadline-moved.txt.j2", game=game.name, phase=name, deadline=shown,
        before=shown_deadline(game, before), service=ctx.service), phase=name)


COMMAND = CommandSpec(
    value=SetDeadlineAt,
    keywords=("SET",),
    rules={"set_deadline_iso": read_set_deadline_iso,
           "set_deadline_words": read_set_deadline_words},
    handle=handle,
    help=(
        HelpLines("DEADLINES", 25, """\
    SET DEADLINE <date> <time>     move the deadline of the phase open now (in the game's
                                   time zone); every player is told:
                                   SET DEADLINE 2026-12-01 18:00
                                   SET DEADLINE Dec 1 2026 18:00
                                   SET DEADLINE Tue Dec 1 2026 18:00
                                   with a date it is this phase's deadline; with a phase
                                   type or a length of time, the rule for the phases to come;
                                   a local time the clocks skip is refused, one they repeat
                                   is the first; dates run from 2000-01-01 to 2999-12-31
"""),
        HelpLines("GM", 82, """\
    SET DEADLINE <date> <time>             move this phase's deadline (HELP DEADLINES)
"""),
    ),
)
