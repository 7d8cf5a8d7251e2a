"""Observing a game (gm.play.observing), the use case under OBSERVE and njudge's observer
sign-on, at the play layer: the code kept and confirmed, the list changed, the GM's notice, and
each refusal as a typed outcome (the mail-level tests are in tests/service, e.g.
test_service_commands.py and test_service_hostile.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import observing
from gm.play.observers import observers
from gm.store import audit
from gm.store import games as games_repo
from gm.store.db import Database
from gm.store.settings import OBSERVERS_KEY
from gm.store.statuses import GameStatus
from tests.support.tick_support import GM, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
WATCHER = "watcher@example.org"


def observe(database: Database, game_id: int, code: str | None, *,
            now: datetime = NOW) -> observing.ObserveOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return observing.observe(s, game, code, now=now, actor=WATCHER, service="Judge")


def stop(database: Database, game_id: int) -> observing.ObserveOutcome:
    with database.transaction() as s:
        return observing.stop(s, games_repo.get_game(s, game_id), now=NOW, actor=WATCHER)


def set_extra(database: Database, game_id: int, key: str, value: object) -> None:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        games_repo.set_game_settings(s, game_id, dataclasses.replace(
            game.settings, extra={**game.settings.extra, key: value}), now=T0)


def test_observe_keeps_a_code_and_the_code_signs_the_address_up(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    asked = observe(database, game_id, None)
    assert isinstance(asked, observing.Asked) and len(asked.code) == 10
    assert observe(database, game_id, "wrong") is observing.ObserveRefusal.NO_SUCH_CODE
    done = observe(database, game_id, asked.code)
    assert isinstance(done, observing.Observing) and done.started
    (notice,) = done.mail
    assert notice.recipients == (GM,) and "a new observer" in notice.subject
    assert f"{WATCHER} observes alpha now" in notice.body
    with database.read() as s:
        assert observers(games_repo.get_game(s, game_id)) == [WATCHER]
        (entry,) = audit.audit_log(s, game_id=game_id, action="observe")
        assert entry.details == {"address": WATCHER}
    assert observe(database, game_id, None) is observing.ObserveRefusal.ALREADY
    assert observe(database, game_id, asked.code) is observing.ObserveRefusal.ALREADY


def test_a_code_expires(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    asked = observe(database, game_id, None)
    assert isinstance(asked, observing.Asked)
    late = NOW + timedelta(days=30)
    assert observe(database, game_id, asked.code, now=late) \
        is observing.ObserveRefusal.NO_SUCH_CODE


def test_stop_takes_the_address_off_the_list(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    assert stop(database, game_id) is observing.ObserveRefusal.NOT_OBSERVING
    set_extra(database, game_id, OBSERVERS_KEY, ["other@example.org", WATCHER.upper()])
    assert stop(database, game_id) == observing.Stopped()
    with database.read() as s:
        assert observers(games_repo.get_game(s, game_id)) == ["other@example.org"]
        assert len(audit.audit_log(s, game_id=game_id, action="unobserve")) == 1


def test_observe_refusals(database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=T0 + timedelta(hours=48))
    set_extra(database, game_id, OBSERVERS_KEY,
              [f"o{n}@example.org" for n in range(observing.MAX_OBSERVERS)])
    assert observe(database, game_id, None) is observing.ObserveRefusal.FULL
    set_extra(database, game_id, observing.OPEN_KEY, False)
    assert observe(database, game_id, None) is observing.ObserveRefusal.CLOSED
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=NOW)
    assert observe(database, game_id, None) is observing.ObserveRefusal.FINISHED
