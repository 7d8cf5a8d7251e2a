"""Adjudicate a game's open phase and write everything that follows, in the caller's transaction.

Shared by the GM's PROCESS and by `gm tick`: the stored orders are read back through the real
order parser, the phase is advanced through every phase needing no orders, the results are
recorded (a conditional update: a phase is adjudicated once, whoever tries), the next phase is
opened with its deadline (or the game finishes), and the reports to every power, the GM and the
game's observers are built (gm.service.reports). The caller holds the game lock.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.game import GameStep, advance
from gm.engine.results import Submitted
from gm.notation import parse_order
from gm.service.deadlines import deadline_after
from gm.service.reports import (
    LateRow,
    ReportMail,
    build_view,
    choosers,
    phase_reports,
    stored_results,
)
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, OrderSetRecord, PhaseRecord, PowerRecord, PressRecord
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import Variant, get_variant

OBSERVERS_KEY = "observers"  # settings document key: addresses that get the observers' report


@dataclass(frozen=True)
class Adjudicated:
    """A phase adjudicated: its name, the step, the phase opened next (None: game over) and
    the reports to queue."""

    phase: str
    step: GameStep
    next_phase: PhaseRecord | None
    reports: list[ReportMail]


def submissions(session: Session, variant: Variant, phase: PhaseRecord,
                stored: Mapping[str, OrderSetRecord] | None = None) -> list[Submitted]:
    """Each power's latest valid orders for the phase (`stored`, if the caller read them),
    read again by the order parser."""
    gmap = variant.map_for(phase.state)
    submitted: list[Submitted] = []
    if stored is None:
        stored = orders_repo.latest_valid_orders(session, phase.id)
    for power, order_set in sorted(stored.items()):
        for line in order_set.lines:
            order = parse_order(
                line.canonical or line.text, gmap, phase.phase.type, variant.order_kinds
            )
            if isinstance(order, OrderError):
                submitted.append(Submitted(power, line.text, None, order))
            else:
                submitted.append(Submitted(power, line.text, order))
    return submitted


def playing(powers: Collection[PowerRecord]) -> list[str]:
    """The powers whose orders are waited for (not in civil disorder, resigned or out)."""
    return [p.name for p in powers if p.status is PowerStatus.PLAYING]


def observers(game: GameRecord) -> list[str]:
    value: Any = game.settings.extra.get(OBSERVERS_KEY, [])
    return [str(a) for a in value] if isinstance(value, list) else []


def adjudicate_phase(session: Session, game: GameRecord, phase: PhaseRecord, *,
                     now: datetime, service: str,
                     disorder: Collection[str] = (),
                     powers: list[PowerRecord] | None = None,
                     stored: Mapping[str, OrderSetRecord] | None = None,
                     press: Sequence[PressRecord] | None = None,
                     submitted: list[Submitted] | None = None,
                     closing: list[phases_repo.ClosedPhase] | None = None,
                     opening: list[phases_repo.NewPhase] | None = None) -> Adjudicated:
    """Adjudicate `phase` (open, of `game`, whose lock the caller holds) and open the next.

    Powers that have a choice but no orders are reported late; those in `disorder` were just
    put into civil disorder by the late policy. `powers`, `stored` (each power's latest valid
    orders for the phase), `submitted` (those orders as `submissions` reads them) and `press`
    (the game's press): as they are now, if the caller has them. `closing`: the phase's
    results are added to it, for the caller to record (`phases.close_phases`, with other
    games') before anything reads the phase again, instead of being recorded now. `opening`:
    likewise, the next phase is added to it for the caller to open (`phases.open_phases`, or
    `phases.open_next_phase` when it needs the new phase's id); the returned next phase then
    has id 0 (not stored yet)."""
    variant = get_variant(game.variant)
    if powers is None:
        powers = powers_repo.list_powers(session, game.id)
    active = playing(powers) + list(disorder)
    if submitted is None:
        submitted = submissions(session, variant, phase, stored)
    ordered = {s.power for s in submitted}
    late = [LateRow(p, p in disorder) for p in choosers(variant, phase.state, active)
            if p not in ordered]
    step = advance(variant, phase.state, submitted)
    outcomes = stored_results(step)
    results = [r for rows in outcomes for r in rows]
    if closing is None:
        phases_repo.close_phase(session, phase.id, results, now=now, events=step.events)
    else:
        closing.append((phase.id, results, step.events))
    for power in powers:  # SET WAIT holds one phase: it ends when that phase is processed
        if power.wait:
            powers_repo.set_power_flags(session, game.id, power.name, now=now, wait=False)
    nxt: PhaseRecord | None = None
    if step.state.finished:
        games_repo.set_game_status(session, game.id, GameStatus.FINISHED, now=now)
    else:
        deadline_at = deadline_after(game.settings, step.state.phase.type, now)
        if opening is None:
            nxt = phases_repo.open_next_phase(session, phase, step.state, now=now,
                                              deadline_at=deadline_at)
        else:
            opening.append((phase, step.state, deadline_at))
            nxt = PhaseRecord(id=0, game_id=game.id, index=phase.index + 1,
                              phase=step.state.phase, state=step.state, results=None,
                              events=None, opened_at=now, deadline_at=deadline_at,
                              adjudicated_at=None)
    view = build_view(variant, game, phase.state, step, now=now,
                      deadline=None if nxt is None else nxt.deadline_at, late=late,
                      service=service, playing=[p for p in playing(powers) if p not in disorder],
                      stored=outcomes)
    recipients: list[tuple[str, str | None, str]] = []
    seen: set[str] = set()
    for power in powers:
        for address in power.addresses:
            if address.lower() not in seen:
                seen.add(address.lower())
                recipients.append((address, power.name, "player"))
    for address, audience in [(game.gm_address, "gm"), *((a, "observer") for a in observers(game))]:
        if address.lower() not in seen:
            seen.add(address.lower())
            recipients.append((address, None, audience))
    if press is None:
        press = press_repo.list_press(session, game.id)
    first = step.reports[0] if step.reports else None
    reports = phase_reports(variant, view, step.state, recipients=recipients,
                            press=[p for p in press if p.phase_id == phase.id],
                            before=phase.state,
                            results=first.results if first is not None and first.played else ())
    return Adjudicated(variant.format_phase(phase.phase), step, nxt, reports)
