"""SET TIMEZONE <zone> from a player (after SIGNON <power> ...): the player's own time zone, in
which every mail of the game to their address shows the deadlines beside the game's time (the
game's own zone is the GM's SET TIMEZONE). Kept per game and address in the game's settings
document (gm.play.calendar_event)."""

from __future__ import annotations

import dataclasses

from gm.commands.handlers.common import open_phase_of, refresh, variant_of
from gm.commands.handlers.context import Context, Signed
from gm.play.calendar_event import shown_for, with_reader_zone
from gm.store import audit
from gm.store import games as games_repo
from gm.store.statuses import GameStatus


def set_reader_zone(ctx: Context, signed: Signed, name: str, line: str) -> None:
    """Store `name` (a tz database name, checked) as the sender's zone in the signed-on game,
    and say what the deadline now reads."""
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{line}: refused, {game.name} is finished.")
        return
    settings = dataclasses.replace(game.settings,
                                   extra=with_reader_zone(game.settings, ctx.sender, name))
    signed.game = games_repo.set_game_settings(ctx.session, game.id, settings, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="set", now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id,
                        details={"setting": "SET TIMEZONE", "zone": name,
                                 "address": ctx.sender})
    said = (f"Your mail of {game.name} (to {ctx.sender}) shows the deadlines in your time, "
            f"{name}, beside the game's ({game.settings.timezone}).")
    phase = open_phase_of(ctx, game)
    if phase is not None and phase.deadline_at is not None:
        said += (f" Deadline of {variant_of(game).format_phase(phase.phase)}: "
                 f"{shown_for(settings, ctx.sender, phase.deadline_at)}.")
    ctx.results.add(said)
