"""SET ABSENCE <from> TO <to>, SET NO ABSENCE (players) and SET ABSENCE LIMIT (the GM).

A power claims days away; the game's deadlines that fall inside any absence move past it (the
rule and the limit of days are in gm.play.absences). When the open phase's deadline moves,
everyone in the game is told the new one.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from gm.commands.handlers.common import (
    as_master,
    as_player,
    phase_name,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell_game
from gm.commands.values import ClearAbsence, SetAbsence, SetAbsenceLimit
from gm.play.absences import (
    LIMIT_KEY,
    Absence,
    absences,
    limit,
    past_absences,
    with_absences,
)
from gm.play.zones import zone
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus

MAX_LIMIT = 366


def _days(count: int) -> str:
    return f"{count} day{'s' if count != 1 else ''}"


def _save(ctx: Context, game: GameRecord, extra: dict[str, object]) -> GameRecord:
    return games_repo.set_game_settings(
        ctx.session, game.id, dataclasses.replace(game.settings, extra=extra), now=ctx.now)


def set_absence(ctx: Context, command: SetAbsence) -> None:
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
                        f"{_days(max(0, allowed - used))} of absence {signed.power} has left in "
                        f"{game.name} (the GM allows {_days(allowed)} in all).")
        return
    game = _save(ctx, game, with_absences(game.settings, [*stored, claim]))
    signed.game = game
    audit.record_action(ctx.session, actor=ctx.sender, action="absence", now=ctx.now,
                        game_id=game.id, details={"power": signed.power, **claim.to_json()},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"{signed.power} is away from {claim} in {game.name} "
                    f"({_days(used + claim.days)} of {allowed} claimed); deadlines that fall "
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


def clear_absence(ctx: Context, command: ClearAbsence) -> None:
    signed = as_player(ctx, "SET NO ABSENCE")
    if signed is None or signed.power is None:
        return
    game = refresh(ctx, signed.game)
    today = ctx.now.astimezone(zone(game.settings.timezone)).date()
    kept: list[Absence] = []
    withdrawn: list[Absence] = []
    for absence in absences(game.settings):
        if absence.power != signed.power or absence.end < today:
            kept.append(absence)  # another power's, or over: stays (its days stay claimed)
        elif absence.start < today:  # under way: ends yesterday
            kept.append(dataclasses.replace(absence, end=today - timedelta(days=1)))
            withdrawn.append(absence)
        else:
            withdrawn.append(absence)
    if not withdrawn:
        ctx.results.add(f"{command.line}: {signed.power} has no absence in {game.name} that "
                        "is under way or to come; nothing to withdraw.")
        return
    signed.game = _save(ctx, game, with_absences(game.settings, kept))
    audit.record_action(ctx.session, actor=ctx.sender, action="absence withdrawn",
                        now=ctx.now, game_id=game.id,
                        details={"power": signed.power,
                                 "withdrawn": [a.to_json() for a in withdrawn]},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"Absence of {signed.power} in {game.name} withdrawn from today on: "
                    + ", ".join(str(a) for a in withdrawn)
                    + ". Deadlines already moved stay where they are.")


def set_absence_limit(ctx: Context, command: SetAbsenceLimit) -> None:
    signed = as_master(ctx, "SET ABSENCE LIMIT")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if command.days > MAX_LIMIT:
        ctx.results.add(f"{command.line}: refused, a limit is at most {MAX_LIMIT} days.")
        return
    signed.game = _save(ctx, game, {**game.settings.extra, LIMIT_KEY: command.days})
    audit.record_action(ctx.session, actor=ctx.sender, action="set", now=ctx.now,
                        game_id=game.id,
                        details={"setting": "SET ABSENCE LIMIT", "days": command.days},
                        inbound_id=ctx.inbound_id)
    if command.days == 0:
        ctx.results.add(f"Absences in {game.name}: OFF (players may claim none from now on; "
                        "those claimed already stand).")
    else:
        ctx.results.add(f"Absences in {game.name}: each power may claim {_days(command.days)} "
                        "in all.")
