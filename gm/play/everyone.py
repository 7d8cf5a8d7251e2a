"""Everyone in a game: the players, the GM and (for public news) the observers, each address
once; and a notice to each of them, one message per address so that addresses stay private."""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord


def game_addresses(session: Session, game: GameRecord, *,
                   observers_too: bool = True) -> list[str]:
    """Every player's address, the GM's and, with `observers_too`, the observers', once each
    (letter case aside)."""
    found = [a for p in powers_repo.list_powers(session, game.id) for a in p.addresses]
    found.append(game.gm_address)
    if observers_too:
        found.extend(observers(game))
    unique: dict[str, str] = {}
    for address in found:
        unique.setdefault(address.lower(), address)
    return list(unique.values())


def notices_to_game(session: Session, game: GameRecord, what: str, body: str, *,
                    phase: str | None = None, observers_too: bool = True) -> list[Outgoing]:
    """`body` to everyone in `game`, under a subject naming the game and `what`."""
    subject = build_subject(what, game=game.name, phase=phase)
    return [Outgoing((address,), subject, body, game.id)
            for address in game_addresses(session, game, observers_too=observers_too)]
