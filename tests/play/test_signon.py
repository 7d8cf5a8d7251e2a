"""Signing on (gm.play.signon), the use cases under SIGNON <power> <game> <password> and SIGNON
GM <game> <password>, at the play layer: the password checked (an old hash upgraded), a
resigned power refused, a power in civil disorder played again
with the GM told, and a sign-on from elsewhere copied to the registered address (the
mail-level tests are in tests/service, e.g. test_service_commands.py and
test_service_signon_attack.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import signon
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import hash_password, upgraded_hash
from gm.store.statuses import PowerStatus
from tests.support.old_hashes import unnormalised_hash
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)


def _game(db: Database, name: str, status: PowerStatus = PowerStatus.PLAYING) -> int:
    game_id = new_game(db, name, opened=T0, deadline=T0 + timedelta(hours=48))
    with db.transaction() as s:
        powers_repo.set_power_password(s, game_id, "France", hash_password("right"), now=T0)
        if status is not PowerStatus.PLAYING:
            powers_repo.set_power_status(s, game_id, "France", status, now=T0)
    return game_id


def _sign_on(db: Database, game_id: int, password: str,
             actor: str) -> signon.SignedOn | signon.SignOnRefusal:
    with db.transaction() as s:
        game = games_repo.get_game(s, game_id)
        record = powers_repo.get_power(s, game_id, "France")
        return signon.sign_on(s, game, "France", record, password, now=NOW, actor=actor,
                              service="Judge")


def test_the_right_password_signs_on(database: Database) -> None:
    game_id = _game(database, "alpha")
    done = _sign_on(database, game_id, "right", address("alpha", "France"))
    assert done == signon.SignedOn("France", back=False, copies=(), mail=())


def test_a_wrong_password_or_a_resigned_power_is_refused(database: Database) -> None:
    game_id = _game(database, "beta")
    assert _sign_on(database, game_id, "wrong", address("beta", "France")) \
        is signon.SignOnRefusal.WRONG_PASSWORD
    gone = _game(database, "gamma", PowerStatus.RESIGNED)
    assert _sign_on(database, gone, "right", address("gamma", "France")) \
        is signon.SignOnRefusal.RESIGNED


def test_a_power_in_civil_disorder_plays_again_and_the_gm_is_told(database: Database) -> None:
    game_id = _game(database, "delta", PowerStatus.CIVIL_DISORDER)
    done = _sign_on(database, game_id, "right", address("delta", "France"))
    assert isinstance(done, signon.SignedOn) and done.back
    (told,) = done.mail
    assert told.recipients == (GM,) and "France is back" in told.subject
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.status is PowerStatus.PLAYING


def test_a_sign_on_from_elsewhere_is_copied_to_the_registered_address(
        database: Database) -> None:
    game_id = _game(database, "omega")
    done = _sign_on(database, game_id, "right", "someone.else@example.org")
    assert isinstance(done, signon.SignedOn)
    assert done.copies == (address("omega", "France"),)


def _sign_on_master(db: Database, game_id: int,
                    password: str) -> signon.MasterSignedOn | signon.SignOnRefusal:
    with db.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return signon.sign_on_master(s, game, password, now=NOW)


def test_the_gm_password_signs_on_as_the_gm(database: Database) -> None:
    game_id = new_game(database, "eta", opened=T0, deadline=T0 + timedelta(hours=48))
    assert _sign_on_master(database, game_id, "wrong") is signon.SignOnRefusal.WRONG_PASSWORD
    done = _sign_on_master(database, game_id, "gmpw")
    assert isinstance(done, signon.MasterSignedOn)
    assert done.game.id == game_id and done.game.gm_address == GM


def test_an_unnormalised_gm_hash_is_upgraded_at_sign_on(database: Database) -> None:
    nfc, nfd = "caf\u00e9-gm", "cafe\u0301-gm"
    game_id = new_game(database, "theta", opened=T0, deadline=T0 + timedelta(hours=48))
    old = unnormalised_hash(nfd)
    with database.transaction() as s:
        games_repo.set_game_master(s, game_id, address=GM, password_hash=old, now=T0)
    done = _sign_on_master(database, game_id, nfc)
    assert isinstance(done, signon.MasterSignedOn)
    assert done.game.gm_password_hash != old
    assert upgraded_hash(nfc, done.game.gm_password_hash) is None
    with database.read() as s:
        assert games_repo.get_game(s, game_id).gm_password_hash == done.game.gm_password_hash
