"""AHEAD <kind> <order> and AHEAD CLEAR: orders for the next phase of a kind, sent while
another phase is open; checked when that phase opens (gm.play.orders_ahead).

An order that can never be read (its words, or a province no map has) is refused at once;
whether the board will allow it is known only when the phase opens.
"""

from __future__ import annotations

from gm.commands.handlers.common import as_player, open_phase_of, phase_name, refresh, variant_of
from gm.commands.handlers.context import Context
from gm.commands.values import Ahead, ClearAhead
from gm.engine.errors import ErrorKind, OrderError
from gm.notation import parse_orders
from gm.store import orders_ahead as ahead_repo
from gm.store.statuses import GameStatus

MAX_AHEAD = 60  # orders ahead a power may keep at once


def ahead(ctx: Context, command: Ahead) -> None:
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


def clear_ahead(ctx: Context, command: ClearAhead) -> None:
    signed = as_player(ctx, str(command.line))
    if signed is None or signed.power is None:
        return
    count = ahead_repo.clear(ctx.session, signed.game.id, signed.power)
    ctx.results.add(f"{command.line}: " + (f"{count} order{'s' if count != 1 else ''} sent "
                                          "ahead withdrawn." if count else
                                          "no orders sent ahead to withdraw."))
