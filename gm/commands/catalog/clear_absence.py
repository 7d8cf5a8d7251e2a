"""SET NO ABSENCE: withdraw the absences that have not begun."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.absence import save
from gm.commands.handlers.common import as_player, refresh
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.absences import Absence, absences, with_absences
from gm.play.zones import zone
from gm.store import audit

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class ClearAbsence(Command):
    """`SET NO ABSENCE`: withdraw the absences that have not begun."""


def read_clear_absence(c: list[Token]) -> Draft:
    return Draft(ClearAbsence)


def handle(ctx: Context, command: ClearAbsence) -> None:
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
    signed.game = save(ctx, game, with_absences(game.settings, kept))
    audit.record_action(ctx.session, actor=ctx.sender, action="absence withdrawn",
                        now=ctx.now, game_id=game.id,
                        details={"power": signed.power,
                                 "withdrawn": [a.to_json() for a in withdrawn]},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"Absence of {signed.power} in {game.name} withdrawn from today on: "
                    + ", ".join(str(a) for a in withdrawn)
                    + ". Deadlines already moved stay where they are.")


COMMAND = CommandSpec(
    value=ClearAbsence,
    keywords=("SET",),
    set_words=("NO ABSENCE",),
    player_setting=True,
    rules={"clear_absence": read_clear_absence},
    handle=handle,
    set_usage={
        "NOABSENCE": "SET NO ABSENCE takes nothing after it",
    },
    help=(
        HelpLines("SET", 60, """\
    SET NO ABSENCE             withdraw your absences from today on (also SET NOABSENCE)
    SET NO HOLIDAY             the same (the classic judges' word)
"""),
    ),
)
