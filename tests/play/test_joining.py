"""Joining a forming game (gm.play.joining), the use case under JOIN and SIGNON ?<game>, at the
play layer: the seat taken, the GM's notice, and each refusal as a typed outcome (the mail-level
tests are in tests/service, e.g. test_service_njudge_forms.py and test_service_join_prefer.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import joining
from gm.play.adjudicate import adjudicate_phase, record_adjudication, submissions
from gm.store import games as games_repo
from gm.store import join_requests
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import hash_password, verify_password
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.tick_support import GM, SETTINGS, address, new_game, spring_orders, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)
NEW = "new.player@example.org"


def forming(database: Database, name: str, *, taken: dict[str, str] | None = None,
            multiple: bool = False, minimum: int | None = None) -> int:
    """A forming standard game, its powers free but those `taken` (power: address); with
    `minimum`, the GM's SET JOIN ONTIME <minimum>%."""
    extra: dict[str, object] = {joining.MULTIPLE_KEY: True} if multiple else {}
    if minimum is not None:
        extra[joining.JOIN_KEY] = {"on_time": minimum}
    with database.transaction() as s:
        game = games_repo.create_game(
            s, name=name, variant="standard", gm_address=GM,
            gm_password_hash=hash_password("gmpw"), now=T0, status=GameStatus.FORMING,
            settings=dataclasses.replace(SETTINGS, extra=extra))
        for power in get_variant("standard").power_names:
            owner = (taken or {}).get(power)
            powers_repo.add_power(s, game.id, power, now=T0,
                                  addresses=[] if owner is None else [owner])
        return game.id


def join(database: Database, game_id: int, power: str | None, *, actor: str = NEW,
         variant: str | None = None) -> joining.JoinOutcome:
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        return joining.join(s, game, power, "secret", now=NOW, actor=actor, service="Judge",
                            variant=variant)


def test_join_takes_the_first_free_power_and_tells_the_gm(database: Database) -> None:
    game_id = forming(database, "alpha", taken={"Austria": "a@example.org"})
    done = join(database, game_id, None)
    assert isinstance(done, joining.Joined)
    assert (done.power, done.others) == ("England", ())
    (notice,) = done.mail
    assert notice.recipients == (GM,) and "England has a player" in notice.subject
    assert NEW in notice.body and "Record:" in notice.body
    with database.read() as s:
        england = powers_repo.get_power(s, game_id, "England")
        assert england is not None and england.addresses == (NEW,)
        assert verify_password("secret", england.password_hash)


def test_join_names_a_power_taken_or_unknown(database: Database) -> None:
    game_id = forming(database, "beta", taken={"France": "f@example.org"})
    assert join(database, game_id, "France") == joining.Taken(
        "France", ("Austria", "England", "Germany", "Italy", "Russia", "Turkey"))
    unknown = join(database, game_id, "Atlantis")
    assert isinstance(unknown, joining.NotAPower) and "France" in unknown.names
    done = join(database, game_id, "italy")
    assert isinstance(done, joining.Joined) and done.power == "Italy"


def test_join_refuses_a_started_game_and_another_variant(database: Database) -> None:
    game_id = forming(database, "gamma")
    assert join(database, game_id, None, variant="chaos") == joining.WrongVariant(
        get_variant("standard").title)
    assert isinstance(join(database, game_id, None, variant="standard"), joining.Joined)
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.ACTIVE, now=NOW)
    assert join(database, game_id, None, actor="other@example.org") \
        is joining.JoinRefusal.STARTED


def test_one_power_per_address_unless_the_gm_allows_more(database: Database) -> None:
    game_id = forming(database, "delta", taken={"Austria": NEW})
    assert join(database, game_id, None) == joining.AlreadyPlaying("Austria")
    allowed = forming(database, "epsilon", taken={"Austria": NEW}, multiple=True)
    done = join(database, allowed, None)
    assert isinstance(done, joining.Joined) and done.others == ("Austria",)


def test_join_refuses_when_every_power_is_taken_or_promised(database: Database) -> None:
    names = get_variant("standard").power_names
    full = forming(database, "zeta", taken={p: f"{p.lower()}@example.org" for p in names})
    assert join(database, full, None) is joining.JoinRefusal.ALL_TAKEN
    last = forming(database, "eta",
                   taken={p: f"{p.lower()}@example.org" for p in names[1:]})
    with database.transaction() as s:
        join_requests.put(s, last, "early@example.org", hash_password("pw"), ["Austria"],
                          now=T0)
    assert join(database, last, None) is joining.JoinRefusal.ALL_PROMISED


def test_join_refuses_a_record_below_the_gms_minimum(database: Database) -> None:
    played = new_game(database, "old", opened=T0, deadline=T0 + timedelta(hours=48))
    submit(database, played, spring_orders(without=["Italy"]), T0 + timedelta(hours=1))
    with database.transaction() as s:
        game = games_repo.get_game(s, played)
        phase = phases_repo.current_phase(s, played)
        assert phase is not None
        record_adjudication(s, adjudicate_phase(
            game, phase, powers_repo.list_powers(s, played),
            submissions(s, get_variant(game.variant), phase), now=NOW))
    game_id = forming(database, "picky", minimum=80)
    assert join(database, game_id, None, actor=address("old", "Italy")) \
        == joining.RecordShort(wanted=80, on_time=0, in_time=0, phases=1)
    done = join(database, game_id, None, actor=address("old", "France"))
    assert isinstance(done, joining.Joined)
    assert "(100% in time)" in done.mail[0].body  # the GM reads the record
