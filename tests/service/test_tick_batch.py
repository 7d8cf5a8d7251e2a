"""A tick's batch: the games of one transaction run together; when one of them fails, its work
is rolled back alone and the others' phases, reports and audit entries are kept; each phase's
map picture is stored once for all its reports."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, update

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.models import AuditEntry, Game, OutboundFile
from gm.variants import get_variant
from tests.support.service_support import maildir_config
from tests.support.tick_support import address, new_game, spring_orders, submit, with_settings

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(hours=48)


def test_a_failing_game_is_rolled_back_alone_and_the_batch_goes_on(database: Database,
                                                                     tmp_path: Path) -> None:
    ids = {}
    for name in ("first", "broken", "third"):
        ids[name] = new_game(database, name, opened=T0, deadline=DEADLINE,
                             settings=with_settings(early=False))
        submit(database, ids[name], spring_orders(), T0 + timedelta(hours=1))
    with database.transaction() as s:  # a variant this gm does not know: the game fails
        s.execute(update(Game).where(Game.id == ids["broken"]).values(variant="nosuch"))
    summary = tick(database, config=maildir_config(tmp_path), clock=FixedClock(DEADLINE))
    assert summary.examined == 3
    assert summary.adjudicated == [("first", "Spring 1901, Movement", "deadline"),
                                   ("third", "Spring 1901, Movement", "deadline")]
    assert [game for game, _ in summary.failed] == [str(ids["broken"])]
    with database.read() as s:
        # the first game had been adjudicated when the second failed: done again, it still
        # has one phase adjudicated and the next open, and its reports are queued once
        for name, game in ids.items():
            current = phases_repo.current_phase(s, game)
            assert current is not None and not current.adjudicated
            assert current.index == (0 if name == "broken" else 1)
            assert phases_repo.phase_count(s, game) == current.index + 1
        reports = outbound_repo.list_outbound(s, limit=100)
        assert s.scalar(select(func.count()).select_from(AuditEntry)) == 2
        # the pictures of each adjudicated phase (orders and position, PNG; SET PICTURES
        # INLINE, the default) are stored once, attached to its eight reports (each report's
        # calendar event, gm.play.calendar_event, is its own)
        assert s.scalar(select(func.count()).select_from(OutboundFile)) == 2 * 2 + 16
        assert sum(data.startswith(b"BEGIN:VCALENDAR")
                   for data in s.scalars(select(OutboundFile.data))) == 16
    recipients = {r.recipients[0] for r in reports}
    assert len(reports) == 16
    assert address("first", "France") in recipients and address("third", "Italy") in recipients
    assert not any("broken" in r for r in recipients)
    pictures = {r.attachments[-1].svg or b"" for r in reports}  # the PNG, drawn from it
    assert len(pictures) == 2 and all(b"<svg" in p for p in pictures)


def test_a_phase_opened_by_the_tick_and_nobody_has_a_choice_in_is_resolved_in_the_same_tick(
        database: Database, tmp_path: Path) -> None:
    """Fall 1901: Austria has one army and no centre, so in the winter it must remove the
    army and nobody else adjusts: nobody has a choice (a removal of every unit is forced).
    The tick adjudicates the fall, then opens the winter and resolves it at once: two phases,
    each recorded once, each with its reports and its own picture."""
    variant = get_variant("standard")
    start = variant.start_state()
    units = (*(u for u in start.units if u.power != "Austria"),
             Unit("Austria", UnitType.ARMY, Location("Gal")))
    state = start.evolve(phase=Phase("Fall", 1901, PhaseType.MOVEMENT), units=units,
                         owners={c: p for c, p in start.owners.items() if p != "Austria"})
    game = new_game(database, "forced", opened=T0, deadline=DEADLINE, state=state)
    holds: dict[str, list[str]] = {}
    for unit in units:
        holds.setdefault(unit.power, []).append(f"{unit} H")
    submit(database, game, holds, T0 + timedelta(hours=1))
    summary = tick(database, config=maildir_config(tmp_path),
                   clock=FixedClock(T0 + timedelta(hours=2)))
    assert summary.adjudicated == [
        ("forced", "Fall 1901, Movement", "every power has ordered"),
        ("forced", "Winter 1901, Adjustment", "no orders needed")]
    with database.read() as s:
        history = phases_repo.history(s, game)
        reports = outbound_repo.list_outbound(s, limit=100)
        # each phase: its orders and its position, as PNG (SET PICTURES INLINE, the default);
        # each report its calendar events, to each of eight: the fall's cancelled (it ended
        # early) and the winter's sent; the winter's cancelled (resolved as it opened, after
        # its event went with the fall's report) and Spring 1902's sent
        assert s.scalar(select(func.count()).select_from(OutboundFile)) == 2 * 2 + 8 * 4
    assert [(p.phase, p.adjudicated) for p in history] == [
        (Phase("Fall", 1901, PhaseType.MOVEMENT), True),
        (Phase("Winter", 1901, PhaseType.ADJUSTMENT), True),
        (Phase("Spring", 1902, PhaseType.MOVEMENT), False)]
    assert history[2].state.units_of("Austria") == ()
    assert len(reports) == 16  # seven players and the GM, for each phase
    subjects = {dict(r.headers)["Subject"] for r in reports}
    assert subjects == {"[forced] Fall 1901, Movement: results",
                        "[forced] Winter 1901, Adjustment: results"}
