"""Adjudicate a game's open phase: what it gives, as a value, and writing that down.

`adjudicate_phase` reads and writes nothing: from the open phase, the game's powers and their
orders (as `submissions` reads the stored ones: the values kept when they arrived) it advances
through every phase needing no orders and gives an `Adjudication`: the results, the powers that
were late, and the phase opened next with its deadline (or the game over).
`record_adjudication` writes it in the caller's transaction (the caller holds the game lock):
the results (a conditional update: a phase is adjudicated once, whoever tries), the end of
SET WAIT, and the next phase or the finished game; `gm tick`, which records the phases of many
games at once, takes `closing` and `opening` and writes the rest with `record_game_changes`.
The reports are composed from the adjudication apart (gm.play.compose_reports).
Shared by the GM's PROCESS and by `gm tick`.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.game import GameStep, advance
from gm.engine.results import Submitted
from gm.notation import stored_order
from gm.play.deadlines import deadline_after
from gm.play.reports import LateRow, choosers, stored_results
from gm.play.stand_in import StoodIn, stand_ins
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, OrderSetRecord, PhaseRecord, PowerRecord, StoredResult
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import Variant, get_variant


@dataclass(frozen=True)
class Adjudication:
    """A phase adjudicated and not written down yet: the game and the phase as they were, the
    game's powers, the step (every phase passed through), its results as stored, the powers
    that had a choice and no orders, those put into civil disorder for it, and the phase
    opened next (not stored yet: id 0; None: the game is over), all at `at`."""

    variant: Variant
    game: GameRecord
    phase: PhaseRecord
    powers: tuple[PowerRecord, ...]
    step: GameStep
    results: tuple[tuple[StoredResult, ...], ...]  # of each phase the step passed through
    late: tuple[LateRow, ...]
    disorder: tuple[str, ...]
    next_phase: PhaseRecord | None
    at: datetime
    stood: tuple[StoodIn, ...] = ()  # the powers whose orders a stand-in gave

    @property
    def name(self) -> str:
        """The adjudicated phase's name, as the variant writes it."""
        return self.variant.format_phase(self.phase.phase)

    @property
    def playing(self) -> list[str]:
        """The powers still playing after it (not in civil disorder, resigned or out)."""
        return [p for p in playing(self.powers) if p not in self.disorder]

    @property
    def closing(self) -> phases_repo.ClosedPhase:
        """The phase's results, as `phases.close_phases` records them."""
        return (self.phase.id, [r for rows in self.results for r in rows], self.step.events)

    @property
    def opening(self) -> phases_repo.NewPhase | None:
        """The next phase, as `phases.open_phases` opens it (None: the game is over)."""
        if self.next_phase is None:
            return None
        return (self.phase, self.step.state, self.next_phase.deadline_at)


def submissions(session: Session, variant: Variant, phase: PhaseRecord,
                stored: Mapping[str, OrderSetRecord] | None = None) -> list[Submitted]:
    """Each power's latest valid orders for the phase (`stored`, if the caller read them),
    as the values kept on arrival (gm.notation.stored_order: the text is read again only for
    a line stored without its value)."""
    board = functools.cache(lambda: variant.map_for(phase.state))
    submitted: list[Submitted] = []
    if stored is None:
        stored = orders_repo.latest_valid_orders(session, phase.id)
    for power, order_set in sorted(stored.items()):
        for line in order_set.lines:
            order = stored_order(line.order, line.canonical or line.text, board,
                                 phase.phase.type, variant.order_kinds)
            if isinstance(order, OrderError):
                submitted.append(Submitted(power, line.text, None, order))
            else:
                submitted.append(Submitted(power, line.text, order))
    return submitted


def playing(powers: Collection[PowerRecord]) -> list[str]:
    """The powers whose orders are waited for (not in civil disorder, resigned or out)."""
    return [p.name for p in powers if p.status is PowerStatus.PLAYING]


def adjudicate_phase(game: GameRecord, phase: PhaseRecord, powers: Sequence[PowerRecord],
                     submitted: Sequence[Submitted], *, now: datetime,
                     disorder: Collection[str] = (),
                     session: Session | None = None) -> Adjudication:
    """Adjudicate `phase` (open, of `game`) on the orders `submitted` (as `submissions` reads
    them) by the game's `powers` (as they are now). Powers that have a choice but no orders are
    reported late; those in `disorder` were just put into civil disorder by the late policy.
    With `session`, the game's stand-ins give the orders of powers without any
    (gm.play.stand_in, which reads the last movement orders REPEAT gives again); nothing is
    written."""
    variant = get_variant(game.variant)
    active = playing(powers) + list(disorder)
    ordered = {s.power for s in submitted}
    stood: tuple[StoodIn, ...] = ()
    if session is not None:
        submitted, stood = stand_ins(session, game, phase, powers, submitted, now=now)
    by = {s.power: s.policy.value for s in stood}
    late = tuple(LateRow(p, p in disorder, by.get(p, ""))
                 for p in choosers(variant, phase.state, active) if p not in ordered)
    # powers not waited for (in civil disorder) whose orders a stand-in gave are named too
    late += tuple(LateRow(s.power, False, s.policy.value) for s in stood
                  if s.power not in {row.power for row in late})
    step = advance(variant, phase.state, submitted)
    nxt: PhaseRecord | None = None
    if not step.state.finished:
        deadline_at = deadline_after(game.settings, step.state.phase.type, now)
        nxt = PhaseRecord(id=0, game_id=game.id, index=phase.index + 1,
                          phase=step.state.phase, state=step.state, results=None,
                          events=None, opened_at=now, deadline_at=deadline_at,
                          adjudicated_at=None)
    return Adjudication(variant, game, phase, tuple(powers), step, stored_results(step), late,
                        tuple(disorder), nxt, now, stood)


def record_game_changes(session: Session, done: Adjudication) -> None:
    """What adjudicating changes besides the phases: SET WAIT ends (it holds one phase), and a
    game that is over is marked finished."""
    for power in done.powers:
        if power.wait:
            powers_repo.set_power_flags(session, done.game.id, power.name, now=done.at,
                                        wait=False)
    if done.step.state.finished:
        games_repo.set_game_status(session, done.game.id, GameStatus.FINISHED, now=done.at)


def record_adjudication(session: Session, done: Adjudication) -> PhaseRecord | None:
    """Write `done` down now: the phase's results, `record_game_changes`, and the next phase;
    the next phase as stored (None: the game is over)."""
    phase_id, results, events = done.closing
    phases_repo.close_phase(session, phase_id, results, now=done.at, events=events)
    record_game_changes(session, done)
    if done.next_phase is None:
        return None
    return phases_repo.open_next_phase(session, done.phase, done.step.state, now=done.at,
                                       deadline_at=done.next_phase.deadline_at)
