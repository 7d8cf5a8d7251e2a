"""`gm tick`: due phases adjudicated once, early processing, SET WAIT, reminders, grace, late
policies (HOLD, DISORDER after N, WAIT), phases nobody has a choice in, timezones; two real
`gm tick` processes at once; `gm serve` ticking on its own."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from gm.config import Config
from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.play.deadlines import deadline_after, show
from gm.policies import LatePolicy
from gm.service.clock import FixedClock
from gm.service.serve import Service
from gm.service.tick import tick
from gm.store import audit as audit_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from gm.store.models import AuditEntry, OutboundMessage
from gm.store.rows import OutboundRecord
from gm.store.statuses import GameStatus, OutboundStatus, PowerStatus
from gm.variants import get_variant
from tests.support.environment import clean_env
from tests.support.service_support import maildir_config, unwrapped
from tests.support.tick_support import (
    GM,
    SETTINGS,
    address,
    new_game,
    spring_orders,
    submit,
    with_settings,
)

pytestmark = pytest.mark.postgresql_too  # due phases found by times compared in SQL

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(hours=48)


def _config(tmp_path: Path) -> Config:
    return maildir_config(tmp_path)


def _outbox(db: Database) -> list[OutboundRecord]:
    with db.read() as s:
        return outbound_repo.list_outbound(s, limit=10_000)


def _text(record: OutboundRecord) -> str:
    return unwrapped(next(p.text for p in record.parts if p.content_type == "text/plain"))


def _subjects(db: Database, recipient: str) -> list[str]:
    return [dict(r.headers)["Subject"] for r in _outbox(db) if recipient in r.recipients]


def _phase_count(db: Database, game_id: int) -> int:
    with db.read() as s:
        return phases_repo.phase_count(s, game_id)


def test_a_due_phase_is_adjudicated_once_and_reported(database: Database,
                                                      tmp_path: Path) -> None:
    config = _config(tmp_path)
    game = new_game(database, "due", opened=T0, deadline=DEADLINE,
                    settings=with_settings(early=False))
    submit(database, game, spring_orders(), T0 + timedelta(hours=1))
    assert tick(database, config=config, clock=FixedClock(DEADLINE - timedelta(minutes=1))
                ).adjudicated == []  # orders in, but no early processing: wait for the deadline
    summary = tick(database, config=config, clock=FixedClock(DEADLINE))
    assert summary.adjudicated == [("due", "Spring 1901, Movement", "deadline")]
    with database.read() as s:
        nxt = phases_repo.current_phase(s, game)
        assert nxt is not None and nxt.index == 1 and not nxt.adjudicated
        assert nxt.phase == Phase("Fall", 1901, PhaseType.MOVEMENT)
        assert nxt.deadline_at == DEADLINE + timedelta(hours=48)  # movement: 48 hours
    reports = _outbox(database)
    assert len(reports) == 8  # seven players and the GM, one message each
    assert all(len(r.recipients) == 1 for r in reports)
    for r in reports:
        # the orders and the new position, as PNG (shown in the HTML part); no SVG attached
        # (SET PICTURES INLINE, the default); and the next deadline's calendar event first
        # (gm.play.calendar_event; the phase ended at its deadline: none is cancelled)
        assert [a.content_type for a in r.attachments] == ["text/calendar", "image/png",
                                                           "image/png"]
        assert any(p.content_type == "text/html" for p in r.parts)
        assert dict(r.headers)["Subject"] == "[due] Spring 1901, Movement: results"
    text = _text(reports[0])
    assert "A Par - Bur  (succeeds" in text
    assert "F Sev - BLA  (fails" in text and "F Ank - BLA  (fails" in text
    assert "Next phase: Fall 1901, Movement, deadline Fri 2026-03-06 12:00 UTC." in text
    # a second tick, and a third at a later time, find nothing more to do
    assert tick(database, config=config, clock=FixedClock(DEADLINE)).adjudicated == []
    assert tick(database, config=config,
                clock=FixedClock(DEADLINE + timedelta(hours=1))).adjudicated == []
    assert _phase_count(database, game) == 2 and len(_outbox(database)) == 8


def test_early_processing_unless_a_power_waits(database: Database, tmp_path: Path) -> None:
    config = _config(tmp_path)
    early = new_game(database, "early", opened=T0, deadline=DEADLINE)
    waiting = new_game(database, "waiting", opened=T0, deadline=DEADLINE)
    partial = new_game(database, "partial", opened=T0, deadline=DEADLINE)
    for game in (early, waiting):
        submit(database, game, spring_orders(), T0)
    orders = spring_orders()
    orders["Russia"] = orders["Russia"][:3]  # F StP/sc has no order: Russia is not done
    submit(database, partial, orders, T0)
    with database.transaction() as s:
        powers_repo.set_power_flags(s, waiting, "Italy", now=T0, wait=True)  # SET WAIT
    summary = tick(database, config=config, clock=FixedClock(T0 + timedelta(minutes=5)))
    assert summary.adjudicated == [("early", "Spring 1901, Movement", "every power has ordered")]
    summary = tick(database, config=config, clock=FixedClock(DEADLINE))
    assert sorted(g for g, _, _ in summary.adjudicated) == ["partial", "waiting"]


def test_reminder_once_then_grace_then_units_hold(database: Database, tmp_path: Path) -> None:
    config = _config(tmp_path)
    game = new_game(database, "late", opened=T0, deadline=DEADLINE,
                    settings=with_settings(grace=timedelta(hours=2)))
    submit(database, game, spring_orders(without=["France"]), T0)
    tick(database, config=config, clock=FixedClock(DEADLINE - timedelta(hours=13)))
    assert _outbox(database) == []  # reminders go 12 hours before the deadline
    for _ in range(2):
        tick(database, config=config, clock=FixedClock(DEADLINE - timedelta(hours=11)))
    reminders = _outbox(database)
    assert [r.recipients for r in reminders] == [(address("late", "France"),)]  # once
    assert "The deadline is Wed 2026-03-04 12:00 UTC." in _text(reminders[0])
    for _ in range(2):
        summary = tick(database, config=config, clock=FixedClock(DEADLINE + timedelta(hours=1)))
        assert summary.adjudicated == []  # in the grace period
    late = _subjects(database, address("late", "France"))
    assert late == ["[late] Spring 1901, Movement: orders due",
                    "[late] Spring 1901, Movement: orders late"]
    summary = tick(database, config=config, clock=FixedClock(DEADLINE + timedelta(hours=2)))
    assert summary.adjudicated == [("late", "Spring 1901, Movement",
                                    "deadline and grace period passed")]
    with database.read() as s:
        nxt = phases_repo.current_phase(s, game)
        assert nxt is not None
        assert {str(u) for u in nxt.state.units_of("France")} == {"A Par", "A Mar", "F Bre"}
        assert powers_repo.get_power(s, game, "France").status is PowerStatus.PLAYING  # type: ignore[union-attr]
    gm_report = [r for r in _outbox(database) if r.recipients == (GM,)]
    assert "France sent no orders: its units held." in _text(gm_report[0])


def test_civil_disorder_after_two_missed_deadlines(database: Database, tmp_path: Path) -> None:
    config = _config(tmp_path)
    settings = with_settings(late=LatePolicy.DISORDER, late_after=2)
    game = new_game(database, "cd", opened=T0, deadline=DEADLINE, settings=settings)
    submit(database, game, spring_orders(without=["France"]), T0)
    tick(database, config=config, clock=FixedClock(DEADLINE))  # first miss: units hold
    with database.read() as s:
        assert powers_repo.get_power(s, game, "France").status is PowerStatus.PLAYING  # type: ignore[union-attr]
    fall = {
        "Austria": ["A Ser H", "A Gal H", "F Alb H"], "England": ["F NTH H", "F NWG H", "A Yor H"],
        "Germany": ["A Kie H", "A Ruh H", "F Den H"], "Italy": ["A Pie H", "A Apu H", "F ION H"],
        "Russia": ["A Ukr H", "A Gal H", "F BOT H", "F Sev H"],
        "Turkey": ["A Bul H", "A Arm H", "F Ank H"],
    }
    submit(database, game, fall, DEADLINE)
    second = DEADLINE + timedelta(hours=48)
    summary = tick(database, config=config, clock=FixedClock(second))
    assert [why for _, _, why in summary.adjudicated] == ["deadline and grace period passed"]
    with database.read() as s:
        assert powers_repo.get_power(s, game, "France").status is PowerStatus.CIVIL_DISORDER  # type: ignore[union-attr]
        entries = audit_repo.audit_log(s, game_id=game, action="process")
        assert entries[-1].details["disorder"] == ["France"]
    gm_text = [_text(r) for r in _outbox(database) if r.recipients == (GM,)][-1]
    assert "France sent no orders: its units held, and it is now in civil disorder" in gm_text
    assert "GM: the late-order policy was applied to France." in gm_text


def test_wait_policy_tells_the_gm_once(database: Database, tmp_path: Path) -> None:
    config = _config(tmp_path)
    game = new_game(database, "patient", opened=T0, deadline=DEADLINE,
                    settings=with_settings(late=LatePolicy.WAIT))
    submit(database, game, spring_orders(without=["Turkey"]), T0)
    for hours in (1, 2, 30):
        summary = tick(database, config=config, clock=FixedClock(DEADLINE + timedelta(hours=hours)))
        assert summary.adjudicated == []
    assert _subjects(database, GM) == ["[patient] Spring 1901, Movement: waiting for orders"]
    [notice] = [r for r in _outbox(database) if r.recipients == (GM,)]
    assert "waits for orders from Turkey." in _text(notice)
    submit(database, game, {"Turkey": ["A Con - Bul", "A Smy - Arm", "F Ank - BLA"]}, DEADLINE)
    summary = tick(database, config=config, clock=FixedClock(DEADLINE + timedelta(hours=31)))
    assert len(summary.adjudicated) == 1


def test_a_phase_nobody_has_a_choice_in_is_resolved_at_once(database: Database,
                                                           tmp_path: Path) -> None:
    """Winter adjustments where Austria must remove its only unit and nobody else adjusts:
    no power has a choice, so the phase is resolved at the first tick, long before its
    deadline, and Austria is sent no reminder."""
    config = _config(tmp_path)
    variant = get_variant("standard")
    start = variant.start_state()
    owners = {c: p for c, p in start.owners.items() if p != "Austria"}
    units = (*(u for u in start.units if u.power != "Austria"),
             Unit("Austria", UnitType.ARMY, Location("Gal")))
    state = start.evolve(phase=Phase("Winter", 1901, PhaseType.ADJUSTMENT), units=units,
                         owners=owners)
    game = new_game(database, "forced", opened=T0, deadline=T0 + timedelta(hours=24),
                    state=state)
    summary = tick(database, config=config, clock=FixedClock(T0 + timedelta(hours=13)))
    assert summary.adjudicated == [("forced", "Winter 1901, Adjustment", "no orders needed")]
    assert summary.reminders == 0
    with database.read() as s:
        nxt = phases_repo.current_phase(s, game)
        assert nxt is not None and nxt.state.units_of("Austria") == ()
        assert nxt.phase == Phase("Spring", 1902, PhaseType.MOVEMENT)
    text = _text(_outbox(database)[0])
    assert "Austria is eliminated." in text and "Eliminated: Austria." in text


def test_deadlines_by_time_of_day_in_the_games_timezone(database: Database,
                                                       tmp_path: Path) -> None:
    settings = with_settings(timezone="Europe/Paris",
                             deadlines={**SETTINGS.deadlines, PhaseType.MOVEMENT: time(18, 0)})
    # 16:30 UTC is 17:30 in Paris (CET): 18:00 is less than an hour away, so the next day's
    opened = datetime(2026, 3, 2, 16, 30, tzinfo=UTC)
    due = deadline_after(settings, PhaseType.MOVEMENT, opened)
    assert due == datetime(2026, 3, 3, 17, 0, tzinfo=UTC)
    assert show(due, "Europe/Paris") == "Tue 2026-03-03 18:00 CET (17:00 UTC)"
    # summer time: 18:00 CEST is 16:00 UTC
    assert deadline_after(settings, PhaseType.MOVEMENT, datetime(2026, 7, 1, 8, 0, tzinfo=UTC)) \
        == datetime(2026, 7, 1, 16, 0, tzinfo=UTC)
    assert deadline_after(settings, PhaseType.RETREAT, opened) == opened + timedelta(hours=24)
    # a phase opened without a deadline under a time-of-day rule gets one at the first tick,
    # and the report shows the next deadline in the game's timezone with UTC
    config = _config(tmp_path)
    game = new_game(database, "paris", opened=opened, deadline=None, settings=settings)
    tick(database, config=config, clock=FixedClock(opened + timedelta(minutes=1)))
    with database.read() as s:
        phase = phases_repo.current_phase(s, game)
        assert phase is not None and phase.deadline_at == due
    submit(database, game, spring_orders(), opened)
    tick(database, config=config, clock=FixedClock(opened + timedelta(minutes=2)))
    text = _text(_outbox(database)[0])
    assert "Next phase: Fall 1901, Movement, deadline Tue 2026-03-03 18:00 CET (17:00 UTC)." \
        in text
    assert "Processed Mon 2026-03-02 17:32 CET (16:32 UTC)." in text


def _gm_env(url: str, data: Path) -> dict[str, str]:
    env = clean_env()
    env.update(GM_DATABASE_URL=url, GM_DATA_DIR=str(data), GM_ADDRESS="judge@example.org")
    return env


def test_two_tick_processes_at_once_adjudicate_each_phase_once(
        database: Database, migrated_url: str, tmp_path: Path) -> None:
    past = datetime.now(UTC) - timedelta(days=3)
    games = [new_game(database, f"race{i}", opened=past, deadline=past + timedelta(hours=48))
             for i in range(12)]
    for game in games:
        submit(database, game, spring_orders(), past)
    env = _gm_env(migrated_url, tmp_path)
    procs = [subprocess.Popen([sys.executable, "-m", "gm", "tick"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    done = sum(out.count("adjudicated (") for out, _ in outs)
    assert done == 12, outs
    with database.read() as s:
        processed = s.scalar(select(func.count()).select_from(AuditEntry)
                             .where(AuditEntry.action == "process"))
        reports = s.scalar(select(func.count()).select_from(OutboundMessage))
    assert processed == 12 and reports == 12 * 8
    assert all(_phase_count(database, g) == 2 for g in games)


def _sent(config: Config) -> int:
    folder = config.maildir.outbox / "new"
    return len(list(folder.iterdir())) if folder.exists() else 0


async def test_serve_ticks_on_its_own(database: Database, tmp_path: Path) -> None:
    past = datetime.now(UTC) - timedelta(days=3)
    game = new_game(database, "served", opened=past, deadline=past + timedelta(hours=48))
    config = _config(tmp_path)
    from gm.service.clock import SystemClock

    service = Service(database, config, clock=SystemClock(), tick_every=0.1)
    running = asyncio.create_task(service.run())
    try:
        for _ in range(200):
            await asyncio.sleep(0.05)
            if _phase_count(database, game) == 2 and _sent(config) == 8:
                break
    finally:
        service.stop()
        await asyncio.gather(running, return_exceptions=True)
    assert _phase_count(database, game) == 2  # nobody ordered: every unit held
    assert _sent(config) == 8  # the reports were sent
    with database.read() as s:
        from gm.store import games as games_repo

        assert games_repo.get_game(s, game).status is GameStatus.ACTIVE


def test_powers_in_civil_disorder_are_not_waited_for(database: Database,
                                                    tmp_path: Path) -> None:
    """France is in civil disorder: the others' orders are all that is waited for. A game in
    which every power is in civil disorder does not play itself: it keeps its deadlines."""
    config = _config(tmp_path)
    game = new_game(database, "orphan", opened=T0, deadline=DEADLINE)
    idle = new_game(database, "abandoned", opened=T0, deadline=DEADLINE)
    with database.transaction() as s:
        powers_repo.set_power_status(s, game, "France", PowerStatus.CIVIL_DISORDER, now=T0)
        for power in get_variant("standard").power_names:
            powers_repo.set_power_status(s, idle, power, PowerStatus.CIVIL_DISORDER, now=T0)
    submit(database, game, spring_orders(without=["France"]), T0)
    summary = tick(database, config=config, clock=FixedClock(T0 + timedelta(hours=1)))
    assert summary.adjudicated == [("orphan", "Spring 1901, Movement", "every power has ordered")]
    assert summary.reminders == 0
    assert tick(database, config=config,
                clock=FixedClock(DEADLINE - timedelta(hours=1))).adjudicated == []
    summary = tick(database, config=config, clock=FixedClock(DEADLINE))
    assert ("abandoned", "Spring 1901, Movement", "deadline") in summary.adjudicated
    assert _phase_count(database, idle) == 2


def test_gm_tick_send_sends_the_reports(database: Database, migrated_url: str,
                                        tmp_path: Path) -> None:
    past = datetime.now(UTC) - timedelta(days=3)
    new_game(database, "sent", opened=past, deadline=past + timedelta(hours=48))
    env = _gm_env(migrated_url, tmp_path)
    env["GM_MAILDIR_OUTBOX"] = str(tmp_path / "outbox")
    out = subprocess.run([sys.executable, "-m", "gm", "tick", "--send"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "sent: Spring 1901, Movement adjudicated (deadline and grace period passed)" \
        in out.stdout
    assert len(list((tmp_path / "outbox" / "new").iterdir())) == 8
    with database.read() as s:
        assert outbound_repo.list_outbound(s, status=OutboundStatus.QUEUED) == []


def test_a_winter_with_only_optional_orders_waits_for_them(database: Database,
                                                          tmp_path: Path) -> None:
    """Chaos II rule 4: in Winter 1902 Paris may make Belgium (owned since the last Winter) a
    home centre; nobody builds or removes. The phase is not resolved at once: it waits for
    Paris, and is processed early once Paris has written `Home Bel`."""
    config = _config(tmp_path)
    variant = get_variant("chaos2")
    start = variant.start_state()
    armies = [Unit(p, UnitType.ARMY, Location(c))
              for p, (c,) in start.homes.items() if c != "StP"]
    units = (*armies, Unit("Paris", UnitType.ARMY, Location("Bel")),
             Unit("St Petersburg", UnitType.FLEET, Location("StP", "nc")))
    owners = {**start.owners, "Bel": "Paris"}
    state = start.evolve(phase=Phase("Winter", 1902, PhaseType.ADJUSTMENT), units=units,
                         owners=owners, extra={"winter-owner Bel": "Paris"})
    game = new_game(database, "chaos", opened=T0, deadline=T0 + timedelta(hours=24),
                    state=state, variant="chaos2")
    assert tick(database, config=config, clock=FixedClock(T0 + timedelta(hours=1))).adjudicated \
        == []
    submit(database, game, {"Paris": ["Home Bel"]}, now=T0 + timedelta(hours=2))
    summary = tick(database, config=config, clock=FixedClock(T0 + timedelta(hours=3)))
    assert [a[0] for a in summary.adjudicated] == ["chaos"]
    with database.read() as s:
        nxt = phases_repo.current_phase(s, game)
        assert nxt is not None and nxt.phase == Phase("Spring", 1903, PhaseType.MOVEMENT)
        assert "Bel" in nxt.state.homes["Paris"]


def test_the_gms_report_from_a_tick_names_the_seats_whose_mail_bounces(
        database: Database, tmp_path: Path) -> None:
    from gm.store import address_failures

    config = _config(tmp_path)
    game = new_game(database, "bouncy", opened=T0, deadline=DEADLINE)
    italy = address("bouncy", "Italy")
    with database.transaction() as s:
        address_failures.mark(s, address_failures.Holder(game, "Italy"), italy,
                              reason="550 5.1.1 User unknown", subject="[bouncy] report",
                              sent_at=T0, now=T0 + timedelta(hours=2))
    submit(database, game, spring_orders(), T0 + timedelta(hours=1))
    assert [name for name, _, _ in tick(database, config=config,
                                        clock=FixedClock(DEADLINE)).adjudicated] == ["bouncy"]
    line = (f"GM: mail to Italy ({italy}) bouncing since Mon 2026-03-02 14:00 UTC: 550 5.1.1 "
            "User unknown. REPLACE the player, or ask them for SET ADDRESS.")
    reports = {r.recipients[0]: _text(r) for r in _outbox(database)}
    assert line in " ".join(reports[GM].split())
    assert all("bouncing" not in text for to, text in reports.items() if to != GM)
