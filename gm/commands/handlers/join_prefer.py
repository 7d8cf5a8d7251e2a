"""JOIN <game> <password> PREFER <powers>: join a forming game and get a power at START by
preference.

At START the players who joined with preferences are seated by a fair method: they are put in
random order (a shuffle by the system's random source), and each in turn takes the first of
their preferences still free; a player none of whose preferences is free gets one of the free
powers at random. Powers the GM seated (ADD) or players took by JOIN are not free; the GM's ADD
of an address that joined with preferences replaces its preferences with the GM's choice.
"""

from __future__ import annotations

import random

from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell
from gm.store import audit
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord

_RANDOM = random.SystemRandom()


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def seat_by_preference(ctx: Context, game: GameRecord, *, force: bool = False) -> bool:
    """At START: seat the players who joined with preferences; False (after saying why) when
    they are too few for the free powers (unless `force`: FORCE BEGIN seats those there are)."""
    requests = requests_repo.requests_for(ctx.session, game.id)
    if not requests:
        return True
    free = [p.name for p in powers_repo.list_powers(ctx.session, game.id) if not p.addresses]
    if len(requests) < len(free) and not force:
        ctx.results.add(f"START: these powers have no player yet: {', '.join(free)} "
                        f"({len(requests)} joined with preferences and will get theirs at "
                        "START).")
        return False
    order = list(requests)
    _RANDOM.shuffle(order)
    seated: list[dict[str, str]] = []
    lines = []
    for request in order:
        if not free:
            tell(ctx, request.address, game, "no power was left",
                 f"{game.name} has started, and every power was taken before your turn came "
                 "(turns were drawn at random). STANDBY offers to take over a power that loses "
                 "its player.")
            lines.append(f"{request.address}: no power left")
            continue
        choice = next((p for p in request.preferences if p in free), None)
        how = (f"{_ordinal(request.preferences.index(choice) + 1)} preference"
               if choice is not None else "at random")
        if choice is None:
            choice = _RANDOM.choice(free)
        free.remove(choice)
        powers_repo.set_players(ctx.session, game.id, choice, [request.address], now=ctx.now)
        powers_repo.set_power_password(ctx.session, game.id, choice, request.password_hash,
                                       now=ctx.now)
        seated.append({"address": request.address, "power": choice, "how": how})
        lines.append(f"{choice}: {request.address} ({how})")
    requests_repo.drop(ctx.session, game.id)
    audit.record_action(ctx.session, actor=ctx.sender, action="seat by preference",
                        now=ctx.now, game_id=game.id, details={"order": seated},
                        inbound_id=ctx.inbound_id)
    ctx.results.add("Seated by preference, in random order: " + "; ".join(lines) + ".")
    return True
