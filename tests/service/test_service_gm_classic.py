"""The GM's classic judge commands by mail through the real service (Maildir inbox and outbox,
`Service.once`, the tick), on SQLite and PostgreSQL: SET DEADLINE <date> moving the open
phase's deadline, FORCE BEGIN, UNSTART, SET [NO] MANUAL PROCESS, BECOME, SET CONCEDE, SET DRAW
<powers> and TAKEOVER."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from gm.service.tick import Why, tick
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.rows import PhaseRecord
from tests.service.test_service_gm_control import Mail, _reply_to, _started, _text
from tests.support.service_support import GM, PLAYERS, START


def _phase(db: Database) -> PhaseRecord:
    with db.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        return phase


def _ticked(mail: Mail, db: Database) -> list[tuple[str, str, str]]:
    return tick(db, config=mail.config, clock=mail.clock).adjudicated


async def test_set_deadline_with_a_date_moves_the_open_phase(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    assert _phase(database).deadline_at == START + timedelta(hours=72)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE 2026-03-02 18:00")
    reply = _reply_to(out, GM)
    assert ("Deadline of Spring 1901, Movement in theta moved to Mon 2026-03-02 18:00 UTC (it "
            "was Wed 2026-03-04 12:00 UTC). Every player was told.") in reply
    told = {to: _text(m) for to, m in out if not m["In-Reply-To"]}
    assert set(told) == {*PLAYERS.values(), GM}
    assert all("New deadline: Mon 2026-03-02 18:00 UTC." in text for text in told.values())
    assert all(str(m["Subject"]) == "[theta] Spring 1901, Movement: the deadline has moved"
               for to, m in out if not m["In-Reply-To"])
    assert _phase(database).deadline_at == datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

    # in the game's time zone, written the njudge way (with its weekday) or without it
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET TIMEZONE Europe/Paris\n"
                              "SET DEADLINE Thu Mar 5 2026 18:00")
    assert "moved to Thu 2026-03-05 18:00 CET (17:00 UTC)" in _reply_to(out, GM)
    assert _phase(database).deadline_at == datetime(2026, 3, 5, 17, 0, tzinfo=UTC)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE March 4, 2026 09:30")
    assert "moved to Wed 2026-03-04 09:30 CET (08:30 UTC)" in _reply_to(out, GM)

    # the tick processes the phase at the moved deadline
    mail.clock.advance(timedelta(days=2, hours=20, minutes=29))
    assert _ticked(mail, database) == []
    mail.clock.advance(timedelta(minutes=2))
    assert _ticked(mail, database) == [("theta", "Spring 1901, Movement", Why.LATE)]


async def test_set_deadline_with_a_date_refusals(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    before = _phase(database).deadline_at
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE 2026-03-01 11:00")
    assert ('line 2: SET DEADLINE 2026-03-01 11:00: refused, Sun 2026-03-01 11:00 UTC is in the '
            "past (it is now Sun 2026-03-01 12:00 UTC); give a later time.") in _reply_to(out, GM)
    assert len(out) == 1
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Mon Dec 1 2026 18:00")
    assert ('Cannot read "SET DEADLINE Mon Dec 1 2026 18:00": "Mon Dec 1 2026": Dec 1 2026 '
            "is a Tuesday, not Mon") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Feb 30 2026 18:00")
    assert '"Feb 30 2026" is not a date' in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE 2026-12-01")
    reply = _reply_to(out, GM)
    assert 'Cannot read "SET DEADLINE 2026-12-01"' in reply
    assert "SET DEADLINE 2026-12-01 18:00" in reply  # the usage shows the date form
    out = await mail.send(PLAYERS["France"],
                          "SIGNON France theta pwfrance\nSET DEADLINE 2026-03-05 18:00")
    assert "SET DEADLINE: refused, only the game's GM may do this" in _reply_to(
        out, PLAYERS["France"])
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPAUSE\nSET DEADLINE 2026-03-05 18:00")
    assert "refused, theta is paused; RESUME it first" in _reply_to(out, GM)
    assert _phase(database).deadline_at == before
    # the rule form is unchanged: it is for the phases to come
    out = await mail.send(GM, "SIGNON GM theta gmpass\nRESUME\nSET DEADLINE MOVEMENT 48h")
    assert ("Deadline of movement phases in theta: 2 days after the phase opens (from the next "
            "phase on).") in _reply_to(out, GM)
    assert _phase(database).deadline_at == before
    out = await mail.send(GM, "HELP DEADLINES")
    help_text = _reply_to(out, GM)
    assert "SET DEADLINE <date> <time>     move the deadline of the phase open now" in help_text
    assert "SET DEADLINE <type> <time>     how long each phase lasts" in help_text
