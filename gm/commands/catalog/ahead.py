"""AHEAD <phase kind> <order>: an order for the next phase of that kind, checked when it
opens.

An order that can never be read (its words, or a province no map has) is refused at once;
whether the board will allow it is known only when the phase opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player, phase_name, refresh, variant_of
from gm.commands.reading import Draft, joined, kind_of_phase
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.engine.phase import PhaseType
from gm.play import sending_ahead

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Ahead(Command):
    """`AHEAD RETREAT A Bur-Par` / `AHEAD BUILD Build A Par`: an order for the next phase of
    that kind, checked when it opens. `text` is the order as written."""

    phase_type: PhaseType
    text: str


def read_ahead(c: list[Token]) -> Draft:
    kind, *words = c
    phase_type, text = kind_of_phase(str(kind)), joined(words)
    return Draft(lambda line: Ahead(line, phase_type, text))


def handle(ctx: Context, command: Ahead) -> None:
    signed = as_player(ctx, str(command.line))
    if signed is None or signed.power is None:
        return
    game = refresh(ctx, signed.game)
    done = sending_ahead.send_ahead(ctx.session, game, signed.power, command.phase_type,
                                    command.text, now=ctx.now)
    match done:
        case sending_ahead.AheadRefusal.CLOSED:
            ctx.results.add(f"{command.line}: refused, {game.name} has no phase open (orders "
                            "ahead are sent while one is).")
        case sending_ahead.Unreadable(error=error):
            ctx.results.add(f"{command.line}: refused. {error.message}")
        case sending_ahead.AheadRefusal.TOO_MANY:
            ctx.results.add(f"{command.line}: refused, {signed.power} has "
                            f"{sending_ahead.MAX_AHEAD} orders sent ahead already (AHEAD CLEAR "
                            "withdraws them).")
        case sending_ahead.KeptAhead(phase=phase):
            kind = command.phase_type.value.lower()
            ctx.results.add(f"  {command.text}: kept for the next {kind} phase after "
                            f"{phase_name(variant_of(game), phase)}; it is checked when that "
                            "phase opens, and you are told what could be used.")


COMMAND = CommandSpec(
    value=Ahead,
    keywords=("AHEAD",),
    rules={"ahead": read_ahead},
    handle=handle,
    usage={
        "AHEAD": (
            "AHEAD needs the kind of phase (MOVEMENT, RETREAT or ADJUSTMENT) and an order, or"
            " CLEAR: AHEAD RETREAT A Bur-Par, AHEAD ADJUSTMENT Build A Par or AHEAD CLEAR"
        ),
    },
    help=(
        HelpLines("ORDERS", 40, """\
Orders ahead, for the next phase of a kind, sent while another phase is open:
    AHEAD RETREAT A Bur-Pic    a retreat for the coming retreat phase
    AHEAD BUILD Build A Par    a build for the coming adjustment phase (also ADJUSTMENT)
    AHEAD MOVEMENT A Par-Bur   a move for the next movement phase
"""),
        HelpLines("ORDERS", 60, """\
They are checked when that phase opens: those the board allows become your orders for it
(you may still change them); you are told which could not be used, and why. Retreats and
builds sent ahead are for the coming ones before the next movement phase, and lapse if none
comes (no unit dislodged, no adjustment).
"""),
    ),
)
