"""EJECT (gm.play.seats.eject, eject_address), at the play layer: the seat emptied or thinned,
civil disorder, the password nobody knows, the audit entry, the notices, and njudge's EJECT
<address> with its refusals (the mail-level tests are in tests/service, e.g.
test_service_commands.py and test_service_njudge_forms.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import seats
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.settings import OBSERVERS_KEY
from gm.store.statuses import GameStatus, PowerStatus
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
SECOND = "second@example.org"


def test_eject_empties_the_seat_into_civil_disorder(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    player = address("alpha", "France")
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None
        old_hash = france.password_hash
        done = seats.eject(s, game, france, france.addresses, now=NOW, actor=GM,
                           service="Judge")
    assert (done.power, done.leaving, done.keep) == ("France", (player,), ())
    (told,) = done.mail
    assert told.recipients == (player,) and "you no longer play France" in told.subject
    assert "The GM of alpha has removed you from France." in told.body
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.addresses == ()
        assert france.status is PowerStatus.CIVIL_DISORDER
        assert france.password_hash != old_hash
        (entry,) = audit.audit_log(s, game_id=game_id, action="eject")
        assert entry.details == {"power": "France", "previous": [player]}


def test_eject_one_of_two_players_keeps_the_other(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    player = address("beta", "Italy")
    with database.transaction() as s:
        powers_repo.set_players(s, game_id, "Italy", [player, SECOND], now=T0)
        powers_repo.set_power_password(s, game_id, "Italy", "kept-hash", now=T0)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        italy = powers_repo.get_power(s, game_id, "Italy")
        assert italy is not None
        done = seats.eject(s, game, italy, (SECOND.upper(),), now=NOW, actor=GM,
                           service="Judge")
    assert done.keep == (player,) and len(done.mail) == 1
    with database.read() as s:
        italy = powers_repo.get_power(s, game_id, "Italy")
        assert italy is not None and italy.addresses == (player,)
        assert italy.status is PowerStatus.PLAYING and italy.password_hash == "kept-hash"


def test_eject_address_takes_the_powers_and_names_the_observer(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        powers_repo.set_players(s, game_id, "Turkey", [SECOND], now=T0)
        game = games_repo.get_game(s, game_id)
        games_repo.set_game_settings(s, game_id, dataclasses.replace(
            game.settings, extra={**game.settings.extra, OBSERVERS_KEY: ["Second@Example.org"]}),
            now=T0)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        done = seats.eject_address(s, game, SECOND, now=NOW, actor=GM, service="Judge")
    assert isinstance(done, seats.EjectedAddress)
    assert [e.power for e in done.ejected] == ["Turkey"]
    assert done.observer == "Second@Example.org"
    (notice,) = done.mail
    assert notice.recipients == ("Second@Example.org",)
    assert "you no longer observe the game" in notice.subject


def test_eject_address_refusals(database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=T0 + timedelta(hours=48))

    def eject(who: str) -> seats.EjectedAddress | seats.EjectRefusal:
        with database.transaction() as s:
            game = games_repo.get_game(s, game_id)
            return seats.eject_address(s, game, who, now=NOW, actor=GM, service="Judge")

    assert eject(GM.upper()) is seats.EjectRefusal.GM_ADDRESS
    assert eject("nobody@example.org") is seats.EjectRefusal.NOBODY
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=NOW)
    assert eject(address("delta", "Russia")) is seats.EjectRefusal.FINISHED
    with database.transaction() as s:  # an observer of a finished game stays one too
        game = games_repo.get_game(s, game_id)
        games_repo.set_game_settings(s, game_id, dataclasses.replace(
            game.settings, extra={**game.settings.extra, OBSERVERS_KEY: [SECOND]}), now=NOW)
    assert eject(SECOND) is seats.EjectRefusal.FINISHED
    with database.read() as s:
        assert audit.audit_log(s, game_id=game_id, action="eject") == []
