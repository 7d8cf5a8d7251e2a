"""A power's vote: SET DRAW [<powers>] / SET NO DRAW and SET CONCEDE <power> / SET NO CONCEDE
(njudge `data/draws`; the rules are gm.play.votes, the ending of the game gm.play.draws).

Votes are cast in a game under way, for its current phase only. `vote_draw` and `concede`
keep the vote and settle the game if the votes of the phase end it; they give `Voted` (with
the `GameEnded`, if it ended) or why the vote was refused: `NotUnderWay` (the game's status),
`NotSurvivor` (a power named is out of the game or no power of it), `VoteRefusal.DIAS_ALL`
(a DIAS game's draw includes every survivor), `VoteRefusal.NODIAS` (a NoDIAS game concedes by
a draw of one power) or `VoteRefusal.SELF` (a power cannot concede to itself). The words of
the reply are the caller's (gm.commands.catalog.set_draw, set_concede).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.engine.variant import Variant
from gm.play import draws
from gm.play import votes as votes_of
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord
from gm.store.settings import CONCESSIONS_KEY, DRAW_VOTES_KEY
from gm.store.statuses import GameStatus
from gm.variants import get_variant


def named_powers(variant: Variant, names: Sequence[str]) -> list[str] | str:
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


@dataclass(frozen=True)
class NotUnderWay:
    """The game is `status`: votes are cast in a game under way."""

    status: GameStatus


@dataclass(frozen=True)
class NotSurvivor:
    """`written`, a power named, is out of the game (`out`) or no power of it; `names`, the
    game's powers; `alive`, the surviving ones."""

    written: str
    out: bool
    names: tuple[str, ...]
    alive: tuple[str, ...]


class VoteRefusal(StrEnum):
    """Why the vote was refused, when nothing more need be said."""

    DIAS_ALL = "dias all"  # a DIAS game's draw includes every survivor (SET NODIAS allows less)
    NODIAS = "nodias"  # a NoDIAS game concedes by a draw of that power alone
    SELF = "self"  # a power cannot concede to itself


@dataclass(frozen=True)
class Voted:
    """The vote is kept: for a draw (`draw`; among `among`, in a NoDIAS game), or a
    concession to `to`, or its withdrawal (`to` None, `draw` False); `phase`, the phase it
    holds for (None: a withdrawn concession); `nodias`, the game is NoDIAS; `ended`, the game
    the votes of the phase ended."""

    draw: bool
    among: tuple[str, ...] | None
    to: str | None
    phase: str | None
    nodias: bool
    ended: draws.GameEnded | None


VoteOutcome = Voted | NotUnderWay | NotSurvivor | VoteRefusal


def _not_survivor(session: Session, game: GameRecord, written: str,
                  alive: list[str]) -> NotSurvivor:
    names = tuple(p.name for p in powers_repo.list_powers(session, game.id))
    out = written.casefold() in map(str.casefold, names)
    return NotSurvivor(written, out, names, tuple(alive))


def vote_draw(session: Session, game: GameRecord, power: str, draw: bool,
              among: Sequence[str] = (), *, now: datetime, actor: str, service: str,
              inbound_id: int | None = None) -> VoteOutcome:
    """SET DRAW (`draw`, among the powers written in `among`, or every survivor) or SET NO
    DRAW, for `power` of `game` (as it is now)."""
    phase, alive = draws.survivors(session, game)
    if phase is None or game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return NotUnderWay(game.status)
    variant = get_variant(game.variant)
    nodias = votes_of.nodias(game.settings)
    named: list[str] | None = None
    if among:
        found = named_powers(variant, among)
        gone = [] if isinstance(found, str) else [p for p in found if p not in alive]
        if isinstance(found, str) or gone:
            return _not_survivor(session, game, found if isinstance(found, str) else gone[0],
                                 alive)
        named = [p for p in alive if p in found]
        if not nodias and set(named) != set(alive):
            return VoteRefusal.DIAS_ALL
        if not nodias:
            named = None
    vote = (None if not draw and not nodias else votes_of.Vote(
        power, phase.id, now, None if named is None else tuple(named), no=not draw))
    powers_repo.set_power_flags(session, game.id, power, now=now, draw_vote=draw)
    draws.keep_vote(session, game.id, DRAW_VOTES_KEY, power, vote, now=now)
    ended = None
    if draw or nodias:
        ended = draws.settle_draw(session, game.id, now=now, actor=actor, service=service,
                                  inbound_id=inbound_id)
    return Voted(draw, None if named is None else tuple(named), None,
                 variant.format_phase(phase.phase), nodias, ended)


def concede(session: Session, game: GameRecord, power: str, to: str | None, *,
            now: datetime, actor: str, service: str, inbound_id: int | None = None
            ) -> VoteOutcome:
    """SET CONCEDE `to` (a power as written) or SET NO CONCEDE (None), for `power` of `game`
    (as it is now)."""
    if to is None:
        draws.keep_vote(session, game.id, CONCESSIONS_KEY, power, None, now=now)
        return Voted(False, None, None, None, votes_of.nodias(game.settings), None)
    phase, alive = draws.survivors(session, game)
    if phase is None or game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return NotUnderWay(game.status)
    if votes_of.nodias(game.settings):
        return VoteRefusal.NODIAS
    winner = next((p for p in alive if p.casefold() == to.casefold()), None)
    if winner is None:
        return _not_survivor(session, game, to, alive)
    if winner == power:
        return VoteRefusal.SELF
    draws.keep_vote(session, game.id, CONCESSIONS_KEY, power,
                    votes_of.Vote(power, phase.id, now, to=winner), now=now)
    ended = draws.settle_concession(session, game.id, now=now, actor=actor, service=service,
                                    inbound_id=inbound_id)
    return Voted(False, None, winner, get_variant(game.variant).format_phase(phase.phase),
                 False, ended)


