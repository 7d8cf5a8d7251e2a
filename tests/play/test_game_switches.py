"""The GM's switches of a game (gm.play.game_switches), the use cases under SET MULTIPLE and SET
OBSERVE, at the play layer: the setting kept, the audit entry, a finished game refused (the
mail-level tests are in tests/service, e.g. test_service_observe_map.py and
test_service_njudge_forms.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gm.play import game_switches
from gm.play.game_settings import SettingsRefusal
from gm.play.joining import multiple_allowed
from gm.play.observing import OPEN_KEY
from gm.store import audit
from gm.store import games as games_repo
from gm.store.db import Database
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from tests.support.tick_support import GM, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)


def switch(database: Database, game_id: int, which: game_switches.Switch, on: bool
           ) -> object:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return game_switches.set_switch(s, game, which, on, now=NOW, actor=GM)


@pytest.mark.parametrize("which", list(game_switches.Switch))
def test_a_switch_is_kept_and_logged(database: Database, which: game_switches.Switch) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    on = switch(database, game_id, which, True)
    assert isinstance(on, GameRecord) and on.settings.extra[which.value] is True
    off = switch(database, game_id, which, False)
    assert isinstance(off, GameRecord) and off.settings.extra[which.value] is False
    with database.read() as s:
        assert [e.details for e in audit.audit_log(s, game_id=game_id, action="set")] == [
            {"setting": which.command, "allowed": True},
            {"setting": which.command, "allowed": False}]


def test_the_switches_are_the_keys_the_game_reads(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    game = switch(database, game_id, game_switches.Switch.MULTIPLE, True)
    assert isinstance(game, GameRecord) and multiple_allowed(game)
    assert game_switches.Switch.OBSERVE.value == OPEN_KEY
    assert game_switches.Switch.OBSERVE.command == "SET OBSERVE"


def test_a_finished_game_keeps_its_settings(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=T0)
    assert switch(database, game_id, game_switches.Switch.OBSERVE, True) is \
        SettingsRefusal.FINISHED
    with database.read() as s:
        assert OPEN_KEY not in games_repo.get_game(s, game_id).settings.extra
