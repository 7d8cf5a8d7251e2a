"""The GM's change of a game's settings (gm.play.game_settings), under every SET of a game
setting, at the play layer: the settings stored, the audit entry, a finished game refused (the
mail-level tests are in tests/service, e.g. test_service_gm_control.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play.game_settings import SettingsRefusal, change_settings
from gm.store import audit
from gm.store import games as games_repo
from gm.store.db import Database
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from tests.support.tick_support import GM, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)


def test_a_setting_is_stored_and_logged(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=None)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        done = change_settings(s, game, "SET TIMEZONE", {"timezone": "Europe/Paris"}, now=NOW,
                               actor=GM, timezone="Europe/Paris")
    assert isinstance(done, GameRecord) and done.settings.timezone == "Europe/Paris"
    with database.read() as s:
        assert games_repo.get_game(s, game_id).settings.timezone == "Europe/Paris"
        (entry,) = audit.audit_log(s, game_id=game_id, action="set")
        assert (entry.actor, entry.details) == (
            GM, {"setting": "SET TIMEZONE", "timezone": "Europe/Paris"})


def test_a_finished_game_keeps_its_settings(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=None)
    with database.transaction() as s:
        game = games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=T0)
        assert change_settings(s, game, "SET TIMEZONE", {}, now=NOW, actor=GM,
                               timezone="Europe/Paris") is SettingsRefusal.FINISHED
    with database.read() as s:
        assert games_repo.get_game(s, game_id).settings.timezone == "UTC"
        assert not audit.audit_log(s, game_id=game_id, action="set")
