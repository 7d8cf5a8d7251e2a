"""The notice that ends a game by a vote (a draw, a concession) or the GM's TERMINATE, to every
player, the GM and the observers (each address once), each carrying the game's files as that
reader may see them (gm.play.end_files): the record, the one-file history and the animation."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord


def game_end_notices(session: Session, game: GameRecord, what: str, body: str, *,
                     now: datetime, phase: str | None = None) -> list[Outgoing]:
    """`body` to everyone in `game` under a subject naming the game and `what`, with the
    game's files attached and named above the signature."""
    # not at the head: the files load the adjudicator and the pictures
    from gm.play.compose_reports import files_line
    from gm.play.end_files import EndFiles
    from gm.play.played_game import played_game

    subject = build_subject(what, game=game.name, phase=phase)
    readers: dict[str, tuple[str, str | None, str]] = {}
    for seat in powers_repo.list_powers(session, game.id):
        for address in seat.addresses:
            readers.setdefault(address.lower(), (address, seat.name, "player"))
    readers.setdefault(game.gm_address.lower(), (game.gm_address, None, "gm"))
    for address in observers(game):
        readers.setdefault(address.lower(), (address, None, "observer"))
    files = EndFiles(played_game(session, game.id, now=now))
    out = []
    for address, power, audience in readers.values():
        carried = files(power, audience)
        said = files_line(game.name, [a.filename for a in carried])
        text = body.replace("\n-- \n", f"\n{said}\n\n-- \n", 1) if "\n-- \n" in body \
            else f"{body.rstrip()}\n\n{said}\n"
        out.append(Outgoing((address,), subject, text, game.id, attachments=carried))
    return out
