"""Failing addresses: marked per game and seat (once), listed while the seat still has the
address, cleared by a delivery; and the tokens of the envelope senders, on SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta

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


def test_a_later_failure_becomes_the_marks_last_message_and_one_mark_clears_alone(
        database: Database) -> None:
    first, second = _game(database, "one"), _game(database, "two")
    later = T0 + timedelta(minutes=5)
    with database.transaction() as s:
        for game in (first, second):
            address_failures.mark(s, Holder(game, "Italy"), ANNA, reason="550 no such user",
                                  subject="[x] start", sent_at=T0, now=T0)
        # a later message bounces too: the mark names it; its first reason and time stay
        assert address_failures.mark(s, Holder(first, "Italy"), ANNA, reason="other",
                                     subject="[one] report", sent_at=later,
                                     now=later) is None
        # an older one's late bounce changes nothing
        address_failures.mark(s, Holder(first, "Italy"), ANNA, reason="other",
                              subject="[one] old", sent_at=T0 - timedelta(hours=1), now=later)
    with database.read() as s:
        marks = address_failures.marks_of(s, ["ANNA@example.org"])
        assert [(m.game_id, m.subject, m.sent_at, m.reason, m.since) for m in marks] == [
            (first, "[one] report", later, "550 no such user", T0),
            (second, "[x] start", T0, "550 no such user", T0)]
    with database.transaction() as s:
        address_failures.clear_mark(s, marks[0])
    with database.read() as s:
        assert [m.game_id for m in address_failures.marks_of(s, [ANNA])] == [second]


def test_mail_accepted_for_an_address_is_found_by_when_it_was_made_and_sent(
        database: Database) -> None:
    with database.transaction() as s:
        queued, _ = outbound_repo.enqueue_outbound(
            s, message_id="<1@example.org>", recipients=["bob@example.org", ANNA],
            headers=[("Subject", "a")], parts=[BodyPart("text/plain", "a")], now=T0)
        outbound_repo.mark_sent(s, queued.id, now=T0 + timedelta(minutes=1))
        outbound_repo.enqueue_outbound(  # queued, never sent: not accepted
            s, message_id="<2@example.org>", recipients=["carla@example.org"],
            headers=[("Subject", "b")], parts=[BodyPart("text/plain", "b")], now=T0)
    with database.read() as s:
        def found(address: str, after: datetime | None, before: datetime) -> bool:
            return outbound_repo.accepted_for(s, address, created_after=after,
                                              sent_before=before)
        end = T0 + timedelta(hours=1)
        assert found("anna@EXAMPLE.org", None, end)
        assert found(ANNA, T0 - timedelta(seconds=1), end)
        assert not found(ANNA, T0, end)  # made no later than the failed one
        assert not found(ANNA, None, T0 + timedelta(minutes=1))  # sent too recently
        assert not found("carla@example.org", None, end)
