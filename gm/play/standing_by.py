"""Standing by to take over a power (STANDBY): an offer made or withdrawn (`stand_by`,
`withdraw`), and who stands by for a game: the list the GM is shown when a power loses its
player (the EJECT reply, the tick's civil-disorder notice) and the one REPLACE <power> STANDBY
takes the first of. The words of STANDBY's reply are gm.commands.catalog.standby's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.store import audit
from gm.store import powers as powers_repo
from gm.store import standby as standby_repo
from gm.store.outgoing import Outgoing
from gm.store.powers import address_key
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus


class OfferRefusal(StrEnum):
    """Why an offer to stand by for a game is not taken."""

    FINISHED = "finished"  # the game is over
    PLAYS = "plays"  # the sender plays a power of it
    ALREADY = "already"  # the sender stands by for it (or for any game) already


@dataclass(frozen=True)
class Offered:
    """The sender stands by (for `game`, or None: any game); `mail`: the game's GM told, with
    the sender's record."""

    game: GameRecord | None
    mail: tuple[Outgoing, ...] = ()


@dataclass(frozen=True)
class NotOffered:
    """The offer is not taken, for `why`; `power`: the power the sender plays (PLAYS)."""

    why: OfferRefusal
    power: str = ""


def stand_by(session: Session, game: GameRecord | None, actor: str, *, now: datetime,
             service: str) -> Offered | NotOffered:
    """STANDBY [<game>]: `actor` offers to take over a power of `game` (None: of any game)
    that loses its player; the game's GM is told, with the player's record on this server."""
    if game is None:
        if not standby_repo.offer(session, actor, None, now=now):
            return NotOffered(OfferRefusal.ALREADY)
        return Offered(None)
    if game.status is GameStatus.FINISHED:
        return NotOffered(OfferRefusal.FINISHED)
    played = [p.name for p in powers_repo.powers_played_by(session, actor)
              if p.game_id == game.id]
    if played:
        return NotOffered(OfferRefusal.PLAYS, played[0])
    if not standby_repo.offer(session, actor, game.id, now=now):
        return NotOffered(OfferRefusal.ALREADY)
    from gm.play.reliability import record_line  # it reads phases by gm.play.reports

    text = (f"{actor} stands by for {game.name}: REPLACE <power> STANDBY gives a power to the "
            f"first player standing by.\n{record_line(session, actor)}")
    return Offered(game, (Outgoing((game.gm_address,),
                                   build_subject("a player stands by", game=game.name),
                                   f"{text}\n\n-- \n{service}\n", game.id),))


def withdraw(session: Session, game: GameRecord | None, actor: str) -> int:
    """STANDBY [<game>] OFF: `actor`'s offer for `game` withdrawn (None: every offer of
    theirs); how many were."""
    if game is None:
        return standby_repo.withdraw_all(session, actor)
    return 1 if standby_repo.withdraw(session, actor, game.id) else 0


def took_over_from_standby(session: Session, game: GameRecord, address: str, *,
                           now: datetime, actor: str, inbound_id: int | None = None,
                           ) -> str | None:
    """REPLACE <power> STANDBY, once the replacement is done: the power `address` (the first
    standing by) now plays in `game`, their offers (for the game and for any) withdrawn and
    the change logged; None when they play no power there (the replacement was refused)."""
    power = next((p for p in powers_repo.powers_played_by(session, address)
                  if p.game_id == game.id), None)
    if power is None:
        return None
    standby_repo.withdraw(session, address, game.id)
    standby_repo.withdraw(session, address, None)
    audit.record_action(session, actor=actor, action="replace from standby", now=now,
                        game_id=game.id, details={"power": power.name, "address": address},
                        inbound_id=inbound_id)
    return power.name


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
