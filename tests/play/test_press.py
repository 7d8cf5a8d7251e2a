"""Sending press (gm.play.press), the use case under PRESS / BROADCAST, at the play layer: who
gets a message, what is stored, and the typed refusals of the game's press settings (the
mail-level tests are in tests/service, e.g. test_service_press_classic.py)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from gm.play import press
from gm.play.press import PressAsked, PressKind, PressRefusal, PressRefused, PressSent
from gm.policies import PressPolicy
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.statuses import GameStatus
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(hours=1)


def _send(db: Database, game_id: int, asked: PressAsked,
          sender: str | None = "France") -> PressSent | PressRefused:
    with db.transaction() as s:
        game = games_repo.get_game(s, game_id)
        actor = GM if sender is None else address(game.name, sender)
        return press.send_press(s, game, sender, actor, asked, now=NOW, service="Judge")


def _press_policy(db: Database, game_id: int, policy: PressPolicy) -> None:
    with db.transaction() as s:
        game = games_repo.get_game(s, game_id)
        games_repo.set_game_settings(s, game_id, dataclasses.replace(game.settings,
                                                                     press=policy), now=T0)


def test_press_to_two_powers_goes_to_their_players_alone(database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:  # Italy has no player
        powers_repo.set_players(s, game_id, "Italy", [], now=T0)
    sent = _send(database, game_id, PressAsked(("England", "I"), False, "Hello"))
    assert isinstance(sent, PressSent) and sent.kind is PressKind.PRESS
    assert sent.delivered == ("England",) and sent.unplayed == ("Italy",)
    assert not sent.to_gm and not sent.gm_copy and sent.watching == 0
    (mail,) = sent.mail
    assert mail.recipients == (address("alpha", "England"),)
    assert "press from France" in mail.subject and "Hello" in mail.body


def test_a_broadcast_reaches_every_other_power_and_the_gm(database: Database) -> None:
    game_id = new_game(database, "beta", opened=T0, deadline=T0 + timedelta(hours=48))
    sent = _send(database, game_id, PressAsked((), True, "To all"))
    assert isinstance(sent, PressSent) and sent.to_gm and len(sent.delivered) == 6
    assert sorted(r for m in sent.mail for r in m.recipients) == sorted(
        [GM, *(address("beta", p) for p in sent.delivered)])


def test_the_press_settings_refuse_with_a_typed_reason(database: Database) -> None:
    game_id = new_game(database, "gamma", opened=T0, deadline=T0 + timedelta(hours=48))
    asked = PressAsked(("England",), False, "psst")
    _press_policy(database, game_id, PressPolicy.NONE)
    assert _send(database, game_id, asked) == PressRefused(PressRefusal.NO_PRESS,
                                                           press_none=True)
    _press_policy(database, game_id, PressPolicy.WHITE)
    assert _send(database, game_id, dataclasses.replace(asked, grey=True)) \
        == PressRefused(PressRefusal.WHITE_ONLY)
    assert _send(database, game_id, dataclasses.replace(asked, fake=True)) \
        == PressRefused(PressRefusal.NO_FAKE)
    assert _send(database, game_id, PressAsked(("Atlantis",), False, "x")) \
        == PressRefused(PressRefusal.NOT_A_POWER, "Atlantis")
    assert _send(database, game_id, PressAsked(("France",), False, "x")) \
        == PressRefused(PressRefusal.NO_ONE)


def test_press_to_the_gm_alone_goes_even_when_no_press_is_allowed(database: Database) -> None:
    game_id = new_game(database, "delta", opened=T0, deadline=T0 + timedelta(hours=48))
    _press_policy(database, game_id, PressPolicy.NONE)
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.PAUSED, now=T0)
    sent = _send(database, game_id, PressAsked(("GM",), False, "help", grey=True, fake=True))
    assert isinstance(sent, PressSent) and sent.gm_only and sent.to_gm
    assert sent.fake_dropped and sent.signed and sent.kind is PressKind.PRESS
    assert [m.recipients for m in sent.mail] == [(GM,)]


def test_a_finished_game_takes_no_press(database: Database) -> None:
    game_id = new_game(database, "omega", opened=T0, deadline=T0 + timedelta(hours=48))
    with database.transaction() as s:
        games_repo.set_game_status(s, game_id, GameStatus.FINISHED, now=T0)
    assert _send(database, game_id, PressAsked((), True, "bye")) \
        == PressRefused(PressRefusal.FINISHED)
