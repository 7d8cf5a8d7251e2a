"""Seating by preference at START (gm.play.preference_seating) at the play layer, no mail: too
few for the free powers waits, FORCE BEGIN seats those there are, each takes its first free
preference, one left without a power is told (the mail-level tests are
tests/service/test_service_join_prefer.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play.preference_seating import Seat, Seated, TooFew, seat_by_preference
from gm.store import audit
from gm.store import games as games_repo
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import hash_password
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.tick_support import GM

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
POWERS = get_variant("standard").power_names


def _forming(database: Database, free: set[str]) -> int:
    """A forming standard game whose powers but `free` are taken."""
    with database.transaction() as s:
        game = games_repo.create_game(
            s, name="alpha", variant="standard", gm_address=GM,
            gm_password_hash=hash_password("gmpw"), now=T0, status=GameStatus.FORMING)
        for power in POWERS:
            powers_repo.add_power(s, game.id, power, now=T0,
                                  addresses=[] if power in free else [f"{power}@example.org"])
        return game.id


def _seat(database: Database, game_id: int, *, force: bool = False) -> Seated | TooFew | None:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return seat_by_preference(s, game, now=NOW, actor=GM, inbound_id=None, service="Judge",
                                  force=force)


def test_the_players_take_their_first_free_preference(database: Database) -> None:
    game_id = _forming(database, {"France", "Italy"})
    assert _seat(database, game_id) is None  # nobody joined with preferences
    with database.transaction() as s:
        requests_repo.put(s, game_id, "a@example.org", hash_password("pa"), ["France"], now=T0)
    assert _seat(database, game_id) == TooFew(("France", "Italy"), 1)
    with database.transaction() as s:
        requests_repo.put(s, game_id, "b@example.org", hash_password("pb"),
                          ["Germany", "Italy"], now=T0)
    seated = _seat(database, game_id)
    assert isinstance(seated, Seated) and seated.mail == ()
    assert sorted(seated.seats, key=lambda s: s.address) == [
        Seat("a@example.org", "France", 1), Seat("b@example.org", "Italy", 2)]
    assert {s.how for s in seated.seats} == {"1st preference", "2nd preference"}
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.addresses == ("a@example.org",)
        assert requests_repo.requests_for(s, game_id) == []
        (entry,) = audit.audit_log(s, game_id=game_id, action="seat by preference")
        assert len(entry.details["order"]) == 2


def test_one_left_without_a_power_is_told(database: Database) -> None:
    game_id = _forming(database, {"France"})
    with database.transaction() as s:
        for name in ("a", "b"):
            requests_repo.put(s, game_id, f"{name}@example.org", hash_password("p"),
                              ["Italy"], now=T0)
    seated = _seat(database, game_id, force=True)
    assert isinstance(seated, Seated)
    first, second = seated.seats
    assert first.power == "France" and first.preference is None and first.how == "at random"
    assert second == Seat(second.address, None)
    (told,) = seated.mail
    assert told.recipients == (second.address,) and "no power was left" in told.subject
    assert told.body.endswith("-- \nJudge\n")
