"""A game made from a saved game (gm.play.importing), the use case under IMPORT, at the play
layer: the paused game at the saved game's last phase, the cap on games not yet under way, and
each refusal as a typed outcome (the mail-level tests are in
tests/export/test_import_by_mail.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from diplomacy import Game
from diplomacy.utils.export import to_saved_game_format

from gm.play import importing
from gm.play.import_mila import SavedGame, read_saved_game
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.passwords import hash_password, verify_password
from gm.store.statuses import GameStatus

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
GM = "gm@example.org"


def saved_game() -> SavedGame:
    """A game the `diplomacy` package played a phase of (every unit holds)."""
    game = Game(game_id="package")
    game.process()
    data: dict[str, Any] = to_saved_game_format(game)
    return read_saved_game(data)


def test_import_makes_a_paused_game_at_the_last_phase(database: Database) -> None:
    saved = saved_game()
    with database.transaction() as s:
        done = importing.import_game(s, saved, "alpha", "secret", now=NOW, actor=GM)
    assert isinstance(done, importing.Imported) and done.saved is saved
    with database.read() as s:
        game = games_repo.get_game(s, done.game.id)
        assert game.status is GameStatus.PAUSED and game.gm_address == GM
        assert verify_password("secret", game.gm_password_hash)
        assert all(not p.addresses for p in powers_repo.list_powers(s, game.id))
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None and str(phase.phase.year) == "1901"
        assert importing.not_under_way(s, GM) == ("alpha",)
    with database.transaction() as s:
        assert importing.import_game(s, saved, "ALPHA", "x", now=NOW, actor=GM) \
            is importing.ImportRefusal.NAME_TAKEN


def test_the_cap_counts_forming_games_and_imports_not_yet_seated(database: Database) -> None:
    saved = saved_game()
    with database.transaction() as s:
        games_repo.create_game(s, name="forming", variant="standard", gm_address=GM,
                               gm_password_hash=hash_password("pw"), now=NOW)
        done = importing.import_game(s, saved, "imported", "pw", now=NOW, actor=GM)
        assert isinstance(done, importing.Imported)
        assert importing.over_cap(s, GM, 3) is None
        assert importing.over_cap(s, GM, 2) == ("forming", "imported")
        assert importing.over_cap(s, GM, 0) is None  # no limit
        powers_repo.set_players(s, done.game.id, "France", ["f@example.org"], now=NOW)
        assert importing.over_cap(s, GM, 2) is None  # seated: on its way
        assert importing.over_cap(s, "other@example.org", 1) is None
