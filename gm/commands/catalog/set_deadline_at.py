"""SET DEADLINE <date> (GM): move the open phase's deadline (njudge's SET DEADLINE <date>,
`data/deadlines`: "a time alone is today"), told to every player. SET DEADLINE <type> <time>
and SET DEADLINE <duration> (set_deadline.py) are the rule for the phases to come; a date, a
weekday or a time alone is this phase's deadline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.dates import EXAMPLES, DateProblem, DateWords, read_date, resolve
from gm.commands.handlers.calendar_notices import with_events
from gm.commands.handlers.common import shown_deadline, variant_of
from gm.commands.handlers.gm_control import open_game
from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import deadline_moves
from gm.play.zones import wall_clock, zone
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.settings import GameSettings

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

NO_CLOCK = time(23, 30)  # njudge: the time of a date without one, when the phase has no clock


@dataclass(frozen=True)
class SetDeadlineAt(Command):
    """`SET DEADLINE Dec 9 18:00` (njudge's SET DEADLINE <date>): the open phase's deadline,
    a date as written, read in the game's time zone when the command runs."""

    when: DateWords


def read_date_words(c: Sequence[object], usage: str) -> DateWords:
    """The date the tokens write, or Invalid saying why not and what `usage` accepts."""
    try:
        return read_date([str(t) for t in c])
    except DateProblem as problem:
        raise Invalid(f"{problem}; {usage}") from None


def read_set_deadline_at(c: list[Token]) -> Draft:
    when = read_date_words(c, f"SET DEADLINE needs a time or a date: {EXAMPLES}")
    return Draft(lambda line: SetDeadlineAt(line, when))


def phase_clock(settings: GameSettings, phase: PhaseRecord) -> time:
    """The time of a date written without one: the phase type's time of day, if its rule is
    one, else 23:30 (njudge `data/deadlines`: the phase's "clock", or 23:30)."""
    rule = settings.deadlines.get(phase.phase.type)
    return rule if isinstance(rule, time) else NO_CLOCK


def moment_of(game: GameRecord, when: DateWords, now: datetime, clock: time) -> datetime:
    """The moment `when` means in the game's time zone (DateProblem when it means none, or
    names a local time the clocks skip; of a local time they repeat, the first)."""
    name = game.settings.timezone
    local = resolve(when, now.astimezone(zone(name)).replace(tzinfo=None), clock)
    moment, _ = wall_clock(local, name)
    if moment is None:
        raise DateProblem(f"{local:%H:%M} does not exist on {local:%Y-%m-%d} in {name} (the "
                          "clocks go forward over it); give another time")
    return moment


def moment_for(ctx: Context, command: Command, when: DateWords, game: GameRecord,
               phase: PhaseRecord) -> datetime | None:
    """The moment `when` (of `command`) names for the open `phase`, or None after the reply
    says why it names none."""
    try:
        return moment_of(game, when, ctx.now, phase_clock(game.settings, phase))
    except DateProblem as problem:
        ctx.results.add(f"{command.line}: refused, {problem}.")
        return None


def handle(ctx: Context, command: SetDeadlineAt) -> None:
    found = open_game(ctx, "SET DEADLINE", "move the deadline of", lock=True)
    if found is None:
        if ctx.signed is not None and ctx.signed.power is None and command.when.at is not None \
                and not command.when.dated:
            ctx.results.add(f"(A time alone is the deadline of the phase open now; for the rule "
                            f"of every phase: SET DEADLINE ALL {command.when.at:%H:%M}.)")
        return
    game, phase = found
    try:
        done = deadline_moves.move_deadline(
            ctx.session, game, phase,
            lambda: moment_of(game, command.when, ctx.now, phase_clock(game.settings, phase)),
            now=ctx.now, actor=ctx.sender, service=ctx.service, inbound_id=ctx.inbound_id)
    except DateProblem as problem:
        ctx.results.add(f"{command.line}: refused, {problem}.")
        return
    match done:
        case deadline_moves.MoveRefusal.PAUSED:
            ctx.results.add(f"{command.line}: refused, {game.name} is paused; RESUME it first, "
                            "then move the deadline.")
        case deadline_moves.InPast(moment=moment):
            ctx.results.add(f"{command.line}: refused, {shown_deadline(game, moment)} is in "
                            f"the past (it is now {shown_deadline(game, ctx.now)}); give a "
                            "later time.")
        case deadline_moves.Moved():
            _moved(ctx, game, done)


def _moved(ctx: Context, game: GameRecord, done: deadline_moves.Moved) -> None:
    """Say where the deadline went, and send the notices with the phase's moved event."""
    name = variant_of(game).format_phase(done.phase.phase)
    ctx.results.add(f"Deadline of {name} in {game.name} moved to "
                    f"{shown_deadline(game, done.moment)} (it was "
                    f"{shown_deadline(game, done.before)}). Every player was told. This phase "
                    "only: the phases to come keep the game's rule (SET DEADLINE MOVEMENT 48h "
                    "sets it).")
    zone_name = game.settings.timezone
    if done.repeated:
        local = done.moment.astimezone(zone(zone_name))
        ctx.results.add(f"{local:%H:%M} comes twice on {local:%Y-%m-%d} in {zone_name} (the "
                        "clocks go back over it): the deadline is the first.")
    mark = len(ctx.results.mail)
    ctx.results.mail.extend(done.mail)
    with_events(ctx, game, done.phase, mark, moved=True)


COMMAND = CommandSpec(
    value=SetDeadlineAt,
    keywords=("SET",),
    set_words=("DEADLINE",),
    rules={"set_deadline_at": read_set_deadline_at},
    handle=handle,
    help=(
        HelpLines("DEADLINES", 25, """\
    SET DEADLINE <date>            move the deadline of the phase open now (in the game's
                                   time zone), as the classic judges read dates; every
                                   player is told; the phases to come keep the rule:
                                   SET DEADLINE 23:30       today (tomorrow once past)
                                   SET DEADLINE Tue 18:00   the next Tuesday
                                   SET DEADLINE Dec 9       (without a time: the phase
                                                            type's time of day, or 23:30)
                                   SET DEADLINE 15          the next 15th of a month
                                   SET DEADLINE 2026-12-01 18:00
                                   SET DEADLINE Tue Dec 1 2026 18:00
                                   without a year at most 120 days ahead; at most a
                                   year ahead in all; a local time the clocks skip is
                                   refused, one they repeat is the first
"""),
        HelpLines("GM", 82, """\
    SET DEADLINE <date>                    move this phase's deadline (HELP DEADLINES)
"""),
    ),
)
