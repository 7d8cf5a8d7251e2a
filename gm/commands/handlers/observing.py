"""OBSERVE (anyone asks for the observers' report of a game, or stops it) and the GM's
SET OBSERVE ON|OFF (whether anyone may). Observers are the game's list that SET OBSERVERS and
ADD OBSERVER also keep; they get the start mail and every phase's observer report."""

from __future__ import annotations

import dataclasses

from gm.commands.handlers.common import as_master, no_game, refresh
from gm.commands.handlers.context import Context
from gm.commands.handlers.gm_settings import MAX_OBSERVERS
from gm.commands.handlers.notices import tell
from gm.commands.values import Observe, SetObserve
from gm.play.observers import OBSERVERS_KEY, observers
from gm.store import audit
from gm.store import games as games_repo
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus

OPEN_KEY = "observe_open"  # settings document key: False when the GM forbids OBSERVE


def observing_allowed(game: GameRecord) -> bool:
    """Whether anyone may OBSERVE the game (SET OBSERVE; allowed unless the GM forbade it)."""
    return game.settings.extra.get(OPEN_KEY, True) is not False


def _store(ctx: Context, game: GameRecord, addresses: list[str], action: str) -> None:
    settings = game.settings
    extra = {**settings.extra, OBSERVERS_KEY: addresses}
    games_repo.set_game_settings(ctx.session, game.id, dataclasses.replace(settings, extra=extra),
                                 now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=action, now=ctx.now,
                        game_id=game.id, details={"address": ctx.sender},
                        inbound_id=ctx.inbound_id)


def observe(ctx: Context, command: Observe) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"OBSERVE: {no_game(ctx, command.game)}")
        return
    ctx.results.game = game.name
    current = observers(game)
    mine = [a for a in current if a.lower() == ctx.sender.lower()]
    if command.off:
        if not mine:
            ctx.results.add(f"OBSERVE {game.name} OFF: {ctx.sender} does not observe "
                            f"{game.name}; nothing to stop.")
            return
        _store(ctx, game, [a for a in current if a not in mine], "unobserve")
        ctx.results.add(f"You no longer observe {game.name}.")
        return
    if mine:
        ctx.results.add(f"OBSERVE: you already observe {game.name} (OBSERVE {game.name} OFF "
                        "stops it).")
        return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"OBSERVE: {game.name} is finished; HISTORY {game.name} shows how it "
                        "went.")
        return
    if not observing_allowed(game):
        ctx.results.add(f"OBSERVE: refused, the GM of {game.name} does not allow observers "
                        "to sign up; ask the GM.")
        return
    if len(current) >= MAX_OBSERVERS:
        ctx.results.add(f"OBSERVE: refused, {game.name} has {MAX_OBSERVERS} observers "
                        "already, the most a game may have.")
        return
    _store(ctx, game, [*current, ctx.sender], "observe")
    started = "" if game.status is GameStatus.FORMING else " (it has started: HISTORY " \
        f"{game.name} shows the phases so far)"
    ctx.results.add(f"You observe {game.name}: you will get the report of every phase"
                    f"{started}. OBSERVE {game.name} OFF stops it.")
    tell(ctx, game.gm_address, game, "a new observer",
         f"{ctx.sender} observes {game.name} now (OBSERVE). SET OBSERVERS changes the list; "
         "SET OBSERVE OFF stops anyone else signing up.")


def set_observe(ctx: Context, command: SetObserve) -> None:
    signed = as_master(ctx, "SET OBSERVE")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"SET OBSERVE: refused, {game.name} is finished.")
        return
    settings = game.settings
    extra = {**settings.extra, OPEN_KEY: command.allowed}
    signed.game = games_repo.set_game_settings(
        ctx.session, game.id, dataclasses.replace(settings, extra=extra), now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="set", now=ctx.now,
                        game_id=game.id,
                        details={"setting": "SET OBSERVE", "allowed": command.allowed},
                        inbound_id=ctx.inbound_id)
    if command.allowed:
        ctx.results.add(f"Anyone may OBSERVE {game.name} now.")
    else:
        ctx.results.add(f"OBSERVE {game.name} is refused from now on; the observers already "
                        f"listed stay (SET OBSERVERS changes the list).")
