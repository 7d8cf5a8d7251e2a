"""Seat changes (gm.play.seats), the use cases under ADD, REPLACE and RESIGN, at the play
layer: the seat changed, the audit entry, and the mail each gives (the mail-level tests are in
tests/service, e.g. test_service_commands.py and test_service_standby.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta

from gm.play import seats
from gm.play.absences import Absence, absences, with_absences
from gm.play.signon_locks import UNLOCKED
from gm.play.stand_in import bots
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import verify_password
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
POWERS = get_variant("standard").power_names
NEW = "new.player@example.org"


def test_replace_seats_the_new_player_and_tells_both(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        powers_repo.set_power_status(s, game_id, "France", PowerStatus.CIVIL_DISORDER, now=T0)
        game = games_repo.get_game(s, game_id)
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None
        done = seats.replace_player(s, game, france, NEW, "secret", now=NOW, actor=GM,
                                    service="Judge")
    assert (done.power, done.address, done.made) == ("France", NEW, False)
    assert done.before == (address("alpha", "France"),) and done.absences == ()
    seated, told = done.mail
    assert seated.recipients == (NEW,) and "you play France" in seated.subject
    assert "secret" in seated.body and seated.attachments  # the open phase's calendar event
    assert told.recipients == done.before and "you no longer play France" in told.subject
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.addresses == (NEW,)
        assert france.status is PowerStatus.PLAYING
        assert verify_password("secret", france.password_hash)
        (entry,) = audit.audit_log(s, game_id=game_id, action="replace")
        assert entry.details == {"power": "France", "address": NEW,
                                 "previous": [address("alpha", "France")],
                                 "new_password": True}
        assert [e.details for e in audit.audit_log(s, game_id=game_id, action=UNLOCKED)] \
            == [{"power": "France"}]


def test_replace_without_a_password_makes_one_and_drops_the_old_absences(
        database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    away = Absence("France", date(2026, 3, 10), date(2026, 3, 12))
    kept = Absence("Italy", date(2026, 3, 10), date(2026, 3, 11))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        games_repo.set_game_settings(s, game_id, dataclasses.replace(
            game.settings, extra=with_absences(game.settings, [away, kept])), now=T0)
        game = games_repo.get_game(s, game_id)
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None
        done = seats.replace_player(s, game, france, NEW, None, now=NOW, actor=GM,
                                    service="Judge")
    assert done.made and done.absences == (str(away),)
    with database.read() as s:
        assert absences(games_repo.get_game(s, game_id).settings) == [kept]


def test_add_seats_a_player_and_its_old_player_is_told(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        done = seats.add_player(s, game, "Italy", NEW, None, now=NOW, actor=GM, service="Judge")
    assert done.made and done.before == (address("gamma", "Italy"),)
    assert [m.recipients for m in done.mail] == [(NEW,), done.before]
    with database.read() as s:
        (entry,) = audit.audit_log(s, game_id=game_id, action="add")
        assert entry.details["previous"] == [address("gamma", "Italy")]


def test_resign_under_way_leaves_the_power_resigned_and_tells_the_others(
        database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=T0 + timedelta(hours=48))
    leaver = address("delta", "Turkey")
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        left = seats.resign(s, game, "Turkey", now=NOW, actor=leaver, service="Judge")
    assert left.how is seats.Departure.RESIGNED
    told = sorted(r for m in left.mail for r in m.recipients)
    assert told == sorted([GM, *(address("delta", p) for p in POWERS if p != "Turkey")])
    assert all("Turkey resigned" in m.subject for m in left.mail)
    with database.read() as s:
        turkey = powers_repo.get_power(s, game_id, "Turkey")
        assert turkey is not None and turkey.status is PowerStatus.RESIGNED
        assert turkey.addresses == (leaver,)
        assert len(audit.audit_log(s, game_id=game_id, action="resign")) == 1


def test_withdrawing_from_a_forming_game_frees_the_power(database: Database) -> None:
    game_id = new_game(database, "omega", opened=T0, deadline=None)
    leaver = address("omega", "Austria")
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FORMING, now=T0)
        game = games_repo.get_game(s, game_id)
        left = seats.resign(s, game, "Austria", now=NOW, actor=leaver, service="Judge")
    assert left.how is seats.Departure.WITHDREW
    assert leaver not in {r for m in left.mail for r in m.recipients}
    assert all("free again (JOIN takes it)" in m.body for m in left.mail)
    with database.read() as s:
        austria = powers_repo.get_power(s, game_id, "Austria")
        assert austria is not None and austria.addresses == ()
        assert austria.password_hash is None
        assert len(audit.audit_log(s, game_id=game_id, action="withdraw")) == 1


def test_take_over_seats_the_taker_with_their_own_password(database: Database) -> None:
    game_id = new_game(database, "kappa", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        powers_repo.set_power_status(s, game_id, "Russia", PowerStatus.CIVIL_DISORDER, now=T0)
        game = games_repo.get_game(s, game_id)
        russia = powers_repo.get_power(s, game_id, "Russia")
        assert russia is not None
        seats.take_over(s, game, russia, "mine", now=NOW, actor=NEW)
    with database.read() as s:
        russia = powers_repo.get_power(s, game_id, "Russia")
        assert russia is not None and russia.addresses == (NEW,)
        assert russia.status is PowerStatus.PLAYING
        assert verify_password("mine", russia.password_hash)
        (entry,) = audit.audit_log(s, game_id=game_id, action="takeover")
        assert entry.details == {"power": "Russia", "previous": [address("kappa", "Russia")]}


def test_seating_the_bot_unseats_the_player_and_orders_at_once(database: Database) -> None:
    game_id = new_game(database, "bots", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        powers_repo.set_power_status(s, game_id, "Italy", PowerStatus.CIVIL_DISORDER, now=T0)
        done = seats.seat_bot(s, games_repo.get_game(s, game_id), "Italy", now=NOW, actor=GM,
                              service="Judge", inbound_id=None)
    assert done.power == "Italy" and done.before == (address("bots", "Italy"),)
    assert done.ordered is not None  # the open Spring: the bot ordered as a player would
    (told,) = done.mail
    assert told.recipients == done.before and "you no longer play Italy" in told.subject
    assert bots(done.game.settings) == ["Italy"]
    with database.read() as s:
        italy = powers_repo.get_power(s, game_id, "Italy")
        assert italy is not None and italy.addresses == () and italy.password_hash is None
        assert italy.status is PowerStatus.PLAYING
        (entry,) = audit.audit_log(s, game_id=game_id, action="add")
        assert entry.details == {"power": "Italy", "bot": True,
                                 "previous": [address("bots", "Italy")]}
