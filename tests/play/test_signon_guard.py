"""The sign-on guard (gm.play.signon_guard) at the play layer, no mail: an address throttled
after its wrong passwords, a power slowed and its player and the GM told once, the answers to
one address's wrong passwords capped, UNLOCK lifting a power's counts (the mail-level tests are
tests/service/test_service_signon_attack.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from gm.play import signon_guard as guard
from gm.play.signon_guard import AddressThrottled, Attempt, LastAnswer, PowerSlowed
from gm.play.signon_locks import lift
from gm.store import games as games_repo
from gm.store.db import Database
from tests.support.tick_support import GM, address, new_game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
GUESSER = "guesser@example.org"
OWNERS = ("france@example.org",)


def _attempt(session: Session, sender: str, n: int) -> Attempt:
    return Attempt(session, sender, T0 + timedelta(minutes=n), None, "Judge")


def test_an_address_is_throttled_after_its_wrong_passwords_and_answered_less(
        database: Database) -> None:
    game_id = new_game(database, "alpha", opened=T0, deadline=None)
    with database.transaction() as s:
        game = games_repo.get_game(s, game_id)
        outcomes = [guard.wrong_password(_attempt(s, GUESSER, n), game, "France", OWNERS)
                    for n in range(guard.PER_ADDRESS)]
        assert [w.quiet for w in outcomes] == [False] * 4 + [True]
        assert [w.last for w in outcomes[:3]] == [None] * 3
        assert outcomes[3].last == LastAnswer(4, T0 + timedelta(minutes=3) + guard.WINDOW)
        # the GM is told of the last answer; the power's player and the GM of the slowing
        (gm_notice,) = outcomes[3].mail
        assert gm_notice.recipients == (GM,) and GUESSER in gm_notice.body
        slowed = outcomes[4].mail
        assert [m.recipients for m in slowed] == [OWNERS, (GM,)]
        assert all("5 wrong passwords for France" in m.body for m in slowed)
        later = _attempt(s, GUESSER, 5)
        assert guard.throttle(later, game, "France", OWNERS) == AddressThrottled(
            T0 + guard.WINDOW)
        # from the registered address the password is always checked
        assert guard.throttle(_attempt(s, OWNERS[0], 5), game, "France", OWNERS) is None
        other = _attempt(s, "someone@example.org", 5)
        assert guard.throttle(other, game, "France", OWNERS) == PowerSlowed(
            "France", 5, T0 + timedelta(minutes=4) + guard.SLOW_GAP)
        assert guard.throttle(other, game, "Germany", (address("alpha", "Germany"),)) is None
        lift(s, game_id, "France", actor=GM, now=later.now)
        assert guard.throttle(other, game, "France", OWNERS) is None
