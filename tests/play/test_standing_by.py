"""Standing by (gm.play.standing_by), the use case under STANDBY, at the play layer: an offer
for a game or for any game, the GM told with the player's record, offers refused and
withdrawn, and who stands by for a game (the mail-level tests are in
tests/service/test_service_standby.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import standing_by
from gm.store import games as games_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
KEEN = "keen@example.org"


def test_an_offer_for_a_game_tells_its_gm_and_puts_the_player_on_its_list(
        database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        done = standing_by.stand_by(s, game, KEEN, now=NOW, service="Judge")
        assert isinstance(done, standing_by.Offered) and done.game == game
        (told,) = done.mail
        assert told.recipients == (GM,) and "a player stands by" in told.subject
        assert f"{KEEN} stands by for alpha" in told.body and "Record: " in told.body
        assert standing_by.standing_by(s, game_id) == [KEEN]
        again = standing_by.stand_by(s, game, KEEN, now=NOW, service="Judge")
        assert again == standing_by.NotOffered(standing_by.OfferRefusal.ALREADY)
        assert standing_by.withdraw(s, game, KEEN) == 1
        assert standing_by.standing_by(s, game_id) == []
        assert standing_by.withdraw(s, game, KEEN) == 0


def test_a_player_of_the_game_or_a_finished_game_takes_no_offer(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        plays = standing_by.stand_by(s, game, address("beta", "Italy"), now=NOW,
                                     service="Judge")
        assert plays == standing_by.NotOffered(standing_by.OfferRefusal.PLAYS, "Italy")
        over = games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=NOW)
        assert standing_by.stand_by(s, over, KEEN, now=NOW, service="Judge") \
            == standing_by.NotOffered(standing_by.OfferRefusal.FINISHED)
        assert standing_by.standing_by(s, game_id) == []


def test_an_offer_for_any_game_stands_for_every_game_and_is_withdrawn_whole(
        database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        assert standing_by.stand_by(s, None, KEEN, now=NOW, service="Judge") \
            == standing_by.Offered(None)
        assert standing_by.standing_by(s, game_id) == [KEEN]
        assert standing_by.withdraw(s, None, KEEN) == 1
        assert standing_by.standing_by(s, game_id) == []


def test_one_who_took_a_power_from_the_list_is_off_it_and_logged(database: Database) -> None:
    from gm.store import audit
    from gm.store import powers as powers_repo

    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        standing_by.stand_by(s, game, KEEN, now=NOW, service="Judge")
        standing_by.stand_by(s, None, KEEN, now=NOW, service="Judge")
        # not yet seated (REPLACE refused): nothing withdrawn, nothing logged
        assert standing_by.took_over_from_standby(s, game, KEEN, now=NOW, actor=GM) is None
        assert standing_by.standing_by(s, game_id) == [KEEN]
        powers_repo.set_players(s, game_id, "Italy", [KEEN], now=NOW)
        assert standing_by.took_over_from_standby(s, game, KEEN, now=NOW, actor=GM) == "Italy"
        assert standing_by.standing_by(s, game_id) == []
        assert standing_by.withdraw(s, None, KEEN) == 0  # the offer for any game is gone too
        (entry,) = audit.audit_log(s, game_id=game_id, action="replace from standby")
        assert entry.details == {"power": "Italy", "address": KEEN}
