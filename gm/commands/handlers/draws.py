"""Draws by vote: when every surviving power still in play has SET DRAW, the game ends.

The draw is shared by all surviving powers (those with a unit or a supply centre), as in the
usual "draw including all survivors"; powers in civil disorder or resigned have no vote and are
not waited for. The game is finished at once and every player, the GM and the observers are
told.
"""

from __future__ import annotations

from gm.commands.handlers.common import refresh, variant_of
from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell_game
from gm.play.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.statuses import GameStatus, PowerStatus


def settle_draw(ctx: Context, game_id: int) -> bool:
    """End the game in a draw if every voting survivor has voted for one; whether it ended."""
    game = games_repo.get_game(ctx.session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return False
    phase = phases_repo.current_phase(ctx.session, game.id)
    if phase is None:
        return False
    state = phase.state
    survivors = [p for p in variant_of(game).power_names
                 if state.centres_of(p) or state.units_of(p)]
    powers = {p.name: p for p in powers_repo.list_powers(ctx.session, game.id)}
    voters = [name for name in survivors
              if name in powers and powers[name].status is PowerStatus.PLAYING]
    if not voters or not all(powers[name].draw_vote for name in voters):
        return False
    game = games_repo.set_game_status(ctx.session, game.id, GameStatus.FINISHED, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="draw", now=ctx.now,
                        game_id=game.id, details={"powers": survivors},
                        inbound_id=ctx.inbound_id)
    if ctx.signed is not None and ctx.signed.game.id == game.id:
        ctx.signed.game = refresh(ctx, game)
    phase_text = variant_of(game).format_phase(phase.phase)
    tell_game(ctx, game, "the game ends in a draw", render(
        "reply/draw.txt.j2", game=game.name, powers=survivors, phase=phase_text,
        service=ctx.service), phase=phase_text)
    ctx.results.add(f"Every surviving power has voted for a draw: {game.name} ends in a draw "
                    f"shared by {', '.join(survivors)}.")
    return True
