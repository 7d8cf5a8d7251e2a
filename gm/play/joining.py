"""Joining a forming game (JOIN [<power>] <game> <password>, and njudge's SIGNON ?<game>
<password>): the sender takes a free power, the one named or the first free.

`join` gives a typed outcome: `Joined` (with the GM's notice, which carries the player's
record), or why not: the game has started (`JoinRefusal.STARTED`), another variant was named
(`WrongVariant`), the player's record falls short of the GM's minimum (`RecordShort`, SET JOIN
ONTIME), the power named is no power of the game (`NotAPower`) or is taken (`Taken`), every
power is taken or promised to players who joined with preferences (JOIN ... PREFER), or the
sender plays the game already and the GM allows one power per address (`AlreadyPlaying`, SET
MULTIPLE). The words of the reply are the caller's (gm.commands.catalog.join).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.render import render
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password
from gm.store.powers import address_key
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from gm.variants.registry import canonical_name

MULTIPLE_KEY = "multiple_powers"  # settings document key: one address may JOIN many powers
ONE_POWER_RULE = ("one address plays one power of a game unless its GM allows more (SET "
                  "MULTIPLE ON)")
JOIN_KEY = "join_minimum"  # settings document: {"on_time": percent}


def multiple_allowed(game: GameRecord) -> bool:
    """Whether one address may JOIN more than one power of the game (SET MULTIPLE; off unless
    the GM set it on)."""
    return game.settings.extra.get(MULTIPLE_KEY) is True


def seats_of(session: Session, game: GameRecord, address: str) -> list[str]:
    """The powers of `game` that `address` plays, and "a power at START" if it joined with
    preferences."""
    played = [p.name for p in powers_repo.powers_played_by(session, address)
              if p.game_id == game.id]
    if any(address_key(r.address) == address_key(address)
           for r in requests_repo.requests_for(session, game.id)):
        played.append("a power at START (JOIN ... PREFER)")
    return played


def open_seats(session: Session, game: GameRecord, *, but: str | None = None) -> int:
    """Free powers less those promised to players who joined with preferences (other than
    `but`, an address)."""
    free = sum(1 for p in powers_repo.list_powers(session, game.id) if not p.addresses)
    promised = sum(1 for r in requests_repo.requests_for(session, game.id)
                   if but is None or address_key(r.address) != address_key(but))
    return free - promised


def minimum(game: GameRecord) -> int | None:
    """The share of phases ordered in time (per cent) a player needs to JOIN, if the GM set
    one (SET JOIN ONTIME <n>%)."""
    stored = game.settings.extra.get(JOIN_KEY)
    value = stored.get("on_time") if isinstance(stored, dict) else None
    return value if isinstance(value, int) and 0 < value <= 100 else None


@dataclass(frozen=True)
class RecordShort:
    """The player ordered `on_time` per cent of their phases in time (`in_time` of `phases`),
    less than the game's minimum, `wanted` (SET JOIN ONTIME)."""

    wanted: int
    on_time: int
    in_time: int
    phases: int


def record_short(session: Session, game: GameRecord, address: str) -> RecordShort | None:
    """Whether the record of `address` falls short of the game's minimum to join; a player
    with no phase to order yet may join."""
    wanted = minimum(game)
    if wanted is None:
        return None
    from gm.play.reliability import record_of  # it loads the adjudicator (gm.play.reports)

    record = record_of(session, address)
    ratio = record.on_time
    if ratio is None or ratio >= wanted:
        return None
    return RecordShort(wanted, ratio, record.in_time, record.phases)


class JoinRefusal(StrEnum):
    """Why JOIN failed, when nothing more need be said."""

    STARTED = "started"  # the game is no longer forming: its GM gives the free powers
    ALL_TAKEN = "all taken"  # no power is free
    ALL_PROMISED = "all promised"  # the free powers go to players who joined with preferences


@dataclass(frozen=True)
class WrongVariant:
    """njudge's `SIGNON ?<game> <password> <variant>` named another variant than the game's
    (`title`)."""

    title: str


@dataclass(frozen=True)
class NotAPower:
    """The power named is none of the game's (`names`)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Taken:
    """The power named, `power`, has a player; `free`, the powers that have none."""

    power: str
    free: tuple[str, ...]


@dataclass(frozen=True)
class AlreadyPlaying:
    """The sender plays `seat` in the game already, and the GM allows one power per address."""

    seat: str


@dataclass(frozen=True)
class Joined:
    """The sender now plays `power`; `others`, what they played in the game before (SET
    MULTIPLE ON); `mail`, the GM's notice."""

    power: str
    others: tuple[str, ...]
    mail: tuple[Outgoing, ...]


JoinOutcome = (Joined | JoinRefusal | WrongVariant | RecordShort | NotAPower | Taken
               | AlreadyPlaying)


def join(session: Session, game: GameRecord, power: str | None, password: str, *,
         now: datetime, actor: str, service: str, variant: str | None = None) -> JoinOutcome:
    """The sender `actor` takes `power` of the forming `game` (the first free one when None)
    and signs on with `password` from now on; `variant`, the variant the sender named
    (njudge's SIGNON ?<game> <password> <variant>), must be the game's."""
    if game.status is not GameStatus.FORMING:
        return JoinRefusal.STARTED
    played = get_variant(game.variant)
    if variant is not None and canonical_name(variant) != played.name:
        return WrongVariant(played.title)
    short = record_short(session, game, actor)
    if short is not None:
        return short
    free = [p for p in powers_repo.list_powers(session, game.id) if not p.addresses]
    if power is not None:
        wanted = played.power(power)
        if wanted is None:
            return NotAPower(tuple(played.power_names))
        others = tuple(p.name for p in free)
        free = [p for p in free if p.name == wanted.name]
        if not free:
            return Taken(wanted.name, others)
    if not free:
        return JoinRefusal.ALL_TAKEN
    already = seats_of(session, game, actor)
    if already and not multiple_allowed(game):
        return AlreadyPlaying(already[0])
    if open_seats(session, game) <= 0:
        return JoinRefusal.ALL_PROMISED
    chosen = free[0].name
    powers_repo.set_players(session, game.id, chosen, [actor], now=now)
    powers_repo.set_power_password(session, game.id, chosen, hash_password(password), now=now)
    from gm.play.reliability import record_line  # as record_short

    still = [p.name for p in powers_repo.list_powers(session, game.id) if not p.addresses]
    notice = Outgoing(
        (game.gm_address,), build_subject(f"{chosen} has a player", game=game.name),
        render("reply/joined-gm.txt.j2", game=game.name, power=chosen, address=actor,
               others=already, free=still, service=service,
               record=record_line(session, actor)), game.id)
    return Joined(chosen, tuple(already), (notice,))
