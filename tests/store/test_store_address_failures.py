"""Failing addresses: marked per game and seat (once), listed while the seat still has the
address, cleared by a delivery; and the tokens of the envelope senders, on SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from gm.store import address_failures, games, powers
from gm.store import outbound as outbound_repo
from gm.store.address_failures import Holder
from gm.store.db import Database
from gm.store.passwords import hash_password
from gm.store.rows import BodyPart
from gm.store.statuses import GameStatus
from tests.support.store_samples import T0

ANNA = "Anna@example.org"


def _game(db: Database, name: str, *, gm: str = "gm@example.org") -> int:
    with db.transaction() as s:
        game = games.create_game(s, name=name, variant="standard", gm_address=gm,
                                 gm_password_hash=hash_password("gmpw"), now=T0)
        powers.add_power(s, game.id, "Italy", now=T0, addresses=[ANNA])
        powers.add_power(s, game.id, "France", now=T0, addresses=["bob@example.org"])
        return game.id


def test_an_address_is_marked_in_each_game_it_plays_once(database: Database) -> None:
    first, second = _game(database, "one"), _game(database, "two", gm="anna@EXAMPLE.org")
    with database.transaction() as s:
        held = address_failures.holders(s, "anna@example.org")
        assert held == [Holder(first, "Italy"), Holder(second, "Italy"), Holder(second, None)]
        for holder in held[:2]:
            assert address_failures.mark(s, holder, ANNA, reason="550 no such user",
                                         subject="[one] report", sent_at=T0, now=T0)
        # the GM of "two" plays Italy there with the same address: one mark per game
        assert address_failures.mark(s, held[2], ANNA, reason="550 no such user",
                                     subject="[two] report", sent_at=T0, now=T0) is None
        # again: kept as it was (the first failure's time and reason)
        assert address_failures.mark(s, held[0], ANNA, reason="later", subject="x",
                                     sent_at=None, now=T0 + timedelta(hours=1)) is None
    with database.read() as s:
        (failure,) = address_failures.failing_in_game(s, first)
        assert (failure.power, failure.address, failure.reason, failure.since) == (
            "Italy", ANNA, "550 no such user", T0)
        assert [f.power for f in address_failures.failing_in_game(s, second)] == ["Italy"]
        assert [(name, f.address) for name, f in address_failures.failing_masters(s)] == [
            ("two", ANNA)]
        assert address_failures.any_failing(s, ["ANNA@example.org"])
        assert not address_failures.any_failing(s, ["bob@example.org"])
    with database.transaction() as s:
        cleared = address_failures.clear(s, ["anna@example.org"])
        assert sorted((f.game_id, f.power) for f in cleared) == [
            (first, "Italy"), (second, "Italy")]
    with database.read() as s:
        assert address_failures.failing_in_game(s, first) == []
        assert address_failures.failing_masters(s) == []


def test_a_seat_that_changed_its_address_no_longer_shows_the_old_mark(
        database: Database) -> None:
    game = _game(database, "one")
    with database.transaction() as s:
        address_failures.mark(s, Holder(game, "Italy"), ANNA, reason="550", subject="s",
                              sent_at=T0, now=T0)
        powers.set_players(s, game, "Italy", ["carla@example.org"], now=T0)
    with database.read() as s:
        assert address_failures.failing_in_game(s, game) == []


def test_a_finished_game_marks_nothing(database: Database) -> None:
    game = _game(database, "one")
    with database.transaction() as s:
        games.set_game_status(s, game, GameStatus.FINISHED, now=T0)
        assert address_failures.holders(s, ANNA) == []


def test_each_queued_message_gets_its_own_token(database: Database) -> None:
    with database.transaction() as s:
        one, _ = outbound_repo.enqueue_outbound(
            s, message_id="<1@example.org>", recipients=[ANNA], headers=[("Subject", "a")],
            parts=[BodyPart("text/plain", "a")], now=T0)
        outbound_repo.enqueue_many(s, [outbound_repo.NewMessage(
            f"<{n}@example.org>", [ANNA], [("Subject", "b")], [BodyPart("text/plain", "b")])
            for n in (2, 3)], now=T0)
    with database.read() as s:
        tokens = [o.bounce_token for o in outbound_repo.list_outbound(s)]
        assert len(set(tokens)) == 3 and all(t and len(t) == 20 for t in tokens)
        assert one.bounce_token is not None
        found = outbound_repo.find_by_bounce_token(s, one.bounce_token)
        assert found is not None and found.message_id == "<1@example.org>"
        assert outbound_repo.find_by_bounce_token(s, "0" * 20) is None
