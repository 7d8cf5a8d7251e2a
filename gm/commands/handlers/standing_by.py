"""Who stands by to take over a power of a game (offers made with STANDBY): the list the GM is
shown when a power loses its player (the EJECT reply, the tick's civil-disorder notice) and the
one REPLACE <power> STANDBY takes the first of."""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.store import powers as powers_repo
from gm.store import standby as standby_repo
from gm.store.powers import address_key


def standing_by(session: Session, game_id: int) -> list[str]:
    """The addresses standing by for the game (its own offers first), less its players."""
    playing = {address_key(a) for p in powers_repo.list_powers(session, game_id)
               for a in p.addresses}
    return [o.address for o in standby_repo.offers_for(session, game_id)
            if address_key(o.address) not in playing]


def offer_line(session: Session, game_id: int, power: str) -> str:
    """What the GM is told of the standby list when `power` has no player."""
    ready = standing_by(session, game_id)
    if not ready:
        return "No one stands by to take it over (players offer with STANDBY)."
    return (f"Standing by to take it over: {', '.join(ready)}. REPLACE {power} STANDBY gives "
            f"it to {ready[0]}.")
