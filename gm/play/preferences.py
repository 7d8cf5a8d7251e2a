"""A player's preferences for a power in a forming game (SET PREFERENCE, after njudge's SIGNON
?<game>, or JOIN ... PREFER): kept as the player's request to join (gm.store.join_requests),
read at START (gm.play.preference_seating). A player who took a power with JOIN gives it back
to be seated by preference instead, with the same password; one the GM seated (ADD) keeps it.

`prefer` gives `Preferred` (with the GM's notice) or why not (`PreferenceRefusal`,
`GivenByGm`). The words of the reply are the caller's (gm.commands.catalog.set_preference),
which reads the powers written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.joining import AlreadyPlaying, JoinRefusal, multiple_allowed, open_seats
from gm.play.render import render
from gm.play.seats import new_password
from gm.store import audit
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus


class PreferenceRefusal(StrEnum):
    """Why the preferences were not kept, when nothing more need be said."""

    STARTED = "started"  # the powers are given: preferences are for a forming game
    NOT_JOINED = "not joined"  # the sender neither plays a power nor asked to join
    ALL_PROMISED = "all promised"  # every power is taken or promised to others


@dataclass(frozen=True)
class GivenByGm:
    """The GM gave the sender `power` (ADD): the GM changes it, not preferences."""

    power: str


@dataclass(frozen=True)
class Preferred:
    """The sender's preferences are `wanted` (none: any power); `gave_back`, the power they
    played and gave back to be seated by preference; `mail`, the GM's notice."""

    wanted: tuple[str, ...]
    gave_back: str | None
    mail: tuple[Outgoing, ...]


PreferenceOutcome = Preferred | PreferenceRefusal | GivenByGm


def prefer(session: Session, game: GameRecord, wanted: Sequence[str], *, now: datetime,
           actor: str, service: str) -> PreferenceOutcome:
    """`actor`'s preferences in the forming `game` are `wanted` (power names, most wanted
    first; none: any power, at random)."""
    if game.status is not GameStatus.FORMING:
        return PreferenceRefusal.STARTED
    sender = actor.lower()
    seated = [p for p in powers_repo.list_powers(session, game.id)
              if sender in (a.lower() for a in p.addresses)]
    request = next((r for r in requests_repo.requests_for(session, game.id)
                    if r.address.lower() == sender), None)
    gave_back = None
    if seated:
        power = seated[0]
        given = [e for e in audit.audit_log(session, game_id=game.id, action="add")
                 if e.details.get("power") == power.name
                 and str(e.details.get("address", "")).lower() == sender]
        if given:
            return GivenByGm(power.name)
        password_hash = power.password_hash or hash_password(new_password())
        powers_repo.set_players(session, game.id, power.name, [], now=now)
        powers_repo.set_power_password(session, game.id, power.name,
                                       hash_password(new_password()), now=now)
        gave_back = power.name
    elif request is not None:
        password_hash = request.password_hash
    else:
        return PreferenceRefusal.NOT_JOINED
    if not seated and open_seats(session, game, but=actor) <= 0:
        return PreferenceRefusal.ALL_PROMISED
    requests_repo.put(session, game.id, actor, password_hash, list(wanted), now=now)
    notice = Outgoing(
        (game.gm_address,), build_subject("a player's preferences", game=game.name),
        render("reply/preferences-gm.txt.j2", address=actor, game=game.name,
               wanted=list(wanted), service=service), game.id)
    return Preferred(tuple(wanted), gave_back, (notice,))


@dataclass(frozen=True)
class JoinedPreferring:
    """The request to join is kept with `wanted`; `replaced`, when it replaced an earlier one
    (its preferences and password)."""

    wanted: tuple[str, ...]
    replaced: bool


def join_preferring(session: Session, game: GameRecord, wanted: Sequence[str], password: str,
                    *, now: datetime, actor: str,
                    ) -> JoinedPreferring | AlreadyPlaying | JoinRefusal:
    """JOIN <game> <password> PREFER <powers>: `actor` asks to join the forming `game`, to be
    given a power at START by `wanted` (power names, most wanted first), with `password`.
    The caller has checked that the game is forming and that the actor may join it; the
    refusals are JOIN's (gm.play.joining): a player of the game who may play only one power,
    and every free power promised (`JoinRefusal.ALL_PROMISED`)."""
    played = [p.name for p in powers_repo.powers_played_by(session, actor)
              if p.game_id == game.id]
    if played and not multiple_allowed(game):
        return AlreadyPlaying(played[0])
    if open_seats(session, game, but=actor) <= 0:
        return JoinRefusal.ALL_PROMISED
    new = requests_repo.put(session, game.id, actor, hash_password(password), list(wanted),
                            now=now)
    return JoinedPreferring(tuple(wanted), replaced=not new)
