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
from gm.play import game_life
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


def gm_game(ctx: Context, what: str) -> GameRecord | None:
    """The GM's game as it is now, or None after writing why `what` is refused."""
    signed = as_master(ctx, what)
    return None if signed is None else refresh(ctx, signed.game)


def status_changed(ctx: Context, what: str, game: GameRecord,
                   done: game_life.LifeOutcome) -> game_life.Changed | None:
    """The change of the GM's `game` (gm.play.game_life), the sign-on's game updated; or None
    after writing why `what` was refused: the game's status."""
    if isinstance(done, game_life.WrongStatus):
        ctx.results.add(f"{what}: refused, {game.name} is {done.status.value}.")
        return None
    if ctx.signed is not None:
        ctx.signed.game = done.after
    return done
