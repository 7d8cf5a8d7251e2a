"""A player's preferences in a forming game (gm.play.preferences), the use case under SET
PREFERENCE, at the play layer: the request kept, a power taken by JOIN given back, the GM's
notice, and each refusal as a typed outcome (the mail-level tests are in
tests/service/test_service_join_prefer.py and test_service_njudge_forms.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.play import preferences
from gm.play.joining import AlreadyPlaying, JoinRefusal
from gm.store import audit
from gm.store import games as games_repo
from gm.store import join_requests as requests_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import hash_password, verify_password
from gm.variants import get_variant
from tests.support.tick_support import GM, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
PLAYER = "player@example.org"


def forming(database: Database, name: str, *, taken: dict[str, str] | None = None) -> int:
    with database.transaction() as s:
        game = games_repo.create_game(s, name=name, variant="standard", gm_address=GM,
                                      gm_password_hash=hash_password("gmpw"), now=T0)
        for power in get_variant("standard").power_names:
            owner = (taken or {}).get(power)
            powers_repo.add_power(s, game.id, power, now=T0,
                                  addresses=[] if owner is None else [owner])
            if owner is not None:
                powers_repo.set_power_password(s, game.id, power, hash_password("mine"),
                                               now=T0)
        return game.id


def prefer(database: Database, game_id: int, wanted: list[str],
           actor: str = PLAYER) -> preferences.PreferenceOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return preferences.prefer(s, game, wanted, now=NOW, actor=actor, service="Judge")


def test_a_joined_player_gives_back_the_power_with_the_same_password(
        database: Database) -> None:
    game_id = forming(database, "alpha", taken={"France": PLAYER})
    done = prefer(database, game_id, ["Italy", "Turkey"])
    assert isinstance(done, preferences.Preferred)
    assert (done.wanted, done.gave_back) == (("Italy", "Turkey"), "France")
    (notice,) = done.mail
    assert notice.recipients == (GM,) and "preferences" in notice.subject
    assert f"{PLAYER} gave preferences in alpha: Italy, Turkey (SET PREFERENCE)" in notice.body
    with database.read() as s:
        france = powers_repo.get_power(s, game_id, "France")
        assert france is not None and france.addresses == ()
        (request,) = requests_repo.requests_for(s, game_id)
        assert request.address == PLAYER and request.preferences == ("Italy", "Turkey")
        assert verify_password("mine", request.password_hash)


def test_a_request_is_renewed_and_any_power_is_said(database: Database) -> None:
    game_id = forming(database, "beta")
    with database.transaction() as s:
        requests_repo.put(s, game_id, PLAYER, hash_password("pw"), ["France"], now=T0)
    done = prefer(database, game_id, [])
    assert isinstance(done, preferences.Preferred) and done.gave_back is None
    assert "any power, at random" in done.mail[0].body
    with database.read() as s:
        (request,) = requests_repo.requests_for(s, game_id)
        assert request.preferences == ()


def test_the_refusals(database: Database) -> None:
    game_id = forming(database, "gamma")
    assert prefer(database, game_id, ["Italy"]) is preferences.PreferenceRefusal.NOT_JOINED
    started = new_game(database, "delta", opened=T0, deadline=None)
    assert prefer(database, started, ["Italy"]) is preferences.PreferenceRefusal.STARTED
    with database.transaction() as s:
        powers_repo.set_players(s, game_id, "Austria", [PLAYER], now=T0)
        audit.record_action(s, actor=GM, action="add", now=T0, game_id=game_id,
                            details={"power": "Austria", "address": PLAYER})
    assert prefer(database, game_id, ["Italy"]) == preferences.GivenByGm("Austria")
    full = forming(database, "epsilon", taken={p: f"{p.lower()}@example.org"
                                                for p in get_variant("standard").power_names})
    with database.transaction() as s:
        requests_repo.put(s, full, PLAYER, hash_password("pw"), [], now=T0)
    assert prefer(database, full, ["Italy"]) is preferences.PreferenceRefusal.ALL_PROMISED
    assert prefer(database, game_id, ["Italy"], actor="x@example.org") \
        is preferences.PreferenceRefusal.NOT_JOINED


def join(database: Database, game_id: int, wanted: list[str], actor: str = PLAYER,
         ) -> preferences.JoinedPreferring | AlreadyPlaying | JoinRefusal:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return preferences.join_preferring(s, game, wanted, "secret", now=NOW, actor=actor)


def test_join_preferring_keeps_the_request_then_replaces_it(database: Database) -> None:
    game_id = forming(database, "eta")
    first = join(database, game_id, ["Italy", "Turkey"])
    assert first == preferences.JoinedPreferring(("Italy", "Turkey"), replaced=False)
    again = join(database, game_id, ["Russia"])
    assert again == preferences.JoinedPreferring(("Russia",), replaced=True)
    with database.read() as s:
        (request,) = requests_repo.requests_for(s, game_id)
        assert request.address == PLAYER and request.preferences == ("Russia",)
        assert verify_password("secret", request.password_hash)


def test_join_preferring_refuses_a_player_of_the_game_and_a_full_game(
        database: Database) -> None:
    game_id = forming(database, "theta", taken={"France": PLAYER})
    assert join(database, game_id, ["Italy"]) == AlreadyPlaying("France")
    powers = get_variant("standard").power_names
    full = forming(database, "iota", taken={p: f"p{n}@example.org" for n, p in
                                            enumerate(powers)})
    assert join(database, full, ["Italy"]) is JoinRefusal.ALL_PROMISED
    with database.read() as s:
        assert requests_repo.requests_for(s, game_id) == []
        assert requests_repo.requests_for(s, full) == []
