"""Sending an order ahead (gm.play.sending_ahead), the use case under AHEAD, at the play layer:
the order kept for the next phase of its kind, and each refusal as a typed outcome (the
mail-level tests are in tests/service/test_service_ahead.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.engine.phase import PhaseType
from gm.play import sending_ahead
from gm.store import games as games_repo
from gm.store import orders_ahead as ahead_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus
from tests.support.tick_support import new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)


def ahead(database: Database, game_id: int, text: str,
          kind: PhaseType = PhaseType.RETREAT) -> sending_ahead.AheadOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return sending_ahead.send_ahead(s, game, "France", kind, text, now=NOW)


def kept(database: Database, game_id: int) -> list[str]:
    with database.read() as s:
        return [o.text for o in ahead_repo.of_power(s, game_id, "France")]


def test_an_order_is_kept_for_the_next_phase_of_its_kind(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=None)
    done = ahead(database, game_id, "A Par - Bur")
    assert isinstance(done, sending_ahead.KeptAhead) and done.phase.index == 0
    assert isinstance(ahead(database, game_id, "Build A Par", PhaseType.ADJUSTMENT),
                      sending_ahead.KeptAhead)
    assert kept(database, game_id) == ["A Par - Bur", "Build A Par"]


def test_no_order_a_closed_game_and_too_many_are_refused(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=None)
    unreadable = ahead(database, game_id, "hello there")
    assert isinstance(unreadable, sending_ahead.Unreadable) and unreadable.error.message
    for _ in range(sending_ahead.MAX_AHEAD):
        assert isinstance(ahead(database, game_id, "A Par - Bur"), sending_ahead.KeptAhead)
    assert ahead(database, game_id, "A Par - Bur") is sending_ahead.AheadRefusal.TOO_MANY
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.PAUSED, now=NOW)
    assert ahead(database, game_id, "A Par - Bur") is sending_ahead.AheadRefusal.CLOSED
    assert len(kept(database, game_id)) == sending_ahead.MAX_AHEAD
