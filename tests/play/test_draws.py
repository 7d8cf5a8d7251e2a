"""Draws and concessions by vote (gm.play.draws), the use case under SET DRAW and SET CONCEDE,
at the play layer: a game goes on until the votes of the phase pass, then ends with the audit
entry and everyone's notice (the mail-level tests are in tests/service/test_service_draws.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import draws
from gm.play import votes as votes_of
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.settings import CONCESSIONS_KEY, DRAW_VOTES_KEY
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
POWERS = get_variant("standard").power_names


def _vote(db: Database, game_id: int, key: str, powers: list[str],
          **how: object) -> None:
    with db.transaction() as s:
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None
        for power in powers:
            draws.keep_vote(s, game_id, key, power,
                            votes_of.Vote(power, phase.id, NOW, **how),  # type: ignore[arg-type]
                            now=NOW)


def test_a_draw_passes_when_every_survivor_has_voted(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    _vote(database, game_id, DRAW_VOTES_KEY, list(POWERS[:-1]))
    with database.transaction() as s:  # one survivor has not voted: the game goes on
        assert draws.settle_draw(s, game_id, now=NOW, actor=GM, service="Judge") is None
    _vote(database, game_id, DRAW_VOTES_KEY, [POWERS[-1]])
    with database.transaction() as s:
        ended = draws.settle_draw(s, game_id, now=NOW, actor=GM, service="Judge")
    assert ended is not None and ended.ending is draws.Ending.DRAW
    assert ended.powers == POWERS and ended.winner is None
    assert ended.game.status is GameStatus.FINISHED
    assert [m.recipients for m in ended.mail] == [*((address("alpha", p),) for p in POWERS),
                                                   (GM,)]
    assert all("the game ends in a draw" in m.subject for m in ended.mail)
    with database.read() as s:
        assert games_repo.get_game(s, game_id).status is GameStatus.FINISHED
        (entry,) = audit.audit_log(s, game_id=game_id, action="draw")
        assert entry.details == {"powers": list(POWERS)}


def test_a_concession_of_every_other_survivor_names_the_winner(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    others = [p for p in POWERS if p != "France"]
    _vote(database, game_id, CONCESSIONS_KEY, others, to="France")
    with database.transaction() as s:
        assert draws.settle_draw(s, game_id, now=NOW, actor=GM, service="Judge") is None
        ended = draws.settle_concession(s, game_id, now=NOW, actor=GM, service="Judge")
    assert ended is not None and ended.ending is draws.Ending.CONCESSION
    assert ended.winner == "France" and ended.powers == tuple(others)
    assert all("France wins by concession" in m.subject for m in ended.mail)
    with database.transaction() as s:  # a finished game is settled once
        assert draws.settle_concession(s, game_id, now=NOW, actor=GM, service="Judge") is None
