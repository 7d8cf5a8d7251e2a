"""Taking over a power nobody plays (TAKEOVER, SET TAKEOVER): which powers may be taken, and
the answer to njudge's way of doing it, a SIGNON to the vacant power with the password the GM
gave out. That SIGNON does not take the power over here (the taker would be left with a
password others know): it is answered with the TAKEOVER line to send, which sets the taker's
own password."""

from __future__ import annotations

from gm.play.takeovers import vacant
from gm.store.passwords import verify_password
from gm.store.rows import GameRecord, PowerRecord
from gm.store.settings import TAKEOVER_KEY
from gm.store.statuses import GameStatus


def takeover_hint(game: GameRecord, power: PowerRecord | None, password: str) -> str | None:
    """For a SIGNON with a wrong password: when it is the takeover password of the game and
    the power is vacant, what to send instead; else None."""
    stored = game.settings.extra.get(TAKEOVER_KEY)
    if (power is None or not stored or not vacant(power)
            or game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED)
            or not verify_password(password, str(stored))):
        return None
    return (f"{power.name} in {game.name} has no player: to take it over with the takeover "
            f"password, send TAKEOVER {power.name} {game.name} <takeover password> <your own "
            "password> (your own password is the one you will sign on with).")
