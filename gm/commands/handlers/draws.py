"""Draws and concessions by vote (njudge's rules: gm.play.votes).

A draw passes when every surviving power still in play has voted (SET DRAW) and the votes
agree as gm.play.votes.passing_draw says: in a DIAS game (the default) a draw of every
survivor; in a NoDIAS game (SET NODIAS) the largest draw every voter approves, a draw of one
power being a concession to it. A concession (SET CONCEDE <power>, DIAS games): when every
surviving power in play but one has conceded to that one, the game ends with it the winner.
Powers in civil disorder or resigned have no vote and are not waited for. Votes count in the
phase they were cast in only. The game is finished at once and every player, the GM and the
observers are told.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gm.commands.handlers.common import refresh, variant_of
from gm.commands.handlers.context import Context
from gm.commands.handlers.game_end import tell_game_end
from gm.engine.variant import Variant
from gm.play import votes as votes_of
from gm.play.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus, PowerStatus


def survivors(ctx: Context, game: GameRecord) -> tuple[PhaseRecord | None, list[str]]:
    """The game's current phase and its surviving powers (a unit or a supply centre)."""
    phase = phases_repo.current_phase(ctx.session, game.id)
    if phase is None:
        return None, []
    state = phase.state
    return phase, [p for p in variant_of(game).power_names
                   if state.centres_of(p) or state.units_of(p)]


def named_powers(variant: Variant, names: tuple[str, ...]) -> list[str] | str:
    """The powers `names` stand for (a name, adjective or one-letter code, or a run of codes:
    `AEG` is Austria, England, Germany), in order, or the first name that is none."""
    out: list[str] = []
    for name in names:
        power = variant.power(name)
        if power is not None:
            found = [power.name]
        else:
            codes = [variant.power(letter) for letter in name] if len(name) > 1 else [None]
            if any(p is None or len(p.letter) != 1 for p in codes):
                return name
            found = [p.name for p in codes if p is not None]
        out += [p for p in found if p not in out]
    return out


def keep_vote(ctx: Context, game_id: int, key: str, power: str,
              vote: votes_of.Vote | None) -> GameRecord:
    """Store `power`'s vote under `key` of the game's votes (None removes it), under the game
    lock; the game as stored."""
    games_repo.lock_game(ctx.session, game_id)
    game = games_repo.get_game(ctx.session, game_id)
    extra = votes_of.with_vote(game.settings, key, power, vote)
    return games_repo.set_game_settings(ctx.session, game_id,
                                        dataclasses.replace(game.settings, extra=extra),
                                        now=ctx.now)


def _voters(ctx: Context, game: GameRecord, alive: list[str]) -> list[str]:
    powers = {p.name: p for p in powers_repo.list_powers(ctx.session, game.id)}
    return [name for name in alive
            if name in powers and powers[name].status is PowerStatus.PLAYING]


def settle_draw(ctx: Context, game_id: int) -> bool:
    """End the game in the draw the votes of this phase pass (gm.play.votes.passing_draw), or
    with a winner if that draw is of one power (NoDIAS); whether it ended."""
    game = games_repo.get_game(ctx.session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return False
    phase, alive = survivors(ctx, game)
    if phase is None:
        return False
    voters = _voters(ctx, game, alive)
    among = votes_of.passing_draw(alive, voters, votes_of.draw_votes(game.settings, phase),
                                  dias=not votes_of.nodias(game.settings))
    if not among:
        return False
    if len(among) == 1:
        _conceded(ctx, game, phase, among[0], [p for p in voters if p != among[0]])
        return True
    _finish(ctx, game, phase, "draw", {"powers": among}, "the game ends in a draw", render(
        "reply/draw.txt.j2", game=game.name, powers=among,
        phase=variant_of(game).format_phase(phase.phase), service=ctx.service))
    ctx.results.add(f"Every surviving power has voted for a draw: {game.name} ends in a draw "
                    f"shared by {', '.join(among)}.")
    return True


def _conceded(ctx: Context, game: GameRecord, phase: PhaseRecord, winner: str,
              others: list[str]) -> None:
    _finish(ctx, game, phase, "concede", {"winner": winner, "conceded": others},
            f"{winner} wins by concession", render(
                "reply/conceded.txt.j2", game=game.name, winner=winner, powers=others,
                phase=variant_of(game).format_phase(phase.phase), service=ctx.service))
    ctx.results.add(f"Every other surviving power has conceded: {game.name} ends with "
                    f"{winner} the winner.")


def settle_concession(ctx: Context, game_id: int) -> bool:
    """End the game with a winner if every voting survivor but one has conceded to it in this
    phase; whether it ended."""
    game = games_repo.get_game(ctx.session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return False
    phase, alive = survivors(ctx, game)
    if phase is None:
        return False
    conceded = {p: v.to for p, v in votes_of.concessions(game.settings, phase).items()}
    voters = _voters(ctx, game, alive)
    for winner in [w for w in {conceded.get(name) for name in voters} if w in alive]:
        others = [n for n in voters if n != winner]
        if others and all(conceded.get(n) == winner for n in others):
            _conceded(ctx, game, phase, winner, others)
            return True
    return False


def _finish(ctx: Context, game: GameRecord, phase: PhaseRecord, action: str,
            details: dict[str, Any], what: str, body: str) -> None:
    game = games_repo.set_game_status(ctx.session, game.id, GameStatus.FINISHED, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=action, now=ctx.now,
                        game_id=game.id, details=details, inbound_id=ctx.inbound_id)
    if ctx.signed is not None and ctx.signed.game.id == game.id:
        ctx.signed.game = refresh(ctx, game)
    tell_game_end(ctx, game, what, body, phase=variant_of(game).format_phase(phase.phase))
