"""AHEAD <phase kind> <order>: an order for the next phase of that kind, checked when it
opens.

An order that can never be read (its words, or a province no map has) is refused at once;
whether the board will allow it is known only when the phase opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import (
    as_player,
    open_phase_of,
    phase_name,
    refresh,
    variant_of,
)
from gm.commands.reading import Draft, joined, kind_of_phase
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.engine.errors import ErrorKind, OrderError
from gm.engine.phase import PhaseType
from gm.notation import parse_orders
from gm.store import orders_ahead as ahead_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

MAX_AHEAD = 60  # orders ahead a power may keep at once



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
    phase = open_phase_of(ctx, game)
    if game.status is not GameStatus.ACTIVE or phase is None:
        ctx.results.add(f"{command.line}: refused, {game.name} has no phase open (orders ahead "
                        "are sent while one is).")
        return
    variant = variant_of(game)
    kind = command.phase_type.value.lower()
    parsed = parse_orders(command.text, variant.map_for(phase.state), command.phase_type,
                          variant.order_kinds)
    if isinstance(parsed, OrderError) and parsed.kind is not ErrorKind.AMBIGUOUS:
        ctx.results.add(f"{command.line}: refused. {parsed.message}")
        return
    if len(ahead_repo.of_power(ctx.session, game.id, signed.power)) >= MAX_AHEAD:
        ctx.results.add(f"{command.line}: refused, {signed.power} has {MAX_AHEAD} orders sent "
                        "ahead already (AHEAD CLEAR withdraws them).")
        return
    ahead_repo.add(ctx.session, game.id, signed.power, command.phase_type, phase.index,
                   command.text, now=ctx.now)
    ctx.results.add(f"  {command.text}: kept for the next {kind} phase after "
                    f"{phase_name(variant, phase)}; it is checked when that phase opens, and "
                    "you are told what could be used.")


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
