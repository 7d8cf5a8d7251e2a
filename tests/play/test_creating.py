"""Creating a game (gm.play.creating), the use case under CREATE, at the play layer: the game,
its powers and the audit entry, and each refusal as a typed outcome (the mail-level tests are in
tests/service, e.g. test_service_replies.py, test_service_amplify.py and
test_service_rulebook.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from gm.engine.rulebook import RULEBOOK_KEY
from gm.play import creating
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import verify_password
from gm.store.statuses import GameStatus
from gm.variants import get_variant

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
GM = "gm@example.org"


def create(database: Database, name: str, variant: str = "standard", password: str = "secret",
           rulebook: str | None = None, *, cap: int = 0) -> creating.CreateOutcome:
    with database.transaction() as s:
        return creating.create(s, name, variant, password, rulebook, now=NOW, actor=GM,
                               cap=cap)


def test_create_makes_a_forming_game_with_every_power_free(database: Database) -> None:
    done = create(database, "alpha", "Deluge II")
    assert isinstance(done, creating.Created)
    assert (done.game.name, done.variant.name, done.rulebook) == ("alpha", "deluge2", "2000")
    with database.read() as s:
        game = games_repo.get_game(s, done.game.id)
        assert game.status is GameStatus.FORMING and game.gm_address == GM
        assert verify_password("secret", game.gm_password_hash)
        assert RULEBOOK_KEY not in game.settings.extra  # the default is not written down
        powers = powers_repo.list_powers(s, game.id)
        assert [p.name for p in powers] == list(get_variant("deluge2").power_names)
        assert all(not p.addresses for p in powers)
        (entry,) = audit.audit_log(s, game_id=game.id, action="create")
        assert entry.details == {"variant": "deluge2", "rulebook": "2000"}


def test_create_keeps_another_rulebook_and_refuses_it_for_an_af_variant(
        database: Database) -> None:
    done = create(database, "beta", rulebook="2023")
    assert isinstance(done, creating.Created) and done.rulebook == "2023"
    assert done.game.settings.extra[RULEBOOK_KEY] == "2023"
    refused = create(database, "gamma", "Deluge II", rulebook="2023")
    assert refused == creating.RulebookRefused(get_variant("deluge2"), "2023")
    with database.read() as s:
        assert games_repo.find_game(s, "gamma") is None


def test_create_refuses_a_missing_password_an_unknown_variant_and_a_taken_name(
        database: Database) -> None:
    assert create(database, "delta", "Deluge", "II") is creating.CreateRefusal.NO_PASSWORD
    assert create(database, "delta", "Atlantis") is creating.CreateRefusal.NO_VARIANT
    assert isinstance(create(database, "delta"), creating.Created)
    assert create(database, "DELTA") is creating.CreateRefusal.NAME_TAKEN


def test_create_is_capped_per_address(database: Database) -> None:
    assert isinstance(create(database, "one", cap=2), creating.Created)
    assert isinstance(create(database, "two", cap=2), creating.Created)
    assert create(database, "three", cap=2) == creating.OverCap(("one", "two"))
    assert isinstance(create(database, "three"), creating.Created)  # 0: no limit
