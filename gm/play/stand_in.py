"""Stand-ins: who gives the orders of a power that has none when its phase is adjudicated.

The GM chooses a policy for the game and for single powers (SET STANDIN [<power>] HOLD |
DEFEND | REPEAT | BOT), a player for their own power (SET STANDIN ... after their SIGNON, for
the days away or any deadline they miss); the player's choice comes first, then the GM's for
the power, then the game's, else HOLD (gm.bot.policies says what each gives). A power the GM
seated the bot in (ADD <power> BOT) is played by the bot: its orders are stored as the power's
orders when each phase opens (`seat_bots`, the same path as a player's orders), and BOT stands
in for it if they are missing at the deadline.

A stand-in plays for every power with a choice and no orders at the deadline: late, in civil
disorder, or away. Its orders go to the adjudication as the power's; the report says which
power's orders a stand-in gave (a late power's, which every report names already: nothing
tells whether a power has a player, and a seated bot is reported as a player).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gm.bot.policies import StandIn, policy_orders
from gm.engine.game import orders_needed
from gm.engine.orders import AnyOrder, Order
from gm.engine.phase import PhaseType
from gm.engine.results import Submitted
from gm.notation import parse_order
from gm.play.absences import holding
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, OrderLine, PhaseRecord, PowerRecord
from gm.store.settings import GameSettings
from gm.variants import Variant, get_variant

STANDIN_KEY = "standin"  # settings document: {"": game's policy, power: GM's, "!power": player's}
BOTS_KEY = "bots"  # settings document: the powers the GM seated the bot in


@dataclass(frozen=True)
class StoodIn:
    """A power whose orders a stand-in gave, with the policy and the orders."""

    power: str
    policy: StandIn
    orders: tuple[str, ...]


def _read(value: Any) -> StandIn | None:
    try:
        return StandIn(str(value).upper())
    except ValueError:
        return None


def choices(settings: GameSettings) -> dict[str, str]:
    """The stored choices (key "" the game's, a power's name the GM's for it, "!" and a power's
    name its player's)."""
    value: Any = settings.extra.get(STANDIN_KEY, {})
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def with_choice(settings: GameSettings, key: str, policy: StandIn | None) -> dict[str, Any]:
    """The settings' extra document with `policy` chosen under `key` (None: the choice
    removed)."""
    chosen = choices(settings)
    if policy is None:
        chosen.pop(key, None)
    else:
        chosen[key] = policy.value
    return {**settings.extra, STANDIN_KEY: chosen}


def bots(settings: GameSettings) -> list[str]:
    """The powers the GM seated the bot in."""
    value: Any = settings.extra.get(BOTS_KEY, [])
    return [str(p) for p in value] if isinstance(value, list) else []


def with_bot(settings: GameSettings, power: str, seated: bool) -> dict[str, Any]:
    """The settings' extra document with the bot seated in `power` or not."""
    kept = [p for p in bots(settings) if p != power] + ([power] if seated else [])
    return {**settings.extra, BOTS_KEY: kept}


def seated_bots(settings: GameSettings, powers: Sequence[PowerRecord]) -> list[str]:
    """The powers the bot plays: seated by the GM, and no player seated since."""
    chosen = bots(settings)
    return [p.name for p in powers if p.name in chosen and not p.addresses]


def policy_for(settings: GameSettings, power: str, *, bot: bool = False,
               at: datetime | None = None) -> StandIn:
    """The stand-in for `power`: BOT where the bot plays it (`bot`), else the stand-in of an
    absence of its player that holds `at` (SET ABSENCE ... STANDIN), the player's choice, the
    GM's for the power, the game's, else HOLD."""
    if bot:
        return StandIn.BOT
    if at is not None:
        for absence in holding(settings, at):
            away = _read(absence.stand_in) if absence.power == power else None
            if away is not None:
                return away
    chosen = choices(settings)
    for key in (f"!{power}", power, ""):
        policy = _read(chosen.get(key))
        if policy is not None:
            return policy
    return StandIn.HOLD


def last_movement_orders(session: Session, variant: Variant, game_id: int, before: int,
                         power: str) -> list[AnyOrder]:
    """`power`'s orders of the last movement phase adjudicated before phase index `before`,
    as its results record them."""
    for record in reversed(phases_repo.history(session, game_id)):
        if record.index >= before or record.results is None \
                or record.phase.type is not PhaseType.MOVEMENT:
            continue
        gmap = variant.map_for(record.state)
        found: list[AnyOrder] = []
        for result in record.results:
            if result.power != power or not result.canonical:
                continue
            order = parse_order(result.canonical, gmap, PhaseType.MOVEMENT, variant.order_kinds)
            if isinstance(order, Order):
                found.append(order)
        return found
    return []


def stand_ins(session: Session, game: GameRecord, phase: PhaseRecord,
              powers: Sequence[PowerRecord], submitted: Sequence[Submitted], *,
              now: datetime) -> tuple[list[Submitted], tuple[StoodIn, ...]]:
    """`submitted` with the stand-ins' orders added for each power that has a choice in `phase`
    and no orders in `submitted` (`powers`: the game's; `now`: when it is adjudicated, which
    absences hold); which powers' orders a stand-in gave."""
    variant = get_variant(game.variant)
    playing_bots = seated_bots(game.settings, powers)
    state = phase.state
    ordered = {s.power for s in submitted}
    added = list(submitted)
    stood: list[StoodIn] = []
    for power, needed in orders_needed(variant, state).items():
        if power in ordered or needed.only_optional:
            continue
        policy = policy_for(game.settings, power, bot=power in playing_bots, at=now)
        if policy is StandIn.HOLD:
            continue
        last = (last_movement_orders(session, variant, game.id, phase.index, power)
                if policy is StandIn.REPEAT else ())
        orders = policy_orders(policy, variant, state, power, last,
                               seated=power in playing_bots)
        if not orders:
            continue
        added.extend(Submitted(power, str(o), o) for o in orders)
        stood.append(StoodIn(power, policy, tuple(str(o) for o in orders)))
    return added, tuple(stood)


def seat_bots(session: Session, game_ids: Collection[int], *, now: datetime) -> None:
    """Store the bot's orders as its power's orders in the open phase of each of `game_ids`
    where the GM seated it and the power has none yet."""
    for game_id in game_ids:
        phase = phases_repo.current_phase(session, game_id)
        if phase is None or phase.adjudicated:
            continue
        game = games_repo.get_game(session, game_id)
        if not bots(game.settings):
            continue
        seated = seated_bots(game.settings, powers_repo.list_powers(session, game_id))
        if seated:
            play_bots(session, game, phase, seated, now=now)


def play_bots(session: Session, game: GameRecord, phase: PhaseRecord, seated: Sequence[str],
              *, now: datetime, stored: Mapping[str, object] | None = None) -> list[str]:
    """Store the bot's orders for each power of `seated` that has a choice and no orders in
    `phase` (one whose only orders are optional too: the bot is its player, it may designate
    homes and declare alliances, Chaos II rules 4-6); the powers it ordered for."""
    variant = get_variant(game.variant)
    if stored is None:
        stored = orders_repo.latest_valid_orders(session, phase.id)
    needed = orders_needed(variant, phase.state)
    done = []
    for power in seated:
        if power not in needed or power in stored:
            continue
        orders = policy_orders(StandIn.BOT, variant, phase.state, power, seated=True)
        lines = [OrderLine.taken(str(o), o) for o in orders]  # the value kept, as on arrival
        if not lines:
            continue
        orders_repo.submit_orders(session, phase.id, power, lines, now=now, game_id=game.id)
        done.append(power)
    return done
