"""Process a game's open phase: the one path of the GM's PROCESS and of the deadline (`gm tick`).

`process_phase` adjudicates the phase (gm.play.adjudicate), records it, composes its reports
(gm.play.compose_reports), logs it, and applies the orders sent ahead for the phase it opened
(gm.play.orders_ahead); it gives a `PhaseProcessed`: the adjudication, the audit entry and
the mail to send. The caller holds the game lock. With `later` (`gm tick`, which records the
phases of many games at once), the phase's results, the next phase and the audit entry are
handed to `later` to be written with the others', and the orders sent ahead are applied once
the next phase is written (`orders_ahead_mail`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sqlalchemy.orm import Session

from gm.engine.results import Submitted
from gm.play.adjudicate import (
    Adjudication,
    adjudicate_phase,
    record_adjudication,
    record_game_changes,
    submissions,
)
from gm.play.bouncing import bouncing_lines
from gm.play.compose_reports import compose_reports
from gm.play.orders_ahead import apply_opened
from gm.store import audit
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord, PhaseRecord, PowerRecord, PressRecord
from gm.variants import get_variant


class Later(Protocol):
    """What is written later, with other games' (`gm tick`'s batch): phases closed and
    opened, and audit entries."""

    closing: list[phases_repo.ClosedPhase]
    opening: list[phases_repo.NewPhase]
    entries: list[audit.NewEntry]


@dataclass(frozen=True)
class PhaseProcessed:
    """A phase processed: its adjudication (results, late powers, the next phase or the game
    over), the audit entry, the next phase as stored (None: the game is over, or it is
    written later), and the mail to send (the reports, then the notices of orders sent
    ahead)."""

    done: Adjudication
    entry: audit.NewEntry
    opened: PhaseRecord | None
    mail: tuple[Outgoing, ...]

    @property
    def name(self) -> str:
        """The processed phase's name, as the variant writes it."""
        return self.done.name

    @property
    def finished(self) -> bool:
        """Whether the game is over with it."""
        return self.done.step.state.finished

    @property
    def next_name(self) -> str:
        """The name of the phase the game is in now (the last one passed through if over)."""
        return self.done.variant.format_phase(self.done.step.state.phase)


def process_phase(session: Session, game: GameRecord, phase: PhaseRecord, *, now: datetime,
                  actor: str, service: str, why: str | None = None,
                  powers: Sequence[PowerRecord] | None = None,
                  submitted: Sequence[Submitted] | None = None,
                  press: Sequence[PressRecord] | None = None,
                  disorder: Collection[str] = (), inbound_id: int | None = None,
                  later: Later | None = None) -> PhaseProcessed:
    """Process `phase` (the open phase of `game`) at `now` for `actor` (`why`: the reason the
    deadline gives; None for the GM's PROCESS). `powers`, `submitted` (as
    `adjudicate.submissions` reads them) and `press` are read if not given; `disorder`: the
    powers just put into civil disorder by the late policy; `inbound_id`: the message asking
    for it. With `later`, the phases and the audit entry are written later (see the module
    docstring); otherwise now."""
    if powers is None:
        powers = powers_repo.list_powers(session, game.id)
    if submitted is None:
        submitted = submissions(session, get_variant(game.variant), phase)
    done = adjudicate_phase(game, phase, powers, submitted, now=now, disorder=disorder,
                            session=session)
    opened = None
    if later is None:
        opened = record_adjudication(session, done)
    else:
        record_game_changes(session, done)
        later.closing.append(done.closing)
        if done.opening is not None:
            later.opening.append(done.opening)
    if press is None:
        press = press_repo.list_press(session, game.id)
    reports = compose_reports(done, press, service=service,
                              bouncing=bouncing_lines(session, game), session=session)
    details: dict[str, object] = {"phase": done.name}
    if why is not None:
        details.update(why=why, disorder=list(disorder))
    entry = audit.NewEntry(actor=actor, action="process", at=now, game_id=game.id,
                           game_name=game.name, details=details, inbound_id=inbound_id)
    mail = list(reports)
    if later is None:
        audit.record_actions(session, [entry])
        if done.next_phase is not None:
            mail.extend(orders_ahead_mail(session, [game.id], now=now, service=service))
    else:
        later.entries.append(entry)
    return PhaseProcessed(done, entry, opened, tuple(mail))


def orders_ahead_mail(session: Session, game_ids: Collection[int], *, now: datetime,
                      service: str) -> list[Outgoing]:
    """The orders sent ahead for the phases just opened in `game_ids`, applied; the mail
    telling the powers (gm.play.orders_ahead)."""
    return apply_opened(session, game_ids, now=now, service=service)
