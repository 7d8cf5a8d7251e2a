"""Games for the tick, report and export tests, made through the real store repositories."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from gm.engine.phase import PhaseType
from gm.engine.state import GameState
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.passwords import hash_password
from gm.store.rows import OrderLine
from gm.store.settings import GameSettings
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.service_support import SPRING_1901

GM = "master@example.org"
SETTINGS = GameSettings(deadlines={PhaseType.MOVEMENT: timedelta(hours=48),
                                   PhaseType.RETREAT: timedelta(hours=24),
                                   PhaseType.ADJUSTMENT: timedelta(hours=24)})


def address(game: str, power: str) -> str:
    return f"{power.lower()}.{game.lower()}@example.org"


def new_game(db: Database, name: str, *, opened: datetime, deadline: datetime | None,
             settings: GameSettings = SETTINGS, state: GameState | None = None,
             variant: str = "standard") -> int:
    """An active game with a player for each power and its first phase open."""
    v = get_variant(variant)
    with db.transaction() as s:
        game = games_repo.create_game(s, name=name, variant=v.name, gm_address=GM,
                                      gm_password_hash=hash_password("gmpw"), now=opened,
                                      settings=settings, status=GameStatus.ACTIVE)
        for power in v.power_names:
            powers_repo.add_power(s, game.id, power, now=opened,
                                  addresses=[address(name, power)])
        phases_repo.open_phase(s, game.id, state or v.start_state(), now=opened,
                               deadline_at=deadline)
        return game.id


def submit(db: Database, game_id: int, orders: Mapping[str, Sequence[str]],
           now: datetime) -> None:
    """Store each power's orders for the open phase (canonical text read by the parser)."""
    with db.transaction() as s:
        phase = phases_repo.current_phase(s, game_id)
        assert phase is not None and not phase.adjudicated
        for power, lines in orders.items():
            orders_repo.submit_orders(
                s, phase.id, power, [OrderLine(text=t, canonical=t) for t in lines], now=now)


def spring_orders(without: Sequence[str] = ()) -> dict[str, list[str]]:
    return {p: list(lines) for p, lines in SPRING_1901.items() if p not in without}


def with_settings(**changes: object) -> GameSettings:
    return dataclasses.replace(SETTINGS, **changes)  # type: ignore[arg-type]


# 1901: France's army in Burgundy is dislodged in the fall (2 against 1) and retreats to
# Picardy; France and Germany build in the winter.
YEAR = (
    {"France": ["A Par - Bur", "A Mar - Spa", "F Bre - MAO"],
     "Germany": ["A Mun - Ruh", "A Ber - Mun", "F Kie - Den"],
     "Russia": ["A War - Gal", "A Mos - Ukr", "F Sev - BLA", "F StP/sc - BOT"]},
    {"France": ["A Bur H", "A Spa H", "F MAO - Por"],
     "Germany": ["A Ruh - Bur", "A Mun S A Ruh - Bur", "F Den H"],
     "Russia": ["F BOT - Swe", "A Ukr - Rum"]},
    {"France": ["A Bur - Pic"]},
    {"France": ["Build A Par", "Build F Bre"], "Germany": ["Build A Ber"],
     "Russia": ["Build A Mos", "Build F Sev"]},
)
