"""A game made from a saved game (IMPORT <game> <password>, a Mila-style saved game attached;
gm.play.import_mila reads it): the sender is the GM of a new game at the saved game's last
position, paused, its powers without players (the GM seats them with REPLACE, then RESUMEs).

One address may have a few games not yet under way, forming or imported and not yet seated
(the service's `max_forming_games`, which caps CREATE too): `over_cap` says whether the sender
has as many (asked before the attachment is read). `import_game` gives `Imported`, or why not:
the saved game cannot be played from (`Unplayable`, the reader's problem) or the name is taken
(`ImportRefusal.NAME_TAKEN`). The words of the reply are the caller's
(gm.commands.catalog.import_game).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.errors import GameNameTaken
from gm.store.powers import address_key
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.play.import_mila import ImportProblem, SavedGame


def not_under_way(session: Session, address: str) -> tuple[str, ...]:
    """The games `address` is GM of that are not yet under way: forming, or paused with no
    player seated (an import not yet seated and resumed)."""
    mine = []
    for status in (GameStatus.FORMING, GameStatus.PAUSED):
        for game in games_repo.list_games(session, status=status):
            if address_key(game.gm_address) != address_key(address):
                continue
            if status is GameStatus.PAUSED and any(
                    p.addresses for p in powers_repo.list_powers(session, game.id)):
                continue
            mine.append(game.name)
    return tuple(mine)


def over_cap(session: Session, address: str, cap: int) -> tuple[str, ...] | None:
    """The games not yet under way of `address` when it has `cap` of them or more (0: no
    limit), else None."""
    if not cap:
        return None
    mine = not_under_way(session, address)
    return mine if len(mine) >= cap else None


class ImportRefusal(StrEnum):
    """Why IMPORT failed, when nothing more need be said."""

    NAME_TAKEN = "name taken"  # a game has the name already


@dataclass(frozen=True)
class Unplayable:
    """The saved game cannot be played from: `problem`, the reader's (gm.play.import_mila)."""

    problem: ImportProblem


@dataclass(frozen=True)
class Imported:
    """`game` is made from `saved`, paused at its last phase, with the sender as its GM."""

    game: GameRecord
    saved: SavedGame


def import_game(session: Session, saved: SavedGame, name: str, password: str, *,
                now: datetime, actor: str) -> Imported | Unplayable | ImportRefusal:
    """The game `name` made from `saved`, with `actor` its GM signing on with `password`."""
    from gm.play.import_mila import ImportProblem, create_imported_game  # loads the engine

    try:
        game = create_imported_game(session, saved, name=name, gm_address=actor,
                                    gm_password=password, now=now)
    except ImportProblem as problem:
        return Unplayable(problem)
    except GameNameTaken:
        return ImportRefusal.NAME_TAKEN
    return Imported(game, saved)
