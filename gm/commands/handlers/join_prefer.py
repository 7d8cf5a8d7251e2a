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

from gm.commands.handlers.common import no_game, variant_of
from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell
from gm.commands.values import JoinPrefer
from gm.store import audit
from gm.store import games as games_repo
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password
from gm.store.powers import address_key
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus

_RANDOM = random.SystemRandom()


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def open_seats(ctx: Context, game: GameRecord, *, but: str | None = None) -> int:
    """Free powers less those promised to players who joined with preferences (other than
    `but`, an address)."""
    free = sum(1 for p in powers_repo.list_powers(ctx.session, game.id) if not p.addresses)
    promised = sum(1 for r in requests_repo.requests_for(ctx.session, game.id)
                   if but is None or address_key(r.address) != address_key(but))
    return free - promised


def join_prefer(ctx: Context, command: JoinPrefer) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"JOIN: {no_game(ctx, command.game)}")
        return
    ctx.results.game = game.name
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"JOIN: {game.name} has started; ask its GM for a free power "
                        "(or STANDBY to take over one that loses its player).")
        return
    variant = variant_of(game)
    wanted: list[str] = []
    for written in command.preferences:
        power = variant.power(written)
        if power is None:
            ctx.results.add(f"{command.line}: {written!r} is not a power of {game.name} "
                            f"(powers: {', '.join(variant.power_names)}); nothing was done.")
            return
        if power.name not in wanted:
            wanted.append(power.name)
    played = [p.name for p in powers_repo.powers_played_by(ctx.session, ctx.sender)
              if p.game_id == game.id]
    if played:
        ctx.results.add(f"JOIN: you play {played[0]} in {game.name} already.")
        return
    if open_seats(ctx, game, but=ctx.sender) <= 0:
        ctx.results.add(f"JOIN: every power in {game.name} is taken or promised to a player "
                        "who joined before you.")
        return
    new = requests_repo.put(ctx.session, game.id, ctx.sender,
                            hash_password(command.password.value), wanted, now=ctx.now)
    ctx.results.add(f"You joined {game.name}; at START you get a power by your preferences: "
                    f"{', '.join(wanted)}. (The players who joined with preferences are taken "
                    "in random order, each getting their first preference still free, or a "
                    "free power at random.) The start mail names your power; sign on with it "
                    "and your password.")
    if not new:
        ctx.results.add("(Your earlier preferences and password for this game are replaced.)")
    tell(ctx, game.gm_address, game, "a player joined with preferences",
         f"{ctx.sender} joined {game.name}, preferring {', '.join(wanted)}; START seats them "
         "by preference (ADD seats them by your choice instead).")


def seat_by_preference(ctx: Context, game: GameRecord) -> bool:
    """At START: seat the players who joined with preferences; False (after saying why) when
    they are too few for the free powers."""
    requests = requests_repo.requests_for(ctx.session, game.id)
    if not requests:
        return True
    free = [p.name for p in powers_repo.list_powers(ctx.session, game.id) if not p.addresses]
    if len(requests) < len(free):
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
