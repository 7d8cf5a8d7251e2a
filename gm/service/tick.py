"""`gm tick`: adjudicate every game whose phase is due, remind late powers, apply late policy.

Safe to run from cron every minute, twice at once, or after a crash: each game is handled
under the game lock (games are taken in batches, one transaction per batch: the batch's locks
are taken at once with SKIP LOCKED on PostgreSQL, BEGIN IMMEDIATE on SQLite; the batch runs in
one savepoint, and if a game fails it runs again with each game in its own savepoint, so a
failing game is rolled back alone), its state is read again once the lock is held (for the
whole batch in a few queries), and a phase's results are recorded by a conditional update, so
a phase is adjudicated once whoever tries. The results, reports and audit entries of a batch
are written together at its end. On PostgreSQL two batches are handled at once (two threads,
each with its own connection and transaction), as two ticks at once would be.
Reminders and late notices carry a Message-ID made from the game, phase and power, so each is
queued once.

A game's open phase is adjudicated when:
- nobody has a choice to make (no power has anything to order, or all it can do is forced:
  removing every unit it has), at once;
- every playing power that has a choice has complete orders in (powers in civil disorder are
  not waited for), given since the phase opened (after a ROLLBACK the orders given before it
  stand, but only new ones make it process early), the game processes early (SET EARLY) and
  no power SET WAIT, and no power's last message had a refused order line (njudge's error
  flag: a clean message lifts it, gm.store.submissions.refused_last): `early_delay` seconds
  (the service's setting) after the last of those orders came in (`TickSummary.early_at`
  says when); or at the deadline without those conditions;
- the deadline and the grace period (SET GRACE) have passed, and the late policy (SET LATE) is
  HOLD (late powers' units hold) or DISORDER (as HOLD; after N missed deadlines in a row the
  power falls into civil disorder and is not waited for again). Under WAIT the phase waits for
  the orders or the GM's PROCESS; the GM is told once per phase.
Mail that arrived before a deadline counts for that phase however late it is read (its orders
are judged by their arrival, gm.mail.arrival): so a phase is handled at its deadline only once
the configured mail source has been read up to the time its orders close and no stored
message that arrived before then waits to be handled (gm.store.inbox_reads); until then the
game waits (`TickSummary.waiting`) and a running service reads its source at once. A phase is
processed early only once no stored message that arrived before now waits to be handled.
A game processed by hand (SET MANUAL PROCESS) waits for the GM's PROCESS in every phase where
some power has a choice; the GM is told once per phase when it is due (deadline passed, or
every power has ordered).
A power that has not ordered is reminded once per phase, `remind_before(settings)` before the
deadline (gm.play.reminders); a late power is told once when the deadline passes with a grace
period running.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.config import Config
from gm.engine.orders import Build, Disband, Order, Remove, Waive
from gm.engine.phase import PhaseType
from gm.engine.results import Submitted
from gm.mail.compose import build_subject
from gm.mail.source_keys import source_key
from gm.play.adjudicate import playing, submissions
from gm.play.calendar_event import shown_for
from gm.play.deadlines import deadline_after, grace_end
from gm.play.process_phase import orders_ahead_mail, process_phase
from gm.play.reminders import remind_before
from gm.play.render import render
from gm.play.reports import choosers, has_choice, needed_in
from gm.play.variant_watch import paused_for_its_variant
from gm.policies import LatePolicy
from gm.service import outbox
from gm.service.clock import Clock
from gm.service.late_orders import tell_late_orders
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.inbox_reads import InboxState, inbox_state
from gm.store.models import Game, OutboundMessage, PhaseRow
from gm.store.outgoing import Outgoing
from gm.store.rows import (
    GameRecord,
    OrderSetRecord,
    PhaseRecord,
    PowerRecord,
    PressRecord,
)
from gm.store.settings import MANUAL_KEY
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import Variant, get_variant

log = logging.getLogger(__name__)

ACTOR = "gm tick"
MAX_STEPS = 20  # phases one game may pass through in one tick (each needing no orders)
BATCH = 50  # games handled in one transaction
WORKERS = 2  # batches handled at once on PostgreSQL


class Why(StrEnum):
    """Why a phase was adjudicated."""

    NO_CHOICE = "no orders needed"
    EARLY = "every power has ordered"
    DEADLINE = "deadline"
    LATE = "deadline and grace period passed"


@dataclass
class TickSummary:
    """What one tick did: games looked at, phases adjudicated (game, phase, why), reminders and
    notices queued, games skipped because another worker held them, games whose due phase
    waits for the inbox to be read up to a time (game, time)."""

    examined: int = 0
    adjudicated: list[tuple[str, str, str]] = field(default_factory=list)
    reminders: int = 0
    notices: int = 0
    busy: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    waiting: list[tuple[str, datetime]] = field(default_factory=list)
    next_deadline: datetime | None = None  # the earliest deadline still to come
    # the earliest time a phase every power is ready in is processed early (the early delay)
    early_at: datetime | None = None

    def add(self, other: TickSummary) -> None:
        """Count what `other` did too."""
        self.examined += other.examined
        self.waiting.extend(other.waiting)
        self.adjudicated.extend(other.adjudicated)
        self.reminders += other.reminders
        self.notices += other.notices
        self.busy += other.busy
        self.failed.extend(other.failed)
        if other.early_at is not None:
            self.early_at = min(self.early_at or other.early_at, other.early_at)


def complete_orders(variant: Variant, phase: PhaseRecord, power: str, wrote: bool,
                    orders: Sequence[Any]) -> bool:
    """Do `orders` (a power's stored orders, as parsed) give every order the power owes this
    phase? (`wrote`: the power stored any lines)."""
    needed = needed_in(variant, phase.state).get(power)
    if needed is None:
        return True
    if needed.only_optional:  # Chaos II `Home Bel`: waited for until the power writes
        return wrote
    if phase.phase.type is PhaseType.ADJUSTMENT:
        if needed.removals:
            return sum(isinstance(o, Remove | Disband) for o in orders) >= needed.removals
        wanted = min(needed.builds, len(needed.build_sites))
        return sum(isinstance(o, Build | Waive) for o in orders) >= wanted
    ordered = {o.unit.province for o in orders if isinstance(o, Order)}
    return all(u.province in ordered for u in needed.units)


@dataclass(frozen=True)
class Standing:
    """Who owes orders in an open phase and who has them in."""

    choosers: tuple[str, ...]  # playing powers with a choice to make
    missing: tuple[str, ...]  # choosers without complete orders
    # choosers whose orders are older than the phase's opening (a ROLLBACK reopened it): they
    # stand at the deadline, but the phase is not processed early on them
    stale: tuple[str, ...]
    waiting: bool  # a power SET WAIT
    stored: dict[str, OrderSetRecord]  # each power's latest valid orders
    anyone: bool  # some power (playing or not) has a choice: the phase is not resolved at once
    submitted: list[Submitted]  # the stored orders as the parser reads them


def standing(session: Session, variant: Variant, phase: PhaseRecord,
             powers: list[PowerRecord],
             stored: dict[str, OrderSetRecord] | None = None) -> Standing:
    """Who owes orders in `phase`; `stored`: its latest valid orders, if the caller has them."""
    deciding = choosers(variant, phase.state, set(playing(powers)))
    if stored is None:
        stored = orders_repo.latest_valid_orders(session, phase.id)
    submitted = submissions(session, variant, phase, stored)  # each line parsed once
    parsed: dict[str, list[Any]] = {}
    for s in submitted:
        if s.order is not None:
            parsed.setdefault(s.power, []).append(s.order)
    missing = tuple(
        p for p in deciding
        if p not in stored or not complete_orders(
            variant, phase, p, bool(stored[p].lines), parsed.get(p, []))
    )
    stale = tuple(p for p in deciding
                  if p in stored and stored[p].submitted_at < phase.opened_at)
    waiting = any(p.wait for p in powers if p.name in deciding)
    anyone = bool(deciding) or bool(choosers(variant, phase.state, variant.power_names))
    return Standing(deciding, missing, stale, waiting, stored, anyone, submitted)


def _message_id(kind: str, phase: PhaseRecord, who: str, domain: str) -> str:
    """A Message-ID fixed by what the message is: queueing it twice queues it once."""
    digest = hashlib.sha256(who.lower().encode()).hexdigest()[:12]
    return f"<{kind}.{phase.game_id}.{phase.id}.{digest}@{domain}>"


def _queued(session: Session, message_id: str) -> bool:
    return session.scalar(
        select(OutboundMessage.id).where(OutboundMessage.message_id == message_id)) is not None


@dataclass
class Batch:
    """What a tick reads for a batch of games in a few set-based queries (the games' locks
    held), and what it writes for all of them at the end: the adjudicated phases' results, the
    phase reports and audit entries (each game's share is kept only if the game did not
    fail)."""

    games: dict[int, GameRecord]
    phases: dict[int, PhaseRecord]  # each game's last phase
    powers: dict[int, list[PowerRecord]]
    stored: dict[int, dict[str, OrderSetRecord]]  # by phase id: latest valid orders
    press: dict[int, list[PressRecord]]
    messages: list[Outgoing] = field(default_factory=list)
    entries: list[audit.NewEntry] = field(default_factory=list)
    closing: list[phases_repo.ClosedPhase] = field(default_factory=list)
    opening: list[phases_repo.NewPhase] = field(default_factory=list)

    @classmethod
    def load(cls, session: Session, game_ids: list[int]) -> Batch:
        phases = phases_repo.current_phases(session, game_ids)
        return cls(games_repo.get_games(session, game_ids), phases,
                   powers_repo.powers_of_games(session, game_ids),
                   orders_repo.latest_valid_orders_of_phases(
                       session, [p.id for p in phases.values() if not p.adjudicated]),
                   press_repo.press_of_games(session, game_ids))

    def write(self, session: Session, now: datetime, config: Config) -> None:
        phases_repo.close_phases(session, self.closing, now=now)
        phases_repo.open_phases(session, self.opening, now=now)
        # the orders sent ahead for the phases opened now
        self.messages.extend(orders_ahead_mail(
            session, [previous.game_id for previous, _, _ in self.opening], now=now,
            service=config.display_name))
        outbox.queue(session, self.messages, config=config, now=now)
        audit.record_actions(session, self.entries)
        self.forget()

    def forget(self) -> None:
        """Drop what was to be written (the games' work was rolled back)."""
        self.messages, self.entries, self.closing, self.opening = [], [], [], []


class GameTick:
    """One game's turn in a tick, inside its transaction (the game lock held)."""

    def __init__(self, session: Session, game: GameRecord, *, now: datetime, config: Config,
                 summary: TickSummary, batch: Batch | None = None,
                 inbox: InboxState | None = None) -> None:
        self.session = session
        self.inbox = inbox
        self.game = game
        self.now = now
        self.config = config
        self.summary = summary
        self.variant = get_variant(game.variant)
        self.batch = batch
        # known without asking the database (the game lock is held): the game's powers, and
        # the orders and press of its open phase (a phase opened in this tick has none)
        self.powers: list[PowerRecord] | None = None
        self.stored: dict[str, OrderSetRecord] | None = None
        self.press: list[PressRecord] | None = None
        if batch is not None:
            self.powers = batch.powers.get(game.id)
            self.press = batch.press.get(game.id)
            if game.id in batch.phases:
                self.stored = batch.stored.get(batch.phases[game.id].id)
        self.next_phase: PhaseRecord | None = None
        self.messages: list[Outgoing] = []
        self.entries: list[audit.NewEntry] = []
        # the adjudicated phase whose results are not recorded yet, and the next phase not
        # opened yet: written with the batch's, or before the next phase is looked at
        self.closing: list[phases_repo.ClosedPhase] = []
        self.opening: list[phases_repo.NewPhase] = []

    def _notice(self, kind: str, phase: PhaseRecord, address: str, subject: str,
                template: str, **values: str | list[str]) -> bool:
        """Queue a notice once per (kind, phase, address); False if it was queued before."""
        message_id = _message_id(kind, phase, address, self.config.domain)
        if _queued(self.session, message_id):
            return False
        name = self.variant.format_phase(phase.phase)
        body = render(template, game=self.game.name, service=self.config.display_name,
                      phase=name, **values)
        outbox.queue_one(self.session, Outgoing(
            (address,), build_subject(subject, game=self.game.name, phase=name), body,
            self.game.id, message_id=message_id), config=self.config, now=self.now)
        return True

    def run(self) -> None:
        """Act on the game's open phase, and on each next one that is due already; the reports
        and audit entries go to the batch (written with the other games'), or are written now."""
        phase: PhaseRecord | None
        if self.batch is not None:
            phase = self.batch.phases.get(self.game.id)
        else:
            phase = phases_repo.current_phase(self.session, self.game.id)
        for _ in range(MAX_STEPS):
            if phase is None or phase.adjudicated:
                break
            phase = self.write_phases() or phase  # stored now, if it was opened just now
            if not self.step(phase):
                break
            phase = self.next_phase  # None: the game is over
            self.stored, self.press = {}, []  # a phase opened just now: no orders, no press
        if self.batch is not None:
            self.batch.closing.extend(self.closing)
            self.batch.opening.extend(self.opening)
            self.batch.messages.extend(self.messages)
            self.batch.entries.extend(self.entries)
        else:
            self.write_phases()
            outbox.queue(self.session, self.messages, config=self.config, now=self.now)
            audit.record_actions(self.session, self.entries)

    def step(self, phase: PhaseRecord) -> bool:
        """Act on the open phase; True if it was adjudicated and the next may be due too."""
        settings = self.game.settings
        if phase.deadline_at is None and settings.deadlines.get(phase.phase.type) is not None:
            # a phase opened without one (a time-of-day rule before this version): set it now
            phase = phases_repo.set_deadline(
                self.session, phase.id,
                deadline_after(settings, phase.phase.type, phase.opened_at))
        powers = self.powers
        if powers is None:
            powers = self.powers = powers_repo.list_powers(self.session, self.game.id)
        stand = standing(self.session, self.variant, phase, powers, self.stored)
        deadline = phase.deadline_at
        if not stand.anyone:
            return self.adjudicate(phase, Why.NO_CHOICE, powers, stand)
        if settings.extra.get(MANUAL_KEY):  # SET MANUAL PROCESS: the GM's PROCESS does it
            # (who is missing at the deadline is told once the mail of before it is read)
            if deadline is None or self.now < deadline or not self.mail_waiting(deadline):
                self.hold_for_gm(phase, stand, powers, deadline)
            return False
        # early only when someone plays: a game of powers in civil disorder keeps its deadlines
        if (stand.choosers and not stand.missing and not stand.stale and not stand.waiting
                and settings.early and not self.mail_waiting(self.now, stored_only=True)
                and not orders_repo.refused_last(self.session, phase.id)):
            # `early_delay` after the last orders: a correction sent just after still counts
            due = self.early_due(stand)
            if self.now >= due:
                return self.adjudicate(phase, Why.EARLY, powers, stand)
            if deadline is None or due < deadline:
                self.summary.early_at = min(self.summary.early_at or due, due)
        if deadline is None:
            return False
        if self.now < deadline:
            self.remind(phase, stand, powers, deadline)
            return False
        # the mail that arrived until the orders closed is read first: it may hold orders (or,
        # while the grace period runs, tell who is late)
        closes = grace_end(settings, phase.id, deadline)
        if self.mail_waiting(closes if stand.missing and self.now >= closes else deadline):
            return False
        if not stand.missing:
            return self.adjudicate(phase, Why.DEADLINE, powers, stand)
        if self.now < closes:
            self.tell_late(phase, stand, powers, closes)
            return False
        if settings.late is LatePolicy.WAIT:
            self.tell_gm_waiting(phase, stand)
            return False
        disorder: list[str] = []
        if settings.late is LatePolicy.DISORDER:
            disorder = self.fall_into_disorder(phase, stand.missing)
            powers = self.powers = powers_repo.list_powers(self.session, self.game.id)
            if disorder:
                self.offer_standby(phase, disorder)
        return self.adjudicate(phase, Why.LATE, powers, stand, disorder)

    def early_due(self, stand: Standing) -> datetime:
        """When a phase every power is ready in is processed early: `early_delay` seconds
        after the last of their orders came in."""
        last = max((stand.stored[p].submitted_at for p in stand.choosers if p in stand.stored),
                   default=self.now)
        return last + timedelta(seconds=self.config.early_delay)

    def mail_waiting(self, until: datetime, *, stored_only: bool = False) -> bool:
        """Whether mail that arrived up to `until` may not all be handled yet (`stored_only`:
        only what is stored and waits); the game then waits for it."""
        inbox = self.inbox
        if inbox is None:
            return False
        behind = inbox.unhandled_before(until) if stored_only else inbox.behind(until)
        if behind:
            self.summary.waiting.append((self.game.name, until))
        return behind

    def write_phases(self) -> PhaseRecord | None:
        """Record the results of the phase adjudicated last and open the next, if not done
        yet: the next phase as stored (with its id), or None if there was nothing to do."""
        phases_repo.close_phases(self.session, self.closing, now=self.now)
        opened = None
        for previous, state, deadline_at in self.opening:
            opened = phases_repo.open_next_phase(self.session, previous, state, now=self.now,
                                                 deadline_at=deadline_at)
        self.closing, self.opening = [], []
        if opened is not None:
            ahead = orders_ahead_mail(self.session, [self.game.id], now=self.now,
                                      service=self.config.display_name)
            if ahead:  # orders sent ahead became orders of the phase: read them again
                self.messages.extend(ahead)
                self.stored = None
        return opened

    def adjudicate(self, phase: PhaseRecord, why: Why, powers: list[PowerRecord],
                   stand: Standing, disorder: list[str] | None = None) -> bool:
        # the phases and the audit entry are recorded with the batch's, or before the next
        # phase is looked at (`later=self`)
        processed = process_phase(
            self.session, self.game, phase, now=self.now, actor=ACTOR,
            service=self.config.display_name, why=why.value, powers=powers,
            submitted=stand.submitted, press=self.press, disorder=disorder or (), later=self)
        self.messages.extend(processed.mail)
        done = processed.done
        self.summary.adjudicated.append((self.game.name, done.name, why.value))
        nxt = self.next_phase = done.next_phase
        # look at the next phase in this tick only if it may be due already: nobody has a
        # choice in it (it is resolved at once), or it has no deadline in the future
        return nxt is not None and (
            not choosers(self.variant, nxt.state, self.variant.power_names)
            or nxt.deadline_at is None or nxt.deadline_at <= self.now)

    def remind(self, phase: PhaseRecord, stand: Standing, powers: list[PowerRecord],
               deadline: datetime) -> None:
        before = remind_before(self.game.settings)
        if before <= timedelta(0) or self.now < deadline - before:
            return
        for power in powers:
            if power.name not in stand.missing:
                continue
            for address in power.addresses:
                if self._notice("remind", phase, address, "orders due",
                                "report/reminder-player.txt.j2", power=power.name,
                                deadline=shown_for(self.game.settings, address, deadline)):
                    self.summary.reminders += 1

    def tell_late(self, phase: PhaseRecord, stand: Standing, powers: list[PowerRecord],
                  until: datetime) -> None:
        policy = self.game.settings.late.value
        for power in powers:
            if power.name not in stand.missing:
                continue
            for address in power.addresses:
                if self._notice("late", phase, address, "orders late",
                                "report/late-player.txt.j2", power=power.name,
                                until=shown_for(self.game.settings, address, until),
                                policy=policy):
                    self.summary.notices += 1

    def hold_for_gm(self, phase: PhaseRecord, stand: Standing, powers: list[PowerRecord],
                    deadline: datetime | None) -> None:
        """A game processed by hand: late powers are reminded as usual, and the GM is told
        once per phase when it is due (its deadline passed, or every power has ordered)."""
        late = deadline is not None and self.now >= deadline
        if deadline is not None and not late:
            self.remind(phase, stand, powers, deadline)
        ordered = bool(stand.choosers) and not stand.missing and not stand.stale
        if (late or ordered) and self._notice(
                "manual", phase, self.game.gm_address, "ready for PROCESS",
                "report/manual-gm.txt.j2", missing=list(stand.missing),
                late="yes" if late else ""):
            self.summary.notices += 1

    def tell_gm_waiting(self, phase: PhaseRecord, stand: Standing) -> None:
        if self._notice("waiting", phase, self.game.gm_address, "waiting for orders",
                        "report/waiting-gm.txt.j2", missing=list(stand.missing)):
            self.summary.notices += 1

    def offer_standby(self, phase: PhaseRecord, fallen: list[str]) -> None:
        """Tell the GM which powers fell into civil disorder, with who stands by to take
        them over (STANDBY; REPLACE <power> STANDBY)."""
        from gm.play.standing_by import standing_by

        if self._notice("standby", phase, self.game.gm_address, "civil disorder",
                        "report/standby-gm.txt.j2", powers=fallen,
                        ready=standing_by(self.session, self.game.id)):
            self.summary.notices += 1

    def fall_into_disorder(self, phase: PhaseRecord, late: tuple[str, ...]) -> list[str]:
        """The late powers that reach the game's count of missed deadlines in a row (this one
        included) fall into civil disorder (SET LATE DISORDER n)."""
        limit = max(1, self.game.settings.late_after)
        history = [p for p in phases_repo.history(self.session, self.game.id)
                   if p.adjudicated and p.index < phase.index]
        sets = orders_repo.order_sets_for_game(self.session, self.game.id)
        fallen = []
        for power in late:
            missed = 1
            for past in reversed(history):
                if missed >= limit:
                    break
                if not has_choice(self.variant, past.state, power):
                    continue
                if any(s.power == power and s.valid for s in sets.get(past.id, ())):
                    break
                missed += 1
            if missed >= limit:
                powers_repo.set_power_status(self.session, self.game.id, power,
                                             PowerStatus.CIVIL_DISORDER, now=self.now)
                fallen.append(power)
        return fallen


def candidates(db: Database, limit: int | None = None) -> list[int]:
    """Active games with an open phase (the tick looks at each)."""
    with db.read() as session:
        stmt = (select(Game.id).join(PhaseRow, PhaseRow.game_id == Game.id)
                .where(Game.status == GameStatus.ACTIVE, PhaseRow.adjudicated_at.is_(None))
                .order_by(PhaseRow.deadline_at, Game.id))
        if limit is not None:
            stmt = stmt.limit(limit)
        return list(dict.fromkeys(session.scalars(stmt)))


def tick_game(session: Session, game_id: int, *, now: datetime, config: Config,
              summary: TickSummary, batch: Batch | None = None,
              inbox: InboxState | None = None) -> None:
    """One game, in the caller's transaction: skipped if another worker holds it. With `batch`,
    the caller locked the game and read it with the others, and writes its reports later."""
    if batch is None:
        if not games_repo.lock_game(session, game_id, skip_locked=True):
            summary.busy += 1
            return
        game = games_repo.get_game(session, game_id)
    elif game_id in batch.games:
        game = batch.games[game_id]
    else:
        return  # deleted since the tick listed it
    if game.status is not GameStatus.ACTIVE:
        return
    if paused_for_its_variant(session, game, now=now, service=config.display_name,
                              domain=config.domain, operator=config.operator):
        summary.notices += 1
        return
    GameTick(session, game, now=now, config=config, summary=summary, batch=batch,
             inbox=inbox).run()


def tick_batch(session: Session, game_ids: list[int], *, now: datetime, config: Config,
               summary: TickSummary, inbox: InboxState | None = None) -> None:
    """Many games in the caller's transaction: locked at once (those another worker holds are
    skipped), read in a few queries, handled together in one savepoint (if any game fails, that
    is rolled back and the batch runs again with each game in its own savepoint: a game that
    fails is rolled back alone), and the reports and audit entries of all written together at
    the end."""
    locked = games_repo.lock_games(session, game_ids, skip_locked=True)
    gone = set(game_ids) - locked - set(games_repo.get_games(session, set(game_ids) - locked))
    batch = Batch.load(session, [g for g in game_ids if g in locked])
    trial = TickSummary()
    try:
        with session.begin_nested():  # two statements for the batch, not two for each game
            _tick_games(session, game_ids, locked, gone, batch, now=now, config=config,
                        summary=trial, alone=False, inbox=inbox)
    except Exception:  # some game failed: find which, and keep the others' work
        batch.forget()
        _tick_games(session, game_ids, locked, gone, batch, now=now, config=config,
                    summary=summary, alone=True, inbox=inbox)
    else:
        summary.add(trial)
    batch.write(session, now, config)


def _tick_games(session: Session, game_ids: list[int], locked: set[int], gone: set[int],
                batch: Batch, *, now: datetime, config: Config, summary: TickSummary,
                alone: bool, inbox: InboxState | None) -> None:
    """`tick_batch`'s games, in order; `alone`: each in its own savepoint, a failure logged
    and rolled back alone (otherwise a failure is raised)."""
    for game_id in game_ids:
        summary.examined += 1
        if game_id not in locked:
            if game_id not in gone:
                summary.busy += 1
            continue
        if not alone:
            tick_game(session, game_id, now=now, config=config, summary=summary, batch=batch,
                      inbox=inbox)
            continue
        kept = (len(batch.messages), len(batch.entries), len(summary.adjudicated),
                len(batch.closing), len(batch.opening), len(summary.waiting))
        try:
            with session.begin_nested():
                tick_game(session, game_id, now=now, config=config, summary=summary, batch=batch,
                          inbox=inbox)
        except Exception as exc:  # one game's fault must not stop the others
            log.exception("tick: game %s failed", game_id)
            del batch.messages[kept[0]:], batch.entries[kept[1]:], summary.adjudicated[kept[2]:]
            del batch.closing[kept[3]:], batch.opening[kept[4]:], summary.waiting[kept[5]:]
            summary.failed.append((str(game_id), f"{type(exc).__name__}: {exc}"))


def tick(db: Database, *, config: Config, clock: Clock, limit: int | None = None,
         progress: Callable[[int, int], None] | None = None,
         batch: int = BATCH, workers: int | None = None,
         wait_for_mail: bool = True) -> TickSummary:
    """One tick over every active game (see the module docstring). Games are handled `batch`
    to a transaction (one commit for many games; see `tick_batch`). On PostgreSQL `workers`
    (default WORKERS) batches run at once, each in its own transaction and connection, so one
    batch's work is done here while the server writes another's; on SQLite, whose writers
    take turns, one at a time. Without `wait_for_mail`, due phases do not wait for the
    configured source to be read (it is no longer read: mail comes by `gm ingest`)."""
    ids = candidates(db, limit)
    with db.read() as session:
        inbox = inbox_state(session, source_key(config) if wait_for_mail else None)
    chunks = [ids[first:first + batch] for first in range(0, len(ids), batch)]
    if workers is None:
        workers = 1 if db.dialect == "sqlite" else WORKERS

    def run(chunk: list[int]) -> TickSummary:
        part = TickSummary()
        with db.transaction() as session:
            tick_batch(session, chunk, now=clock.now(), config=config, summary=part,
                       inbox=inbox)
        return part

    summary = TickSummary()
    done = 0
    with contextlib.ExitStack() as stack:
        parts: Iterator[TickSummary] = map(run, chunks)
        if workers > 1 and len(chunks) > 1:  # the batches' games are disjoint
            pool = stack.enter_context(ThreadPoolExecutor(workers, "gm-tick"))
            parts = pool.map(run, chunks)
            # a batch that fails stops the tick, as it does one batch at a time: the batches
            # not started yet are not started
            stack.callback(pool.shutdown, cancel_futures=True)
        for chunk, part in zip(chunks, parts, strict=True):  # in order, as each is committed
            summary.add(part)
            done += len(chunk)
            if progress is not None:
                progress(done, len(ids))
    with db.transaction() as session:  # one notice a phase of the orders read late
        summary.notices += tell_late_orders(session, config, clock.now())
    with db.read() as session:
        summary.next_deadline = phases_repo.next_deadline(session, clock.now())
    return summary
