"""Orders sent ahead (AHEAD) checked when the phase they were sent for opens.

A player may send, while one phase is open, orders for the next phase of a kind: retreats for
the coming retreat phase, builds for the coming adjustment phase ("if the position allows").
When the first phase of that kind after the one they were sent in opens, each order is read
against its board as an order sent then would be (the order parser, then the rules' legality
check, then the adjustment counts); the usable ones become the power's orders for the phase
(the player may still change them), and the power's players are mailed what was taken and what
could not be used, and why. Nothing unusable is applied.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.game import build_sites, orders_needed
from gm.engine.order_check import check_order
from gm.engine.orders import AnyOrder, Build, Disband, Order, Remove, Waive
from gm.engine.phase import PhaseType
from gm.mail.compose import build_subject
from gm.notation import parse_orders
from gm.play.stand_in import seat_bots
from gm.store import games as games_repo
from gm.store import orders_ahead as ahead_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord, OrderLine, PhaseRecord
from gm.variants import Variant, get_variant


def apply_opened(session: Session, game_ids: Collection[int], *, now: datetime,
                 service: str) -> list[Outgoing]:
    """Apply the orders ahead due in the open phase of each of `game_ids` (phases opened just
    now); the notices to mail."""
    seat_bots(session, game_ids, now=now)  # the bot's orders, where it plays a power
    notices: list[Outgoing] = []
    for game_id in ahead_repo.games_with_orders(session, game_ids):
        game = games_repo.get_game(session, game_id)
        phase = phases_repo.current_phase(session, game_id)
        if phase is None or phase.adjudicated:
            continue
        notices.extend(_apply(session, game, phase, now=now, service=service))
    return notices


def _apply(session: Session, game: GameRecord, phase: PhaseRecord, *, now: datetime,
           service: str) -> list[Outgoing]:
    rows = [r for r in ahead_repo.of_game(session, game.id) if r.after_index < phase.index]
    due = [r for r in rows if r.phase_type is phase.phase.type]
    # retreats and adjustments sent ahead are for the coming ones before the next movement
    # phase: a movement phase opening says none came (no unit was dislodged, no adjustment)
    lapsed = [r for r in rows if phase.phase.type is PhaseType.MOVEMENT
              and r.phase_type is not PhaseType.MOVEMENT]
    if not due and not lapsed:
        return []
    variant = get_variant(game.variant)
    name = variant.format_phase(phase.phase)
    by_power: dict[str, list[str]] = {}
    for row in due:
        by_power.setdefault(row.power, []).append(row.text)
    gone: dict[str, list[tuple[str, str]]] = {}
    for row in lapsed:
        by_power.setdefault(row.power, [])
        gone.setdefault(row.power, []).append(
            (row.text, f"no {row.phase_type.value.lower()} phase came before {name}"))
    addresses = {p.name: p.addresses for p in powers_repo.list_powers(session, game.id)}
    notices = []
    for power, texts in by_power.items():
        taken, unusable = _check(variant, phase, power, texts)
        unusable = gone.get(power, []) + unusable
        if taken:
            orders_repo.submit_orders(
                session, phase.id, power,
                [OrderLine.taken(t, o) for t, o in taken], now=now,
                game_id=game.id)
        lines = [f"Orders {power} sent ahead, checked now that {name} has opened in "
                 f"{game.name}:", ""]
        lines += [f"  {text}  ->  {order}  (taken)" for text, order in taken]
        lines += [f"  {text}  ->  not used: {why}" for text, why in unusable]
        lines += ["", "The orders taken are your orders for this phase; send orders as usual "
                  "to change them." if taken else "None was used: send your orders for this "
                  "phase as usual.", "", "-- ", service, ""]
        if addresses.get(power):
            notices.append(Outgoing(addresses[power], build_subject(
                "orders sent ahead", game=game.name, phase=name), "\n".join(lines), game.id))
    ahead_repo.remove(session, [r.id for r in (*due, *lapsed)])
    return notices


def _check(variant: Variant, phase: PhaseRecord, power: str,
           texts: list[str]) -> tuple[list[tuple[str, AnyOrder]], list[tuple[str, str]]]:
    """The orders usable on the phase's board (a later order for the same unit replaces an
    earlier), and the others with why not."""
    state = phase.state
    gmap = variant.map_for(state)
    needed = orders_needed(variant, state).get(power)
    sites = ({power: build_sites(variant, state, power)}
             if phase.phase.type is PhaseType.ADJUSTMENT else None)
    taken: dict[str, tuple[str, AnyOrder]] = {}
    unusable: list[tuple[str, str]] = []
    for text in texts:
        if needed is None:
            unusable.append((text, f"{power} has nothing to order in this phase"))
            continue
        parsed = parse_orders(text, gmap, phase.phase.type, variant.order_kinds)
        if isinstance(parsed, OrderError):
            unusable.append((text, parsed.message))
            continue
        for order in parsed:
            if isinstance(order, Order | Waive):
                checked = check_order(gmap, state, power, order, sites,
                                      army_fleet=variant.army_fleet)
                if isinstance(checked, OrderError):
                    unusable.append((text, checked.message))
                    continue
                order = checked
            key = str(order.unit) if isinstance(order, Order) else f"{order}#{len(taken)}"
            taken[key] = (text, order)
    if phase.phase.type is PhaseType.ADJUSTMENT and needed is not None:
        for kinds, allowed in (((Build, Waive), needed.builds),
                               ((Remove, Disband), needed.removals)):
            keys = [k for k, (_, o) in taken.items() if isinstance(o, kinds)]
            for key in keys[max(0, allowed):]:
                text, order = taken.pop(key)
                unusable.append((text, f"{power} may give {allowed} such order"
                                 f"{'s' if allowed != 1 else ''} this phase"))
    return list(taken.values()), unusable
