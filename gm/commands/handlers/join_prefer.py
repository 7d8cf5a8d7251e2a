"""JOIN <game> <password> PREFER <powers>: the players who joined with preferences seated at
START (gm.play.preference_seating), worded."""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.play.preference_seating import TooFew
from gm.play.preference_seating import seat_by_preference as seat
from gm.store.rows import GameRecord


def seat_by_preference(ctx: Context, game: GameRecord, *, force: bool = False) -> bool:
    """At START: seat the players who joined with preferences; False (after saying why) when
    they are too few for the free powers (unless `force`: FORCE BEGIN seats those there are)."""
    seated = seat(ctx.session, game, now=ctx.now, actor=ctx.sender, inbound_id=ctx.inbound_id,
                  service=ctx.service, force=force)
    if seated is None:
        return True
    if isinstance(seated, TooFew):
        ctx.results.add(f"START: these powers have no player yet: {', '.join(seated.free)} "
                        f"({seated.joined} joined with preferences and will get theirs at "
                        "START).")
        return False
    ctx.results.mail.extend(seated.mail)
    lines = [f"{s.address}: no power left" if s.power is None
             else f"{s.power}: {s.address} ({s.how})" for s in seated.seats]
    ctx.results.add("Seated by preference, in random order: " + "; ".join(lines) + ".")
    return True
