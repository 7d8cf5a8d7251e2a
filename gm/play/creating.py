"""Creating a game (CREATE <game> <variant> <password> [RULEBOOK 2000|2023], and njudge's
CREATE ?<game> <password> [<variant>]): the sender becomes the GM of a new forming game with
every power of its variant free.

`create` gives a typed outcome: `Created` (the game, its variant and rulebook), or why not:
the sender has as many forming games as an address may (`OverCap`, the service's
`max_forming_games`), the last word was a variant's name and the password is missing
(`CreateRefusal.NO_PASSWORD`), no variant has the name (`CreateRefusal.NO_VARIANT`), the
variant does not play the rulebook (`RulebookRefused`) or the name is taken
(`CreateRefusal.NAME_TAKEN`). The words of the reply are the caller's
(gm.commands.catalog.create).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.engine.rulebook import DEFAULT_RULEBOOK, RULEBOOK_KEY
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.errors import GameNameTaken
from gm.store.passwords import hash_password
from gm.store.powers import address_key
from gm.store.rows import GameRecord
from gm.store.settings import GameSettings
from gm.store.statuses import GameStatus
from gm.variants import UnknownVariant, Variant, get_variant
from gm.variants.registry import canonical_name, file_of


class CreateRefusal(StrEnum):
    """Why CREATE failed, when nothing more need be said."""

    NO_PASSWORD = "no password"  # `CREATE g Deluge II`: the variant's last word read as one
    NO_VARIANT = "no variant"  # no variant has the name written
    NAME_TAKEN = "name taken"  # a game has the name already


@dataclass(frozen=True)
class OverCap:
    """The sender has `forming`, as many games not yet started as an address may have."""

    forming: tuple[str, ...]


@dataclass(frozen=True)
class RulebookRefused:
    """`variant` plays its A/F rules, written for the default rulebook, not `rulebook`."""

    variant: Variant
    rulebook: str


@dataclass(frozen=True)
class Created:
    """`game` is created, playing `variant` under `rulebook`, with the sender as its GM."""

    game: GameRecord
    variant: Variant
    rulebook: str


CreateOutcome = Created | CreateRefusal | OverCap | RulebookRefused


def forming_games(session: Session, address: str) -> tuple[str, ...]:
    """The names of the games not yet started whose GM is `address`."""
    return tuple(g.name for g in games_repo.list_games(session, status=GameStatus.FORMING)
                 if address_key(g.gm_address) == address_key(address))


def rulebook_refused(variant: Variant, rulebook: str) -> bool:
    """Whether `variant` cannot play `rulebook`: the A/F variants' rules (Fast Ferry for
    convoys, A/F removals) are written for the default (2000) rulebook's readings."""
    return rulebook != DEFAULT_RULEBOOK and variant.army_fleet


def create(session: Session, name: str, variant: str, password: str, rulebook: str | None, *,
           now: datetime, actor: str, cap: int, inbound_id: int | None = None
           ) -> CreateOutcome:
    """The game `name` of `variant` (as written), with `actor` its GM signing on with
    `password`, playing `rulebook` (None: the default); `cap`, how many forming games one
    address may have (0: no limit)."""
    if cap:
        mine = forming_games(session, actor)
        if len(mine) >= cap:
            return OverCap(mine)
    if canonical_name(f"{variant} {password}") is not None:
        return CreateRefusal.NO_PASSWORD
    try:
        played = get_variant(variant)
    except UnknownVariant:
        return CreateRefusal.NO_VARIANT
    book = rulebook or DEFAULT_RULEBOOK
    if rulebook_refused(played, book):
        return RulebookRefused(played, book)
    # The default rulebook is not written down (a game's settings stay what they were).
    settings = None if book == DEFAULT_RULEBOOK else GameSettings(extra={RULEBOOK_KEY: book})
    try:
        game = games_repo.create_game(
            session, name=name, variant=played.name, gm_address=actor,
            gm_password_hash=hash_password(password), now=now, settings=settings,
            variant_digest=(file_of(played.name) or (None, None))[1])
    except GameNameTaken:
        return CreateRefusal.NAME_TAKEN
    for power in played.power_names:
        powers_repo.add_power(session, game.id, power, now=now)
    audit.record_action(session, actor=actor, action="create", now=now, game_id=game.id,
                        details={"variant": played.name, "rulebook": book},
                        inbound_id=inbound_id)
    return Created(game, played, book)
