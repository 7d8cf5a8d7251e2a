"""Phase reports: every order with its outcome and reason, dislodged units with their retreat
options, centres with builds due, the map's events, eliminations and victory, the next phase
and its deadline, the phase's press as each audience may see it (players, GM, observers), an
HTML alternative and the map picture; PROCESS by mail sends the same reports; HISTORY reads
the phases the tick stored."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.service.clock import FixedClock
from gm.service.ingest import ingest
from gm.service.serve import Service
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import press as press_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
from gm.store.statuses import GameStatus
from gm.variants import get_variant
from tests.support.service_support import PLAYERS, SPRING_1901, maildir_config, message, unwrapped
from tests.support.tick_support import GM, SETTINGS, YEAR, address, new_game, submit, with_settings

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
OBSERVER = "watcher@example.org"


def _reports(db: Database, since: int = 0) -> list[OutboundRecord]:
    with db.read() as s:
        return [r for r in outbound_repo.list_outbound(s, limit=10_000) if r.id > since]


def _part(record: OutboundRecord, kind: str) -> str:
    text = next(p.text for p in record.parts if p.content_type == kind)
    return unwrapped(text) if kind == "text/plain" else text


def _to(records: list[OutboundRecord], who: str) -> OutboundRecord:
    [found] = [r for r in records if r.recipients == (who,)]
    return found


def _play(db: Database, tmp_path: Path, game: int, orders: dict[str, list[str]],
          now: datetime) -> list[OutboundRecord]:
    before = max((r.id for r in _reports(db)), default=0)
    submit(db, game, orders, now)
    summary = tick(db, config=maildir_config(tmp_path), clock=FixedClock(now + timedelta(days=3)))
    assert len(summary.adjudicated) == 1, summary
    return [r for r in _reports(db, before)
            if dict(r.headers)["Subject"].endswith(": results")]


def test_a_year_of_reports(database: Database, tmp_path: Path) -> None:
    settings = with_settings(extra={"observers": [OBSERVER]})
    game = new_game(database, "annals", opened=T0, deadline=T0 + timedelta(hours=1),
                    settings=settings)
    with database.transaction() as s:
        phase = phases_repo.current_phase(s, game)
        assert phase is not None
        press_repo.record_press(s, game, from_power="France", from_address="f@x.org",
                                body="To all: <peace> & quiet.", now=T0, broadcast=True,
                                phase_id=phase.id)
        press_repo.record_press(s, game, from_power="France", from_address="f@x.org",
                                body="England, let us share the Channel.", now=T0,
                                to_powers=["England", "GM copy"], anonymous=True,
                                phase_id=phase.id)
        # partial press the GM got no copy of (no SET ALL PRESS): not in the GM's report
        press_repo.record_press(s, game, from_power="France", from_address="f@x.org",
                                body="England, just between us.", now=T0,
                                to_powers=["England"], phase_id=phase.id)
    spring = _play(database, tmp_path, game, YEAR[0], T0)
    assert len(spring) == 9  # seven players, the GM and the observer, one message each
    england = _part(_to(spring, address("annals", "England")), "text/plain")
    germany = _part(_to(spring, address("annals", "Germany")), "text/plain")
    gm = _part(_to(spring, GM), "text/plain")
    observer = _part(_to(spring, OBSERVER), "text/plain")
    for text in (england, germany, gm, observer):
        assert "annals (Standard, 2000 rulebook): results of Spring 1901, Movement" in text
        assert "A Par - Bur  (succeeds: moves to Bur)" in text
        assert "A War - Gal  (succeeds: moves to Gal)" in text
        assert "  F Edi H  (succeeds: no order: holds)" in text  # England was late
        assert "Austria, England, Italy and Turkey sent no orders: their units held." in text
        assert "From France to everyone:\n    To all: <peace> & quiet." in text
    # grey press: its recipient sees no sender, the GM does; nobody else sees it
    assert "From (grey press) to England:\n    England, let us share the Channel." in england
    assert "From France to England:\n    England, let us share the Channel." in gm
    assert "share the Channel" not in germany and "share the Channel" not in observer
    assert "From France to England:\n    England, just between us." in england
    assert "just between us" not in gm
    assert "You receive this as an observer of annals." in observer
    html = _part(_to(spring, OBSERVER), "text/html")
    assert "To all: &lt;peace&gt; &amp; quiet." in html and "<table " in html
    names = [a.filename for a in _to(spring, OBSERVER).attachments]
    # the default (SET PICTURES INLINE): the PNGs, no SVG attached
    assert names == ["annals-spring-1901-movement-orders.png", "annals-fall-1901-movement.png"]
    pngs = list(_to(spring, OBSERVER).attachments)
    # queued undrawn, each with its picture's SVG: the sender draws them
    assert [(a.svg or b"")[:5] for a in pngs] == [b"<svg "] * 2
    assert b"annals: Spring 1901, Movement, the orders" in (pngs[0].svg or b"")
    assert all(not a.drawn and a.data == b"" for a in pngs)
    for png in pngs:  # the HTML part shows each PNG by its content id
        assert f'src="cid:{png.filename}@picture.gm"' in html
    # the text and the HTML name both pictures: the orders and the map after the phase
    assert ("Two pictures are attached: the orders of this phase "
            "(annals-spring-1901-movement-orders.png) and the map after it "
            "(annals-fall-1901-movement.png). SET PICTURES ALL adds the SVG files, to zoom."
            ) in _part(_to(spring, OBSERVER), "text/plain")
    assert "SET PICTURES ALL attaches the pictures as SVG files too, to zoom." in html
    orders, picture = (a.svg or b"" for a in pngs)  # the pictures, as the sender draws them
    moves = [g for g in ET.fromstring(orders).iter("{http://www.w3.org/2000/svg}g")
             if g.get("data-mark") == "move-ok"]
    assert "A Par - Bur" in [g.findtext("{http://www.w3.org/2000/svg}title") for g in moves]
    root = ET.fromstring(picture)
    units = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
             if "unit" in (g.get("class") or "").split()]
    assert {(u.get("data-power"), u.get("data-province")) for u in units} >= {
        ("France", "Bur"), ("Russia", "Gal"), ("Germany", "Ruh")}

    fall = _play(database, tmp_path, game, YEAR[1], T0 + timedelta(days=3))
    text = _part(_to(fall, GM), "text/plain")
    assert "A Ruh - Bur  (succeeds: moves to Bur, dislodging A Bur)" in text
    assert "A Bur H  (fails: dislodged by A Ruh (Germany))" in text
    assert "Austria, England, Italy and Turkey sent no orders: their units held." in text
    assert ("Dislodged units:\n  France A Bur (attacked from Ruh): may retreat to "
            "Bel, Gas, Mar, Par, Pic, or disband.") in text
    assert "Next phase: Fall 1901, Retreat, deadline Mon 2026-03-09 12:00 UTC." in text
    assert "Orders are due from: France." in text
    picture = _to(fall, GM).attachments[-1]
    assert picture.filename == "annals-fall-1901-retreat.png"
    root = ET.fromstring(picture.svg or b"")  # the picture the sender draws
    dislodged = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                 if "dislodged" in (g.get("class") or "")]
    assert [(g.get("data-power"), g.get("data-province")) for g in dislodged] == [
        ("France", "Bur")]
    options = [g.findtext("{http://www.w3.org/2000/svg}title") for g in
               root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-mark") == "retreat-option"]
    assert sorted(options) == [f"A Bur may retreat to {p}" for p in
                               ("Bel", "Gas", "Mar", "Par", "Pic")]

    retreat = _play(database, tmp_path, game, YEAR[2], T0 + timedelta(days=6))
    text = _part(_to(retreat, GM), "text/plain")
    assert "A Bur R Pic  (succeeds: retreats to Pic)" in text
    assert "What happened on the map:" in text
    for event in ("France takes Por.", "France takes Spa.", "Germany takes Den.",
                  "Russia takes Rum.", "Russia takes Swe."):
        assert event in text
    assert "  France:       5 centres,  3 units; builds 2 (sites: Bre, Mar, Par)" in text
    assert "  Russia:       6 centres,  4 units; builds 2 (sites: Mos, Sev, StP, War)" in text
    assert "  Germany:      4 centres,  3 units; builds 1 (sites: Ber, Kie)" in text
    assert "Next phase: Winter 1901, Adjustment" in text


def test_victory_ends_the_game_and_the_report_says_so(database: Database,
                                                      tmp_path: Path) -> None:
    """France holds 17 centres and takes Belgium in the fall: 18, a solo win (rulebook)."""
    variant = get_variant("standard")
    owned = ("Par", "Mar", "Bre", "Spa", "Por", "Lon", "Lvp", "Edi", "Hol", "Mun", "Ber",
             "Kie", "Den", "Nwy", "Swe", "Ven", "Rom")
    state = variant.start_state().evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT),
        units=(Unit("France", UnitType.ARMY, Location("Bur")),
               Unit("England", UnitType.FLEET, Location("NTH"))),
        owners={c: "France" for c in owned})
    game = new_game(database, "solo", opened=T0, deadline=T0 + timedelta(hours=1), state=state,
                    settings=SETTINGS)
    reports = _play(database, tmp_path, game, {"France": ["A Bur - Bel"]}, T0)
    text = _part(_to(reports, GM), "text/plain")
    assert "France takes Bel." in text and "France won the game." in text
    assert "The game is over. Won by France." in text and "Next phase" not in text
    with database.read() as s:
        assert games_repo.get_game(s, game).status is GameStatus.FINISHED
        assert phases_repo.phase_count(s, game) == 1


def _outbox(path: Path) -> list[EmailMessage]:
    out = []
    for item in sorted((path / "new").iterdir()):
        msg = message_from_bytes(item.read_bytes(), policy=default)
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


async def test_process_by_mail_sends_the_full_report_and_history_reads_it(
        database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    clock = FixedClock(T0)
    setup = "\n".join(["CREATE mailed standard gmpass"]
                      + [f"ADD {p} {a} pw{p.lower()}" for p, a in PLAYERS.items()]
                      + ["SET PICTURES DEFAULT ALL", "START"])  # the SVGs attached too
    ingest(database, message("master@example.org", setup), config=config, clock=clock)
    for power, lines in SPRING_1901.items():
        body = "\n".join([f"SIGNON {power} mailed pw{power.lower()}", *lines])
        ingest(database, message(PLAYERS[power], body), config=config, clock=clock)
    ingest(database, message("master@example.org", "SIGNON GM mailed gmpass\nPROCESS"),
           config=config, clock=clock)
    await Service(database, config, clock=clock, tick_every=None).once()
    reports = [m for m in _outbox(config.maildir.outbox)
               if str(m["Subject"]).endswith("Spring 1901, Movement: results")]
    assert len(reports) == 8
    for report in reports:
        body = report.get_body(preferencelist=("plain",))
        html = report.get_body(preferencelist=("html",))
        assert isinstance(body, EmailMessage) and isinstance(html, EmailMessage)
        assert "F Sev - BLA  (fails: bounced with F Ank (1 against 1))" in body.get_content()
        assert ">mailed (Standard, 2000 rulebook): results of Spring 1901, Movement</h1>" in \
            html.get_content()
        related = report.get_body(preferencelist=("related",))
        assert isinstance(related, EmailMessage)
        inline = [p for p in related.iter_parts() if p.get_content_type() == "image/png"]
        assert [p["Content-ID"] for p in inline] == [
            "<mailed-spring-1901-movement-orders.png@picture.gm>",
            "<mailed-fall-1901-movement.png@picture.gm>"]
        assert all(p.get_content().startswith(b"\x89PNG\r\n\x1a\n") for p in inline)
        assert 'src="cid:mailed-fall-1901-movement.png@picture.gm"' in html.get_content()
        svgs = [p for p in report.iter_attachments() if p.get_content_type() == "image/svg+xml"]
        svg = svgs[-1]
        assert svg.get_filename() == "mailed-fall-1901-movement.svg"
        assert ET.fromstring(svg.get_content()).tag == "{http://www.w3.org/2000/svg}svg"
    result = ingest(database, message("someone@example.org", "HISTORY mailed"), config=config,
                    clock=clock)
    with database.read() as s:
        reply = _part(outbound_repo.list_outbound(s, limit=10_000)[-1], "text/plain")
    assert result.reply_message_id is not None
    assert "Spring 1901, Movement" in reply and "A Vie - Gal" in reply
