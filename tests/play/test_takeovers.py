"""Taking over a vacant power (gm.play.takeovers), the use case under TAKEOVER, at the play
layer: the seat taken, the calendar event and the GM's notice, and each refusal as a typed
outcome (the mail-level tests are in tests/service/test_service_gm_classic.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import signon_guard, takeovers
from gm.play.game_settings import SettingsRefusal
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import hash_password, verify_password
from gm.store.rows import GameRecord
from gm.store.settings import TAKEOVER_KEY
from gm.store.statuses import GameStatus, PowerStatus
from tests.support.tick_support import GM, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
TAKER = "taker@example.org"


def open_to_takeovers(database: Database, name: str) -> int:
    """A game under way, Turkey in civil disorder, takeovers allowed with `opensesame`."""
    game_id = new_game(database, name, opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        extra = {**game.settings.extra, TAKEOVER_KEY: hash_password("opensesame")}
        games_repo.set_game_settings(s, game_id, dataclasses.replace(game.settings, extra=extra),
                                     now=T0)
        powers_repo.set_power_status(s, game_id, "Turkey", PowerStatus.CIVIL_DISORDER, now=T0)
    return game_id


def take(database: Database, game_id: int, power: str, key: str = "opensesame",
         at: datetime = NOW) -> takeovers.TakeoverOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return takeovers.take_over(s, game, power, key, "mine", now=at, actor=TAKER,
                                   service="Judge")


def test_a_vacant_power_is_taken_with_the_takeover_password(database: Database) -> None:
    game_id = open_to_takeovers(database, "alpha")
    done = take(database, game_id, "turkey")
    assert isinstance(done, takeovers.TookOver) and done.power == "Turkey"
    (event,) = done.attachments  # the open phase's deadline, for the new player's calendar
    assert event.filename.endswith(".ics")
    (notice,) = done.mail
    assert notice.recipients == (GM,) and "Turkey was taken over" in notice.subject
    assert f"{TAKER} took over Turkey in alpha" in notice.body
    with database.read() as s:
        turkey = powers_repo.get_power(s, game_id, "Turkey")
        assert turkey is not None and turkey.addresses == (TAKER,)
        assert turkey.status is PowerStatus.PLAYING
        assert verify_password("mine", turkey.password_hash)
    assert take(database, game_id, "Turkey") == takeovers.NotVacant("Turkey", ())


def test_takeovers_closed_a_wrong_password_and_a_power_with_a_player(
        database: Database) -> None:
    closed = new_game(database, "beta", opened=T0, deadline=None)
    assert take(database, closed, "Turkey") == takeovers.Closed(False, GameStatus.ACTIVE)
    game_id = open_to_takeovers(database, "gamma")
    assert take(database, game_id, "France") == takeovers.NotVacant("France", ("Turkey",))
    assert take(database, game_id, "Atlantis") == takeovers.NotVacant(None, ("Turkey",))
    wrong = take(database, game_id, "Turkey", key="guess")
    assert isinstance(wrong, takeovers.WrongPassword)
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=NOW)
    assert take(database, game_id, "Turkey") == takeovers.Closed(True, GameStatus.FINISHED)


def test_wrong_takeover_passwords_are_throttled(database: Database) -> None:
    game_id = open_to_takeovers(database, "delta")
    at = NOW
    for _ in range(20):
        done = take(database, game_id, "Turkey", key="guess", at=at)
        if isinstance(done, takeovers.Throttled):
            break
        assert isinstance(done, takeovers.WrongPassword)
        at += timedelta(seconds=1)
    assert isinstance(done, takeovers.Throttled)
    assert isinstance(done.why, signon_guard.AddressThrottled | signon_guard.PowerSlowed)


def test_the_gm_allows_takeovers_with_a_hashed_password_and_stops_them(
        database: Database) -> None:
    game_id = new_game(database, "epsilon", opened=T0, deadline=None)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        on = takeovers.allow_takeovers(s, game, "opensesame", now=NOW, actor=GM)
        assert isinstance(on, GameRecord)
        stored = on.settings.extra[TAKEOVER_KEY]
        assert stored != "opensesame" and verify_password("opensesame", str(stored))
        off = takeovers.allow_takeovers(s, on, None, now=NOW, actor=GM)
        assert isinstance(off, GameRecord) and TAKEOVER_KEY not in off.settings.extra
        assert [e.details for e in audit.audit_log(s, game_id=game_id, action="set")] == [
            {"setting": "SET TAKEOVER", "takeover": True},
            {"setting": "SET NO TAKEOVER", "takeover": False}]
        finished = games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=NOW)
        assert takeovers.allow_takeovers(s, finished, "x", now=NOW, actor=GM) \
            is SettingsRefusal.FINISHED
