"""A player changing their power's password (gm.play.passwords), the use case under SET
PASSWORD, at the play layer: the new password stored and the wrong ones counted so far lifted
(the mail-level tests are in tests/service, e.g. test_service_commands.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import passwords
from gm.play.signon_locks import UNLOCKED
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import verify_password
from tests.support.tick_support import address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)


def test_set_password_stores_the_new_one_and_lifts_the_counted_guesses(
        database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    player = address("alpha", "France")
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        done = passwords.set_password(s, game, "France", "n3w-secret", now=NOW, actor=player)
    assert done == passwords.PasswordChanged("alpha", "France")
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and verify_password("n3w-secret", france.password_hash)
        (lifted,) = audit.audit_log(s, game_id=game_id, action=UNLOCKED)
        assert (lifted.actor, lifted.details) == (player, {"power": "France"})
