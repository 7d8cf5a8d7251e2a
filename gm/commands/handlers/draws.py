"""Draws and concessions by vote.

A draw: when every surviving power still in play has voted for a draw (SET DRAW) and all name
the same powers, the game ends in a draw among them. SET DRAW alone names every survivor (the
usual "draw including all survivors"); SET DRAW <powers> names some (njudge's draw among named
powers, for games without DIAS): the draw comes only when every voter names the same set, the
powers left out voting for it too. A concession: when every surviving power in play but one
has conceded to that one (SET CONCEDE <power>), the game ends with it the winner. Powers in
civil disorder or resigned have no vote and are not waited for. The game is finished at once
and every player, the GM and the observers are told.

The named powers and the concessions are kept in the game's settings document
(gm.store.settings DRAW_SETS_KEY, CONCESSIONS_KEY), written under the game lock.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gm.commands.handlers.common import refresh, variant_of
from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell_game
from gm.play.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.settings import CONCESSIONS_KEY, DRAW_SETS_KEY
from gm.store.statuses import GameStatus, PowerStatus


def survivors(ctx: Context, game: GameRecord) -> tuple[PhaseRecord | None, list[str]]:
    """The game's current phase and its surviving powers (a unit or a supply centre)."""
    phase = phases_repo.current_phase(ctx.session, game.id)
    if phase is None:
        return None, []
    state = phase.state
    return phase, [p for p in variant_of(game).power_names
                   if state.centres_of(p) or state.units_of(p)]


def keep_vote(ctx: Context, game_id: int, key: str, power: str, value: Any) -> None:
    """Store `power`'s entry under `key` of the game's votes (None removes it), under the game
    lock."""
    games_repo.lock_game(ctx.session, game_id)
    game = games_repo.get_game(ctx.session, game_id)
    votes = dict(game.settings.extra.get(key, {}))
    if value is None:
        votes.pop(power, None)
    else:
        votes[power] = value
    extra = {**game.settings.extra, key: votes}
    games_repo.set_game_settings(ctx.session, game_id,
                                 dataclasses.replace(game.settings, extra=extra), now=ctx.now)


def _voters(ctx: Context, game: GameRecord, alive: list[str]) -> list[str]:
    powers = {p.name: p for p in powers_repo.list_powers(ctx.session, game.id)}
    return [name for name in alive
            if name in powers and powers[name].status is PowerStatus.PLAYING]


def settle_draw(ctx: Context, game_id: int) -> bool:
    """End the game in a draw if every voting survivor has voted for one among the same
    powers; whether it ended."""
    game = games_repo.get_game(ctx.session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return False
    phase, alive = survivors(ctx, game)
    if phase is None:
        return False
    powers = {p.name: p for p in powers_repo.list_powers(ctx.session, game.id)}
    voters = _voters(ctx, game, alive)
    if not voters or not all(powers[name].draw_vote for name in voters):
        return False
    named = game.settings.extra.get(DRAW_SETS_KEY, {})
    sets = {frozenset(p for p in named.get(name, alive) if p in alive) for name in voters}
    if len(sets) != 1:
        return False
    (shared,) = sets
    among = [p for p in alive if p in shared]
    if not among:
        return False
    _finish(ctx, game, phase, "draw", {"powers": among}, "the game ends in a draw", render(
        "reply/draw.txt.j2", game=game.name, powers=among,
        phase=variant_of(game).format_phase(phase.phase), service=ctx.service))
    ctx.results.add(f"Every surviving power has voted for a draw: {game.name} ends in a draw "
                    f"shared by {', '.join(among)}.")
    return True


def settle_concession(ctx: Context, game_id: int) -> bool:
    """End the game with a winner if every voting survivor but one has conceded to it; whether
    it ended."""
    game = games_repo.get_game(ctx.session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return False
    phase, alive = survivors(ctx, game)
    if phase is None:
        return False
    conceded = game.settings.extra.get(CONCESSIONS_KEY, {})
    winners = {conceded.get(name) for name in _voters(ctx, game, alive)}
    for winner in [w for w in winners if w in alive]:
        others = [n for n in _voters(ctx, game, alive) if n != winner]
        if others and all(conceded.get(n) == winner for n in others):
            _finish(ctx, game, phase, "concede", {"winner": winner, "conceded": others},
                    f"{winner} wins by concession", render(
                        "reply/conceded.txt.j2", game=game.name, winner=winner, powers=others,
                        phase=variant_of(game).format_phase(phase.phase),
                        service=ctx.service))
            ctx.results.add(f"Every other surviving power has conceded: {game.name} ends with "
                            f"{winner} the winner.")
            return True
    return False


def _finish(ctx: Context, game: GameRecord, phase: PhaseRecord, action: str,
            details: dict[str, Any], what: str, body: str) -> None:
    game = games_repo.set_game_status(ctx.session, game.id, GameStatus.FINISHED, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=action, now=ctx.now,
                        game_id=game.id, details=details, inbound_id=ctx.inbound_id)
    if ctx.signed is not None and ctx.signed.game.id == game.id:
        ctx.signed.game = refresh(ctx, game)
    tell_game(ctx, game, what, body, phase=variant_of(game).format_phase(phase.phase))
