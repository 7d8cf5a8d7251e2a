"""A player moving to a new address (gm.play.addresses), the use cases under SET ADDRESS and SET
ADDRESS CONFIRM, at the play layer: the code mailed, the move made on confirmation, the notices,
and each refusal as a typed outcome (the mail-level tests are in
tests/service/test_service_address.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from gm.play import addresses
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
NEW = "moved@example.org"


def ask(database: Database, game_id: int, power: str | None, actor: str,
        new: str = NEW) -> addresses.Asked | addresses.AddressRefusal:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return addresses.ask(s, game, power, new, now=NOW, actor=actor, service="Judge")


def confirm(database: Database, code: str, actor: str = NEW
            ) -> addresses.Confirmed | addresses.AddressRefusal:
    with database.transaction() as s:
        return addresses.confirm(s, code, now=NOW + timedelta(hours=1), actor=actor,
                                 service="Judge")


def test_a_player_moves_once_the_new_address_confirms(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    old = address("alpha", "France")
    asked = ask(database, game_id, "France", old.upper())
    assert isinstance(asked, addresses.Asked)
    assert asked.old == old and asked.seats == (addresses.Seat("alpha", "France", GM),)
    (mail,) = asked.mail
    assert mail.recipients == (NEW,) and "confirm your new address" in mail.subject
    assert "France in alpha" in mail.body
    found = re.search(r"SET ADDRESS CONFIRM (\w+)", mail.body)
    assert found is not None
    assert confirm(database, found[1], actor="other@example.org") \
        is addresses.AddressRefusal.NO_CHANGE
    assert confirm(database, "wrong") is addresses.AddressRefusal.NO_CHANGE
    done = confirm(database, found[1])
    assert isinstance(done, addresses.Confirmed)
    assert (done.old, done.new, done.mastered) == (old, NEW, ())
    told = {m.recipients[0]: m for m in done.mail}
    assert set(told) == {old, GM}
    assert "(France in alpha) now goes to" in told[old].body
    assert "France has a new address" in told[GM].subject
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.addresses == (NEW,)
        assert audit.audit_log(s, action="address moved")
    assert confirm(database, found[1]) is addresses.AddressRefusal.NO_CHANGE  # used once


def test_the_gm_moves_the_games_it_masters(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    asked = ask(database, game_id, None, GM)
    assert isinstance(asked, addresses.Asked) and asked.seats == ()
    code = re.search(r"SET ADDRESS CONFIRM (\w+)", asked.mail[0].body)
    assert code is not None
    done = confirm(database, code[1])
    assert isinstance(done, addresses.Confirmed) and done.mastered == ("beta",)
    with database.read() as s:
        assert games_repo.get_game(s, game_id).gm_address == NEW


def test_asking_from_another_address_or_for_the_same_one_is_refused(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    assert ask(database, game_id, "France", "stranger@example.org") \
        is addresses.AddressRefusal.NOT_REGISTERED
    own = address("gamma", "France")
    assert ask(database, game_id, "France", own, new=own.upper()) \
        is addresses.AddressRefusal.SAME
