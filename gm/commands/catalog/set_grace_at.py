"""SET GRACE <date> (GM): when the grace period of the open phase ends (njudge's SET GRACE
<date>, `data/deadlines`: "Sets when the grace period will expire"); the game's grace period
(SET GRACE <duration>) is unchanged for the phases to come."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.catalog.set_deadline_at import moment_for, read_date_words
from gm.commands.dates import EXAMPLES, DateWords
from gm.commands.handlers.common import shown_deadline, variant_of
from gm.commands.handlers.gm_control import open_game
from gm.commands.handlers.gm_settings import change_extra
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.deadlines import GRACE_UNTIL_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetGraceAt(Command):
    """`SET GRACE Dec 12 18:00`: the open phase's grace period ends then."""

    when: DateWords


def read_set_grace_at(c: list[Token]) -> Draft:
    when = read_date_words(c, f"SET GRACE needs a duration (SET GRACE 12h) or a date: "
                              f"{EXAMPLES}")
    return Draft(lambda line: SetGraceAt(line, when))


def handle(ctx: Context, command: SetGraceAt) -> None:
    found = open_game(ctx, "SET GRACE", "set the grace period of", lock=True)
    if found is None:
        return
    game, phase = found
    if phase.deadline_at is None:
        ctx.results.add(f"{command.line}: refused, the phase open in {game.name} has no "
                        "deadline (SET DEADLINE <date> gives it one).")
        return
    moment = moment_for(ctx, command, command.when, game, phase)
    if moment is None:
        return
    if moment < phase.deadline_at:
        ctx.results.add(f"{command.line}: refused, {shown_deadline(game, moment)} is before "
                        f"the deadline ({shown_deadline(game, phase.deadline_at)}); the grace "
                        "period ends after it.")
        return
    settings = change_extra(ctx, "SET GRACE", GRACE_UNTIL_KEY,
                            {"phase": phase.id, "at": moment.isoformat()},
                            {"phase": phase.id, "until": moment.isoformat()})
    if settings is None:
        return
    name = variant_of(game).format_phase(phase.phase)
    ctx.results.add(f"Grace period of {name} in {game.name}: until "
                    f"{shown_deadline(game, moment)} (the deadline is "
                    f"{shown_deadline(game, phase.deadline_at)}). This phase only: the phases "
                    "to come keep the game's grace period.")


COMMAND = CommandSpec(
    value=SetGraceAt,
    keywords=("SET",),
    set_words=("GRACE",),
    rules={"set_grace_at": read_set_grace_at},
    handle=handle,
    help=(
        HelpLines("DEADLINES", 31, """\
    SET GRACE <date>               when the grace period of the phase open now ends:
                                   SET GRACE Tue 23:30 (dates as SET DEADLINE <date>)
"""),
    ),
)
