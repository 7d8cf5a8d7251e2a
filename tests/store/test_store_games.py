"""Games and powers: names unique in any letter case, settings, GM, players and flags."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from gm.engine.phase import PhaseType
from gm.store import audit, games, powers
from gm.store.db import Database
from gm.store.errors import GameNameTaken, NotFound
from gm.store.passwords import hash_password, verify_password
from gm.store.settings import GameSettings, LatePolicy, PressPolicy
from gm.store.statuses import GameStatus, PowerStatus
from tests.support.store_samples import T0


def _game(db: Database, name: str = "Mygame") -> int:
    with db.transaction() as s:
        return games.create_game(
            s, name=name, variant="standard", gm_address="gm@example.org",
            gm_password_hash=hash_password("gmpw"), now=T0,
        ).id


def test_create_and_find_a_game_in_any_letter_case(database: Database) -> None:
    gid = _game(database, "MyGame")
    with database.read() as s:
        found = games.find_game(s, "mygame")
        assert found is not None and found.id == gid
        assert found.name == "MyGame"
        assert found.variant == "standard"
        assert found.status is GameStatus.FORMING
        assert found.settings == GameSettings()
        assert found.created_at == found.updated_at == T0
        assert verify_password("gmpw", found.gm_password_hash)
        assert games.find_game(s, "MYGAME ") is not None
        assert games.find_game(s, "other") is None


def test_game_names_are_unique_in_any_letter_case(database: Database) -> None:
    _game(database, "Mygame")
    with pytest.raises(GameNameTaken, match="'MYGAME'"), database.transaction() as s:
        games.create_game(
            s, name="MYGAME", variant="standard", gm_address="x@example.org",
            gm_password_hash="h", now=T0,
        )
    with database.read() as s:
        assert [g.name for g in games.list_games(s)] == ["Mygame"]


def test_the_unique_key_holds_even_past_the_check(database: Database) -> None:
    """The database itself refuses a second name_key (a concurrent creator would hit this)."""
    from sqlalchemy.exc import IntegrityError

    from gm.store.models import Game

    _game(database, "Mygame")
    with pytest.raises(IntegrityError), database.transaction() as s:
        s.add(Game(name="MYGAME", name_key="mygame", variant="v", status=GameStatus.FORMING,
                   settings={}, gm_address="a", gm_password_hash="h", created_at=T0,
                   updated_at=T0))
        s.flush()


def test_settings_round_trip_and_keep_unknown_keys(database: Database) -> None:
    gid = _game(database)
    settings = GameSettings(
        deadlines={
            PhaseType.MOVEMENT: time(20, 0),
            PhaseType.RETREAT: timedelta(hours=12),
            PhaseType.ADJUSTMENT: timedelta(hours=6),
        },
        grace=timedelta(hours=3),
        timezone="Europe/Paris",
        press=PressPolicy.WHITE,
        late=LatePolicy.DISORDER,
        late_after=2,
        early=False,
        extra={"from_a_newer_gm": {"x": 1}},
    )
    with database.transaction() as s:
        later = T0 + timedelta(days=1)
        rec = games.set_game_settings(s, gid, settings, now=later)
        assert rec.updated_at == later and rec.created_at == T0
    with database.read() as s:
        assert games.get_game(s, gid).settings == settings


def test_settings_missing_from_an_older_document_take_defaults() -> None:
    old = {"deadlines": {"Movement": {"after_seconds": 3600}}, "press": "none"}
    settings = GameSettings.from_json(old)
    assert settings.deadlines[PhaseType.MOVEMENT] == timedelta(hours=1)
    assert settings.deadlines[PhaseType.RETREAT] == GameSettings().deadlines[PhaseType.RETREAT]
    assert settings.press is PressPolicy.NONE
    assert settings.late is LatePolicy.HOLD and settings.extra == {}


def test_status_and_game_master_change(database: Database) -> None:
    gid = _game(database)
    with database.transaction() as s:
        games.set_game_status(s, gid, GameStatus.ACTIVE, now=T0)
        games.set_game_master(s, gid, address="new@example.org",
                              password_hash=hash_password("p2"), now=T0)
    with database.read() as s:
        g = games.get_game(s, gid)
        assert g.status is GameStatus.ACTIVE
        assert g.gm_address == "new@example.org" and verify_password("p2", g.gm_password_hash)
        assert [x.id for x in games.list_games(s, status=GameStatus.ACTIVE)] == [gid]
        assert games.list_games(s, status=GameStatus.PAUSED) == []
        with pytest.raises(NotFound):
            games.get_game(s, gid + 1000)


def test_powers_players_passwords_status_and_flags(database: Database) -> None:
    gid = _game(database)
    with database.transaction() as s:
        powers.add_power(s, gid, "England", now=T0, addresses=["Alice@Example.org"],
                         password_hash=hash_password("eng"))
        powers.add_power(s, gid, "France", now=T0)
    with database.transaction() as s:
        powers.set_players(s, gid, "France", ["bob@example.org", "carol@example.org",
                                              "BOB@example.org"], now=T0)
        powers.set_power_flags(s, gid, "England", draw_vote=True, now=T0)
        powers.set_power_flags(s, gid, "France", wait=True, now=T0)
        powers.set_power_status(s, gid, "England", PowerStatus.CIVIL_DISORDER, now=T0)
    with database.read() as s:
        eng = powers.get_power(s, gid, "England")
        fra = powers.get_power(s, gid, "France")
        assert eng is not None and fra is not None
        assert eng.addresses == ("Alice@Example.org",)
        assert verify_password("eng", eng.password_hash)
        assert (eng.status, eng.draw_vote, eng.wait) == (PowerStatus.CIVIL_DISORDER, True, False)
        assert fra.addresses == ("bob@example.org", "carol@example.org")  # duplicate dropped
        assert (fra.status, fra.draw_vote, fra.wait) == (PowerStatus.PLAYING, False, True)
        assert fra.password_hash is None
        assert [p.name for p in powers.list_powers(s, gid)] == ["England", "France"]
        assert [p.name for p in powers.powers_played_by(s, "alice@example.ORG")] == ["England"]
        assert powers.get_power(s, gid, "Germany") is None
    with database.transaction() as s:
        powers.set_players(s, gid, "France", ["dave@example.org"], now=T0)
        powers.set_power_password(s, gid, "France", hash_password("fr"), now=T0)
    with database.read() as s:
        fra = powers.get_power(s, gid, "France")
        assert fra is not None and fra.addresses == ("dave@example.org",)
        assert verify_password("fr", fra.password_hash)
        assert powers.powers_played_by(s, "bob@example.org") == []


def test_a_power_appears_once_per_game(database: Database) -> None:
    from sqlalchemy.exc import IntegrityError

    gid = _game(database)
    with pytest.raises(IntegrityError), database.transaction() as s:
        powers.add_power(s, gid, "England", now=T0)
        powers.add_power(s, gid, "England", now=T0)


def test_deleting_a_game_keeps_its_audit_trail(database: Database) -> None:
    gid = _game(database)
    with database.transaction() as s:
        powers.add_power(s, gid, "England", now=T0, addresses=["a@example.org"])
        audit.record_action(s, actor="gm@example.org", action="create", game_id=gid, now=T0)
    with database.transaction() as s:
        games.delete_game(s, gid)
    with database.read() as s:
        assert games.find_game(s, "Mygame") is None
        assert powers.powers_played_by(s, "a@example.org") == []
        (entry,) = audit.audit_log(s)
        assert (entry.game_id, entry.game_name, entry.action) == (None, "Mygame", "create")
