"""REPROCESS at the play layer (gm.play.reprocessing): the adjudicated phase with orders read
late is found, and once the game is rolled back to it its late orders stand (the mail-level
test is in tests/service/test_service_arrival.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import reprocessing
from gm.play.adjudicate import adjudicate_phase, record_adjudication, submissions
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.rows import OrderLine
from gm.variants import get_variant
from tests.support.tick_support import GM, new_game, spring_orders, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=2)


def test_late_orders_are_found_and_stand_once_rolled_back(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, game_id, spring_orders(without=["Italy"]), T0)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        first = phases_repo.current_phase(s, game_id)
        assert first is not None
        record_adjudication(s, adjudicate_phase(
            game, first, powers_repo.list_powers(s, game_id),
            submissions(s, get_variant(game.variant), first), now=T0 + timedelta(hours=1)))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        assert reprocessing.late_orders(s, game, lambda r: r.index == first.index) is None
        orders_repo.submit_orders(s, first.id, "Italy", [OrderLine(text="A Ven H",
                                                                   canonical="A Ven H")],
                                  now=NOW, late=True)
        found = reprocessing.late_orders(s, game, lambda r: r.index == first.index)
        assert found is not None and found.powers == ("Italy",)
        assert found.phase.index == first.index and found.phase.adjudicated
        assert reprocessing.late_orders(s, game, lambda r: not r.adjudicated) is None
        assert not reprocessing.take_late(s, game, found)  # not rolled back: nothing changes
        assert [o.power for o in orders_repo.late_sets(s, first.id)] == ["Italy"]
        phases_repo.rollback_to(s, game_id, first.index, actor=GM, now=NOW)
        assert reprocessing.take_late(s, game, found)
        assert orders_repo.late_sets(s, first.id) == []
