"""What the GM's commands on a running game share (PROCESS, PREVIEW, ROLLBACK, PAUSE, RESUME,
TERMINATE): the game and its open phase, and the change of the game's status.

PREVIEW adjudicates the current orders without storing anything and answers the GM alone;
ROLLBACK reopens an earlier phase (gm.store.phases.rollback_to keeps what it removes in the
audit log) and tells every player and the GM.
"""

from __future__ import annotations

from gm.commands.handlers.common import (
    as_master,
    open_phase_of,
    refresh,
)
from gm.commands.handlers.context import Context
from gm.store import audit
from gm.store import games as games_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus


def open_game(ctx: Context, what: str, verb: str,
               lock: bool = False) -> tuple[GameRecord, PhaseRecord] | None:
    """The GM's running game and its open phase (locked first with `lock`), or None after
    writing why `what` cannot be done."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        ctx.results.add(f"{what}: {game.name} is {game.status.value}; nothing to {verb}.")
        return None
    if lock:
        games_repo.lock_game(ctx.session, game.id)
    phase = open_phase_of(ctx, game)
    if phase is None:
        ctx.results.add(f"{what}: {game.name} has no open phase.")
        return None
    return game, phase


def set_status(ctx: Context, what: str, src: tuple[GameStatus, ...],
                dst: GameStatus) -> GameRecord | None:
    """Move the GM's game from one of `src` to `dst`; the game as it was, or None if refused."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status not in src:
        ctx.results.add(f"{what}: refused, {game.name} is {game.status.value}.")
        return None
    signed.game = games_repo.set_game_status(ctx.session, game.id, dst, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=what.lower(), now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id)
    return game


