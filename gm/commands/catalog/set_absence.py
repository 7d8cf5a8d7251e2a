"""SET ABSENCE <from> [TO <to>]: days away; the deadlines of phases opened later that fall
within move past them (the open phase's never does: njudge `data/absence`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING

from lark import Token, Tree

from gm.bot.policies import StandIn
from gm.commands.catalog.set_deadline_at import read_date_words
from gm.commands.dates import EXAMPLES, DateProblem, DateWords, resolve
from gm.commands.handlers.absence import days, save
from gm.commands.handlers.common import (
    as_player,
    phase_name,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.notices import tell
from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.absences import Absence, absences, limit, past_absences, with_absences
from gm.play.zones import zone
from gm.store import audit
from gm.store import phases as phases_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetAbsence(Command):
    """`SET ABSENCE 2026-03-05 TO 2026-03-08`, `SET ABSENCE Dec 20 TO Dec 22`, `SET ABSENCE
    3 Jul 12:00`: when the player is away, as written (njudge `data/absence`: dates as SET
    DEADLINE reads them; the start at 0:00 and the end at 23:59 unless a time is given; no end:
    24 hours), read in the game's time zone when the command runs."""

    start: DateWords
    end: DateWords | None
    stand_in: StandIn | None = None  # ... STANDIN <policy>: it orders, the deadlines stay


def read_set_absence(c: list[Tree[Token] | Token]) -> Draft:
    usage = ("SET ABSENCE needs your first day away and, after TO, your last: SET ABSENCE "
             f"Dec 20 TO Dec 22 or SET ABSENCE 2026-03-05 TO 2026-03-08 (dates: {EXAMPLES})")
    stand_in = None
    if c and isinstance(c[-1], Token):  # ... STANDIN <policy>
        word = str(c[-1])
        try:
            stand_in = StandIn(word.upper())
        except ValueError:
            raise Invalid(f"STANDIN needs HOLD, DEFEND, REPEAT or BOT, not {word!r}: SET "
                          "ABSENCE Dec 20 TO Dec 22 STANDIN BOT") from None
    trees = [t for t in c if isinstance(t, Tree)]
    start = read_date_words(trees[0].children, usage)
    end = read_date_words(trees[1].children, usage) if len(trees) > 1 else None
    first, last = _whole_day(start), None if end is None else _whole_day(end)
    if first is not None and last is not None and last < first:
        raise Invalid(f"the absence ends ({last}) before it begins ({first}); write the"
                      " first day away, then the last: SET ABSENCE 2026-03-05 TO 2026-03-08")
    return Draft(lambda line: SetAbsence(line, start, end, stand_in))


def _whole_day(words: DateWords) -> date | None:
    """The day `words` give whole (year, month and day), or None."""
    if words.year is None or words.month is None or words.day is None:
        return None
    return date(words.year, words.month, words.day)  # read_date checked it exists


def _days(command: SetAbsence, zone_name: str, now: datetime) -> tuple[date, date]:
    """The first and last day the absence covers (whole days, those it touches), read from
    the start of today in the game's time zone (DateProblem when a date means none)."""
    today = datetime.combine(now.astimezone(zone(zone_name)).date(), time(0))
    begin = resolve(command.start, today, time(0, 0))
    finish = (begin + timedelta(hours=24) if command.end is None
              else resolve(command.end, today, time(23, 59)))
    if finish <= begin:
        raise DateProblem(f"the absence ends ({finish:%a %Y-%m-%d %H:%M}) before it begins "
                          f"({begin:%a %Y-%m-%d %H:%M}); write the first day away, then the "
                          "last: SET ABSENCE Dec 20 TO Dec 22")
    return begin.date(), (finish - timedelta(microseconds=1)).date()


