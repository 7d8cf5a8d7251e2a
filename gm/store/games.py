"""Games: creation, lookup by name (case-insensitive), status, settings, GM, and the game lock."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gm.store.claims import claiming
from gm.store.db import plain
from gm.store.errors import GameNameTaken, NotFound
from gm.store.models import Game
from gm.store.rows import GameRecord
from gm.store.settings import GameSettings
from gm.store.statuses import GameStatus


def name_key(name: str) -> str:
    """The form under which game names are compared (case-insensitive)."""
    return name.strip().casefold()


GAMES = cast(Table, Game.__table__)  # for plain reads that skip the ORM


def to_record(row: Game | Any) -> GameRecord:
    """The record of a mapped Game or of a plain row of all its columns."""
    return GameRecord(
        id=row.id,
        name=row.name,
        variant=row.variant,
        status=row.status,
        settings=GameSettings.from_json(row.settings),
        gm_address=row.gm_address,
        gm_password_hash=row.gm_password_hash,
        created_at=row.created_at,
        updated_at=row.updated_at,
        variant_digest=row.variant_digest,
    )


def create_game(
    session: Session,
    *,
    name: str,
    variant: str,
    gm_address: str,
    gm_password_hash: str,
    now: datetime,
    settings: GameSettings | None = None,
    status: GameStatus = GameStatus.FORMING,
    variant_digest: str | None = None,
) -> GameRecord:
    """A new game; GameNameTaken if the name is in use in any letter case. `variant_digest`:
    the hash of the variant's file, for a variant read from one."""
    key = name_key(name)
    if session.scalar(select(Game.id).where(Game.name_key == key)) is not None:
        raise GameNameTaken(name)
    row = Game(
        name=name.strip(),
        name_key=key,
        variant=variant,
        variant_digest=variant_digest,
        status=status,
        settings=(settings or GameSettings()).to_json(),
        gm_address=gm_address,
        gm_password_hash=gm_password_hash,
        created_at=now,
        updated_at=now,
    )
    try:
        with session.begin_nested():  # a concurrent creator may win between check and insert
            session.add(row)
    except IntegrityError as exc:
        raise GameNameTaken(name) from exc
    return to_record(row)


def _row(session: Session, game_id: int) -> Game:
    row = session.get(Game, game_id)
    if row is None:
        raise NotFound(f"no game with id {game_id}")
    return row


# built once: every message reads its game (a statement built anew costs more than its run)
_BY_ID = select(GAMES).where(GAMES.c.id == bindparam("game_id"))
_BY_KEY = select(GAMES).where(GAMES.c.name_key == bindparam("key"))


def get_game(session: Session, game_id: int) -> GameRecord:
    """The game as stored now (one plain read)."""
    row = session.execute(_BY_ID, {"game_id": game_id}).first()
    if row is None:
        raise NotFound(f"no game with id {game_id}")
    return to_record(row)


def find_game(session: Session, name: str) -> GameRecord | None:
    """The game of this name, in any letter case."""
    row = session.execute(_BY_KEY, {"key": name_key(name)}).first()
    return None if row is None else to_record(row)


def list_games(session: Session, *, status: GameStatus | None = None) -> list[GameRecord]:
    stmt = select(Game).order_by(Game.name_key)
    if status is not None:
        stmt = stmt.where(Game.status == status)
    return [to_record(r) for r in session.scalars(stmt)]


def set_game_status(
    session: Session, game_id: int, status: GameStatus, *, now: datetime
) -> GameRecord:
    row = _row(session, game_id)
    row.status = status
    row.updated_at = now
    session.flush()
    return to_record(row)


def set_variant_digest(session: Session, game_id: int, digest: str | None, *,
                       now: datetime) -> GameRecord:
    """Record the hash of the variant file the game now plays by."""
    row = _row(session, game_id)
    row.variant_digest = digest
    row.updated_at = now
    session.flush()
    return to_record(row)


def set_game_settings(
    session: Session, game_id: int, settings: GameSettings, *, now: datetime
) -> GameRecord:
    row = _row(session, game_id)
    row.settings = settings.to_json()
    row.updated_at = now
    session.flush()
    return to_record(row)


def set_game_master(
    session: Session, game_id: int, *, address: str, password_hash: str, now: datetime
) -> GameRecord:
    row = _row(session, game_id)
    row.gm_address = address
    row.gm_password_hash = password_hash
    row.updated_at = now
    session.flush()
    return to_record(row)


def delete_game(session: Session, game_id: int) -> None:
    """Remove a game with its powers, phases, orders and press (audit entries are kept)."""
    session.delete(_row(session, game_id))
    session.flush()


def lock_game(session: Session, game_id: int, *, skip_locked: bool = False) -> bool:
    """Lock the game's row until the transaction ends; False if `skip_locked` and another
    transaction holds it. Everything that changes a game's phase or orders takes this lock."""
    stmt = claiming(select(Game.id).where(Game.id == game_id), skip_locked=skip_locked)
    if session.scalar(stmt) is not None:
        return True
    if session.scalar(select(Game.id).where(Game.id == game_id)) is None:
        raise NotFound(f"no game with id {game_id}")
    return False


def get_games(session: Session, game_ids: Collection[int]) -> dict[int, GameRecord]:
    """The games of these ids that exist, by id (one query)."""
    if not game_ids:
        return {}
    rows = session.scalars(select(Game).where(Game.id.in_(list(game_ids))))
    return {r.id: to_record(r) for r in rows}


def lock_games(session: Session, game_ids: Collection[int], *,
               skip_locked: bool = False) -> set[int]:
    """`lock_game` for many games in one statement: the ids locked (with `skip_locked`, those
    another transaction holds and those that do not exist are left out)."""
    if not game_ids:
        return set()
    rows = plain(session).execute(_LOCK_GAMES[skip_locked], {"games": sorted(game_ids)})
    return set(rows.scalars())


# built once, with and without SKIP LOCKED: taken at every message of orders' commit
# (gm.store.commit_locks) and by every tick's batch, in id order (no deadlock between them)
_LOCK_GAMES = {skip: claiming(select(GAMES.c.id).where(
    GAMES.c.id.in_(bindparam("games", expanding=True))).order_by(GAMES.c.id),
    skip_locked=skip) for skip in (False, True)}
