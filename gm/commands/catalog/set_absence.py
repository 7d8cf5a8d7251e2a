"""SET ABSENCE <from> TO <to>: days away; deadlines within move past them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.absence import days, save
from gm.commands.handlers.common import (
    as_player,
    phase_name,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.notices import tell_game
from gm.commands.reading import Draft, Invalid, day
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
    """`SET ABSENCE 2026-03-05 TO 2026-03-08`: days away (first and last, in the game's time
    zone)."""

    start: date
    end: date


def read_set_absence(c: list[Token]) -> Draft:
    start, end = day(c[0]), day(c[1])
    if end < start:
        raise Invalid(f"the absence ends ({end}) before it begins ({start}); write the"
                      " first day away, then the last: SET ABSENCE 2026-03-05 TO 2026-03-08")
    return Draft(lambda line: SetAbsence(line, start, end))


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
    if command.start < today:
        ctx.results.add(f"{what}: refused, {command.start.isoformat()} has passed (today is "
                        f"{today.isoformat()} in the game's time zone, "
                        f"{game.settings.timezone}).")
        return
    stored = absences(game.settings)
    mine = [a for a in stored if a.power == signed.power]
    claim = Absence(signed.power, command.start, command.end)
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
                    f"({days(used + claim.days)} of {allowed} claimed); deadlines that fall "
                    "within it move past it.")
    phase = phases_repo.current_phase(ctx.session, game.id)
    if phase is None or phase.adjudicated or phase.deadline_at is None \
            or phase.deadline_at <= ctx.now:
        return
    moved = past_absences(game.settings, phase.deadline_at)
    if moved == phase.deadline_at:
        return
    phases_repo.set_deadline(ctx.session, phase.id, moved)
    name = phase_name(variant_of(game), phase)
    shown = shown_deadline(game, moved)
    ctx.results.add(f"The deadline of {name} moves to {shown}; everyone is told.")
    tell_game(ctx, game, "deadline moved",
              f"The deadline of {name} in {game.name} moves to {shown}, past the absence of "
              f"{signed.power} ({claim}).\n\n-- \n{ctx.service}\n", phase=name)


COMMAND = CommandSpec(
    value=SetAbsence,
    keywords=("SET",),
    rules={"set_absence": read_set_absence},
    handle=handle,
    set_usage={
        "ABSENCE": (
            "SET ABSENCE needs your first and last day away, as year-month-day: SET ABSENCE"
            " 2026-03-05 TO 2026-03-08 (SET NO ABSENCE withdraws it; the GM sets the days allowed"
            " with SET ABSENCE LIMIT 14 or SET ABSENCE LIMIT OFF)"
        ),
        "HOLIDAY": (
            "SET HOLIDAY (SET ABSENCE) needs your first and last day away, as year-month-day:"
            " SET HOLIDAY 2026-03-05 TO 2026-03-08 (SET NO HOLIDAY withdraws it)"
        ),
    },
    help=(
        HelpLines("SET", 50, """\
    SET ABSENCE <from> TO <to>  days you are away (first and last, year-month-day):
                               SET ABSENCE 2026-03-05 TO 2026-03-08
                               deadlines that fall within move past it, to the same
                               time of day; everyone is told (the GM sets how many
                               days each power may claim: 14 unless set)
    SET HOLIDAY <from> TO <to>  the same (the classic judges' word)
"""),
    ),
)