def handle(ctx: Context, command: SetAbsence) -> None:
    signed = as_player(ctx, "SET ABSENCE")
    if signed is None or signed.power is None:
        return
    game = refresh(ctx, signed.game)
    what = f"{command.line}"
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return
    allowed = limit(game.settings)
    if allowed == 0:
        ctx.results.add(f"{what}: refused, the GM of {game.name} allows no absences.")
        return
    today = ctx.now.astimezone(zone(game.settings.timezone)).date()
    try:
        first, last = _days(command, game.settings.timezone, ctx.now)
    except DateProblem as problem:
        ctx.results.add(f"{what}: refused, {problem}.")
        return
    if first < today:
        ctx.results.add(f"{what}: refused, {first.isoformat()} has passed (today is "
                        f"{today.isoformat()} in the game's time zone, "
                        f"{game.settings.timezone}).")
        return
    stored = absences(game.settings)
    mine = [a for a in stored if a.power == signed.power]
    claim = Absence(signed.power, first, last,
                    "" if command.stand_in is None else command.stand_in.value)
    overlap = [a for a in mine if a.start <= claim.end and claim.start <= a.end]
    if overlap:
        ctx.results.add(f"{what}: refused, you are away from {overlap[0]} already (SET NO "
                        "ABSENCE withdraws absences that have not begun).")
        return
    used = sum(a.days for a in mine)
    if used + claim.days > allowed:
        ctx.results.add(f"{what}: refused, {claim.days} days is more than the "
                        f"{days(max(0, allowed - used))} of absence {signed.power} has left in "
                        f"{game.name} (the GM allows {days(allowed)} in all).")
        return
    game = save(ctx, game, with_absences(game.settings, [*stored, claim]))
    signed.game = game
    audit.record_action(ctx.session, actor=ctx.sender, action="absence", now=ctx.now,
                        game_id=game.id, details={"power": signed.power, **claim.to_json()},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"{signed.power} is away from {claim} in {game.name} "
                    f"({days(used + claim.days)} of {allowed} claimed); " + (
                        "the deadlines of the phases to come that fall within it move past it."
                        if command.stand_in is None else
                        f"no deadline moves: the stand-in ({claim.stand_in}) gives "
                        f"{signed.power}'s orders at each deadline within it that you have "
                        "sent none for."))
    if command.stand_in is not None:
        tell(ctx, game.gm_address, game, f"{signed.power} is away",
             f"{signed.power} is away from {claim} in {game.name} (SET ABSENCE; "
             f"{days(used + claim.days)} of {allowed} claimed), its stand-in "
             f"{claim.stand_in} ordering for it; no deadline moves.")
        return
    tell(ctx, game.gm_address, game, f"{signed.power} is away",
         f"{signed.power} is away from {claim} in {game.name} (SET ABSENCE; "
         f"{days(used + claim.days)} of {allowed} claimed).")
    # njudge `data/absence`: "Setting an absence never extends the *current* deadline"
    phase = phases_repo.current_phase(ctx.session, game.id)
    if phase is None or phase.adjudicated or phase.deadline_at is None \
            or phase.deadline_at <= ctx.now \
            or past_absences(game.settings, phase.deadline_at) == phase.deadline_at:
        return
    ctx.results.add(f"The deadline of {phase_name(variant_of(game), phase)} "
                    f"({shown_deadline(game, phase.deadline_at)}) falls within it but does not "
                    "move: an absence never moves the deadline of the phase open now. Send "
                    "your orders before you go, or ask the GM to move the deadline.")


COMMAND = CommandSpec(
    value=SetAbsence,
    keywords=("SET",),
    set_words=("ABSENCE",),
    player_setting=True,
    rules={"set_absence": read_set_absence},
    handle=handle,
    set_usage={
        "ABSENCE": (
            "SET ABSENCE needs your first and last day away: SET ABSENCE Dec 20 TO Dec 22 or"
            " SET ABSENCE 2026-03-05 TO 2026-03-08 (SET NO ABSENCE withdraws it; the GM sets"
            " the days allowed with SET ABSENCE LIMIT 14 or SET ABSENCE LIMIT OFF)"
        ),
        "HOLIDAY": (
            "SET HOLIDAY (SET ABSENCE) needs your first and last day away: SET HOLIDAY"
            " Dec 20 TO Dec 22 or SET HOLIDAY 2026-03-05 TO 2026-03-08 (SET NO HOLIDAY"
            " withdraws it)"
        ),
    },
    help=(
        HelpLines("SET", 50, """\
    SET ABSENCE <from> TO <to>  days you are away (first and last; dates as SET
                               DEADLINE reads them, HELP DEADLINES):
                               SET ABSENCE 2026-03-05 TO 2026-03-08
                               SET ABSENCE Dec 20 TO Dec 22
                               SET ABSENCE 3 Jul 12:00  (24 hours)
                               kept as the whole days it touches; the deadlines of
                               phases opened later that fall within move past it, to
                               the same time of day; the deadline of the phase open
                               now never moves (ask the GM); the GM is told (the GM
                               sets how many days each power may claim: 14 unless set)
    SET HOLIDAY <from> TO <to>  the same (the classic judges' word)
    SET ABSENCE <from> TO <to> STANDIN HOLD|DEFEND|REPEAT|BOT
                               away, and no deadline moves: at each deadline within it
                               that you have sent no orders for, the stand-in gives
                               them (HELP DEADLINES, SET STANDIN)
"""),
    ),
)
