"""Seating at START the players who joined a forming game with preferences (JOIN <game>
<password> PREFER <powers>), as a use case (the reply's words are
gm.commands.handlers.join_prefer's).

They are put in random order (a shuffle by the system's random source), and each in turn takes
the first of their preferences still free; a player none of whose preferences is free gets one
of the free powers at random. Powers the GM seated (ADD) or players took by JOIN are not free;
the GM's ADD of an address that joined with preferences replaces its preferences with the GM's
choice. A player whose turn comes when no power is left is told so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.store import audit
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord

_RANDOM = random.SystemRandom()


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(frozen=True)
class TooFew:
    """Fewer joined with preferences (`joined`) than there are `free` powers: START waits."""

    free: tuple[str, ...]
    joined: int


@dataclass(frozen=True)
class Seat:
    """`address` took `power` (None: no power was left in its turn), by its `preference`-th
    preference (None: at random)."""

    address: str
    power: str | None
    preference: int | None = None

    @property
    def how(self) -> str:
        """`1st preference` or `at random`, as the audit trail and the reply say it."""
        return "at random" if self.preference is None else \
            f"{_ordinal(self.preference)} preference"


@dataclass(frozen=True)
class Seated:
    """The players seated by preference, in the order drawn, and the `mail` to those left
    without a power."""

    seats: tuple[Seat, ...]
    mail: tuple[Outgoing, ...]


def seat_by_preference(session: Session, game: GameRecord, *, now: datetime, actor: str,
                       inbound_id: int | None, service: str,
                       force: bool = False) -> Seated | TooFew | None:
    """At START: seat the players who joined `game` with preferences (None: none did); TooFew
    when they are too few for the free powers (unless `force`: FORCE BEGIN seats those there
    are). Logged by `actor`."""
    requests = requests_repo.requests_for(session, game.id)
    if not requests:
        return None
    free = [p.name for p in powers_repo.list_powers(session, game.id) if not p.addresses]
    if len(requests) < len(free) and not force:
        return TooFew(tuple(free), len(requests))
    order = list(requests)
    _RANDOM.shuffle(order)
    seats: list[Seat] = []
    mail: list[Outgoing] = []
    for request in order:
        if not free:
            text = (f"{game.name} has started, and every power was taken before your turn came "
                    "(turns were drawn at random). STANDBY offers to take over a power that "
                    "loses its player.")
            mail.append(Outgoing((request.address,),
                                 build_subject("no power was left", game=game.name),
                                 f"{text}\n\n-- \n{service}\n", game.id))
            seats.append(Seat(request.address, None))
            continue
        choice = next((p for p in request.preferences if p in free), None)
        preference = None if choice is None else request.preferences.index(choice) + 1
        if choice is None:
            choice = _RANDOM.choice(free)
        free.remove(choice)
        powers_repo.set_players(session, game.id, choice, [request.address], now=now)
        powers_repo.set_power_password(session, game.id, choice, request.password_hash,
                                       now=now)
        seats.append(Seat(request.address, choice, preference))
    requests_repo.drop(session, game.id)
    audit.record_action(session, actor=actor, action="seat by preference", now=now,
                        game_id=game.id, inbound_id=inbound_id,
                        details={"order": [{"address": s.address, "power": s.power,
                                            "how": s.how} for s in seats
                                           if s.power is not None]})
    return Seated(tuple(seats), tuple(mail))
