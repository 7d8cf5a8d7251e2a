"""Draws and concessions by vote (njudge's rules: gm.play.votes).

A draw passes when every surviving power still in play has voted (SET DRAW) and the votes
agree as gm.play.votes.passing_draw says: in a DIAS game (the default) a draw of every
survivor; in a NoDIAS game (SET NODIAS) the largest draw every voter approves, a draw of one
power being a concession to it. A concession (SET CONCEDE <power>, DIAS games): when every
surviving power in play but one has conceded to that one, the game ends with it the winner.
Powers in civil disorder or resigned have no vote and are not waited for. Votes count in the
phase they were cast in only. The game is finished at once and every player, the GM and the
observers are told: `settle_draw` and `settle_concession` give a `GameEnded` with that mail
(the words of the reply are the caller's, gm.commands.handlers.draws).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from gm.play import votes as votes_of
from gm.play.everyone import notices_to_game
from gm.play.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import get_variant


class Ending(StrEnum):
    """How the votes ended a game (the audit entry's action)."""

    DRAW = "draw"
    CONCESSION = "concede"


@dataclass(frozen=True)
class GameEnded:
    """The votes of the phase ended the game: in a draw shared by `powers`, or with `winner`
    the winner, `powers` having conceded to it; `game` as stored now (finished); `mail`:
    everyone's notice."""

    ending: Ending
    powers: tuple[str, ...]
    winner: str | None
    game: GameRecord
    mail: tuple[Outgoing, ...]


def survivors(session: Session, game: GameRecord) -> tuple[PhaseRecord | None, list[str]]:
    """The game's current phase and its surviving powers (a unit or a supply centre)."""
    phase = phases_repo.current_phase(session, game.id)
    if phase is None:
        return None, []
    state = phase.state
    return phase, [p for p in get_variant(game.variant).power_names
                   if state.centres_of(p) or state.units_of(p)]


def keep_vote(session: Session, game_id: int, key: str, power: str,
              vote: votes_of.Vote | None, *, now: datetime) -> GameRecord:
    """Store `power`'s vote under `key` of the game's votes (None removes it), under the game
    lock; the game as stored."""
    games_repo.lock_game(session, game_id)
    game = games_repo.get_game(session, game_id)
    extra = votes_of.with_vote(game.settings, key, power, vote)
    return games_repo.set_game_settings(session, game_id,
                                        dataclasses.replace(game.settings, extra=extra),
                                        now=now)


def _voters(session: Session, game: GameRecord, alive: list[str]) -> list[str]:
    powers = {p.name: p for p in powers_repo.list_powers(session, game.id)}
    return [name for name in alive
            if name in powers and powers[name].status is PowerStatus.PLAYING]


def settle_draw(session: Session, game_id: int, *, now: datetime, actor: str, service: str,
                inbound_id: int | None = None) -> GameEnded | None:
    """End the game in the draw the votes of this phase pass (gm.play.votes.passing_draw), or
    with a winner if that draw is of one power (NoDIAS); None if it goes on."""
    game = games_repo.get_game(session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return None
    phase, alive = survivors(session, game)
    if phase is None:
        return None
    voters = _voters(session, game, alive)
    among = votes_of.passing_draw(alive, voters, votes_of.draw_votes(game.settings, phase),
                                  dias=not votes_of.nodias(game.settings))
    if not among:
        return None
    if len(among) == 1:
        return _conceded(session, game, phase, among[0], [p for p in voters if p != among[0]],
                         now=now, actor=actor, service=service, inbound_id=inbound_id)
    name = get_variant(game.variant).format_phase(phase.phase)
    ended, mail = _finish(session, game, name, Ending.DRAW, {"powers": among},
                          "the game ends in a draw", render(
                              "reply/draw.txt.j2", game=game.name, powers=among, phase=name,
                              service=service), now=now, actor=actor, inbound_id=inbound_id)
    return GameEnded(Ending.DRAW, tuple(among), None, ended, mail)


def settle_concession(session: Session, game_id: int, *, now: datetime, actor: str,
                      service: str, inbound_id: int | None = None) -> GameEnded | None:
    """End the game with a winner if every voting survivor but one has conceded to it in this
    phase; None if it goes on."""
    game = games_repo.get_game(session, game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return None
    phase, alive = survivors(session, game)
    if phase is None:
        return None
    conceded = {p: v.to for p, v in votes_of.concessions(game.settings, phase).items()}
    voters = _voters(session, game, alive)
    for winner in [w for w in {conceded.get(name) for name in voters} if w in alive]:
        others = [n for n in voters if n != winner]
        if others and all(conceded.get(n) == winner for n in others):
            return _conceded(session, game, phase, winner, others, now=now, actor=actor,
                             service=service, inbound_id=inbound_id)
    return None


def _conceded(session: Session, game: GameRecord, phase: PhaseRecord, winner: str,
              others: list[str], *, now: datetime, actor: str, service: str,
              inbound_id: int | None) -> GameEnded:
    name = get_variant(game.variant).format_phase(phase.phase)
    ended, mail = _finish(session, game, name, Ending.CONCESSION,
                          {"winner": winner, "conceded": others}, f"{winner} wins by concession",
                          render("reply/conceded.txt.j2", game=game.name, winner=winner,
                                 powers=others, phase=name, service=service),
                          now=now, actor=actor, inbound_id=inbound_id)
    return GameEnded(Ending.CONCESSION, tuple(others), winner, ended, mail)


def _finish(session: Session, game: GameRecord, phase: str, ending: Ending,
            details: dict[str, Any], what: str, body: str, *, now: datetime, actor: str,
            inbound_id: int | None) -> tuple[GameRecord, tuple[Outgoing, ...]]:
    game = games_repo.set_game_status(session, game.id, GameStatus.FINISHED, now=now)
    audit.record_action(session, actor=actor, action=ending.value, now=now, game_id=game.id,
                        details=details, inbound_id=inbound_id)
    return game, tuple(notices_to_game(session, game, what, body, phase=phase))
