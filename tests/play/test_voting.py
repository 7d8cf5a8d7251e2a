"""A power's vote (gm.play.voting), the use cases under SET DRAW and SET CONCEDE, at the play
layer: the vote kept, the game ended when the votes of the phase pass, and each refusal as a
typed outcome (the mail-level tests are in tests/service/test_service_draws.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import draws, voting
from gm.play import votes as votes_of
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.settings import NODIAS_KEY
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, SETTINGS, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
POWERS = get_variant("standard").power_names


def draw(database: Database, game_id: int, power: str, yes: bool = True,
         among: tuple[str, ...] = ()) -> voting.VoteOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return voting.vote_draw(s, game, power, yes, among, now=NOW, actor=GM,
                                service="Judge")


def concede(database: Database, game_id: int, power: str,
            to: str | None) -> voting.VoteOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return voting.concede(s, game, power, to, now=NOW, actor=GM, service="Judge")


def test_named_powers_reads_names_and_runs_of_codes() -> None:
    variant = get_variant("standard")
    assert voting.named_powers(variant, ("AEG", "france")) == [
        "Austria", "England", "Germany", "France"]
    assert voting.named_powers(variant, ("Atlantis",)) == "Atlantis"


def test_every_survivor_voting_a_draw_ends_the_game(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=None)
    for power in POWERS[:-1]:
        done = draw(database, game_id, power)
        assert isinstance(done, voting.Voted) and done.ended is None
        assert (done.draw, done.among, done.phase) == (True, None, "Spring 1901, Movement")
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.draw_vote
    last = draw(database, game_id, POWERS[-1])
    assert isinstance(last, voting.Voted) and last.ended is not None
    assert last.ended.ending is draws.Ending.DRAW and last.ended.powers == POWERS
    assert draw(database, game_id, "France") == voting.NotUnderWay(GameStatus.FINISHED)


def test_a_dias_draw_names_every_survivor_and_a_name_amiss_is_refused(
        database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=None)
    assert draw(database, game_id, "France", among=("FI",)) is voting.VoteRefusal.DIAS_ALL
    refused = draw(database, game_id, "France", among=("Atlantis",))
    assert isinstance(refused, voting.NotSurvivor)
    assert (refused.written, refused.out, refused.alive) == ("Atlantis", False, POWERS)
    done = draw(database, game_id, "France", among=("AEFGIRT",))
    assert isinstance(done, voting.Voted) and done.among is None  # DIAS: every survivor
    withdrawn = draw(database, game_id, "France", yes=False)
    assert isinstance(withdrawn, voting.Voted) and not withdrawn.draw and not withdrawn.nodias


def test_a_nodias_draw_keeps_the_powers_named(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=None,
                       settings=dataclasses.replace(SETTINGS, extra={NODIAS_KEY: True}))
    done = draw(database, game_id, "France", among=("France", "Italy"))
    assert isinstance(done, voting.Voted) and done.nodias
    assert done.among == ("France", "Italy")
    with database.read() as s:
        game = games_repo.get_game(s, game_id)
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        assert votes_of.draw_votes(game.settings, phase)["France"].among == ("France", "Italy")
    assert concede(database, game_id, "Italy", "France") is voting.VoteRefusal.NODIAS


def test_concessions_to_one_power_end_the_game(database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=None)
    assert concede(database, game_id, "France", "France") is voting.VoteRefusal.SELF
    refused = concede(database, game_id, "France", "Atlantis")
    assert isinstance(refused, voting.NotSurvivor) and not refused.out
    others = [p for p in POWERS if p != "France"]
    for power in others[:-1]:
        done = concede(database, game_id, power, "france")
        assert isinstance(done, voting.Voted) and done.to == "France" and done.ended is None
    withdrawn = concede(database, game_id, others[-1], None)
    assert isinstance(withdrawn, voting.Voted) and withdrawn.to is None
    last = concede(database, game_id, others[-1], "France")
    assert isinstance(last, voting.Voted) and last.ended is not None
    assert last.ended.winner == "France"
