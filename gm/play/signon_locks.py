"""What the sign-on guard (gm.play.signon_guard) logs in the audit trail, and the
lifting of a power's counted wrong passwords: by the GM (UNLOCK), by REPLACE and a new
password (gm.play.seats, SET PASSWORD), by the operator (`gm unlock`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gm.store import audit

FAILED = "signon_failed"
UNLOCKED = "signon_unlocked"
QUIETED = "signon_quieted"  # an address told its wrong passwords are not answered for a while
GM_KEY = "GM"  # the power key of the GM's sign-on
ALL_KEY = "*"  # an UNLOCK of every power and the GM


def lift(session: Session, game_id: int, power: str, *, actor: str, now: datetime,
         inbound_id: int | None = None) -> None:
    """Forget the wrong passwords counted so far for `power` (GM_KEY, or ALL_KEY for every
    power and the GM), and for the addresses that sent them; `actor` lifts them."""
    audit.record_action(session, actor=actor, action=UNLOCKED, now=now, game_id=game_id,
                        details={"power": power}, inbound_id=inbound_id)
