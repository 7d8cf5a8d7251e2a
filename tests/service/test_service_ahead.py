"""AHEAD: orders sent for the next phase of a kind, checked when it opens, through the real
service (ingest(), the GM's PROCESS and the tick): usable ones become the power's orders,
unusable ones are reported with why, retreats and builds that no phase came for lapse."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from gm.engine.phase import PhaseType
from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import games as games_repo
from gm.store import orders_ahead as ahead_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from tests.support.service_support import GM, PLAYERS, SPRING_1901, START, maildir_config, send_all

FRANCE = "SIGNON France alpha pwfrance\n"


def _send(db: Database, tmp_path: Path, sender: str, body: str,
          clock: FixedClock | None = None) -> str:
    return send_all(db, tmp_path, sender, body, clock)[0]


def _to_fall(db: Database, tmp_path: Path) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines.append("START")
    assert "alpha has started" in _send(db, tmp_path, GM, "\n".join(lines))
    for power, orders in SPRING_1901.items():
        _send(db, tmp_path, PLAYERS[power],
              "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    tick(db, config=maildir_config(tmp_path), clock=FixedClock(START))  # all in: processed


def _phase(db: Database) -> tuple[int, str, PhaseType]:
    with db.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        return phase.id, phase.phase.season, phase.phase.type


def test_builds_sent_ahead_are_taken_when_the_adjustment_phase_opens(
        database: Database, tmp_path: Path) -> None:
    _to_fall(database, tmp_path)
    assert _phase(database)[1:] == ("Fall", PhaseType.MOVEMENT)
    reply = _send(database, tmp_path, PLAYERS["France"], FRANCE + "F MAO-Por\nA Spa H\n"
                  "AHEAD BUILD Build A Par\nAHEAD ADJUSTMENT Build F Bre\n"
                  "AHEAD BUILD Build A Mun\nAHEAD RETREAT A Bur-Pic\nAHEAD BUILD Build A Xyz")
    assert ("  Build A Par: kept for the next adjustment phase after Fall 1901, Movement; it is "
            "checked when that phase opens") in reply
    assert "  A Bur-Pic: kept for the next retreat phase after Fall 1901, Movement" in reply
    assert ('line 8: AHEAD BUILD Build A Xyz: refused. Unknown province "Xyz" in "Build A Xyz"'
            in reply)
    assert "F MAO-Por" in reply
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS")
    assert "Fall 1901, Movement of alpha processed" in reply
    phase_id, season, kind = _phase(database)
    assert (season, kind) == ("Winter", PhaseType.ADJUSTMENT)
    (told,) = [m for m in mail if "orders sent ahead" in dict(m.headers)["Subject"]]
    assert told.recipients == (PLAYERS["France"],)
    text = told.parts[0].text
    assert "Orders France sent ahead, checked now that Winter 1901, Adjustment has opened" \
        in text
    assert "  Build A Par  ->  Build A Par  (taken)" in text
    assert "  Build F Bre  ->  Build F Bre  (taken)" in text
    assert "  Build A Mun  ->  not used: " in text
    assert "A Bur-Pic" not in text  # still pending: it lapses when a movement phase opens
    with database.read() as s:
        stored = orders_repo.latest_valid_orders_of(s, phase_id, "France")
        assert stored is not None
        assert sorted(line.canonical or "" for line in stored.lines) == ["Build A Par",
                                                                         "Build F Bre"]
    # the retreat sent ahead lapses when the next movement phase opens (by the tick)
    tick(database, config=maildir_config(tmp_path),
         clock=FixedClock(START + timedelta(days=30)))
    assert _phase(database)[1:] == ("Spring", PhaseType.MOVEMENT)
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert ahead_repo.of_game(s, game.id) == []
        lapsed = [o for o in outbound_repo.list_outbound(s)
                  if o.recipients == (PLAYERS["France"],)
                  and "orders sent ahead" in dict(o.headers)["Subject"]
                  and "Spring 1902" in dict(o.headers)["Subject"]]
    (notice,) = lapsed
    assert ("  A Bur-Pic  ->  not used: no retreat phase came before Spring 1902, Movement"
            in notice.parts[0].text)
    assert "None was used: send your orders for this phase as usual." in notice.parts[0].text


def test_orders_ahead_withdrawn_and_refused(database: Database, tmp_path: Path) -> None:
    _to_fall(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["France"], FRANCE + "AHEAD CLEAR")
    assert "AHEAD CLEAR: no orders sent ahead to withdraw." in reply
    _send(database, tmp_path, PLAYERS["France"], FRANCE + "AHEAD BUILD Build A Par")
    reply = _send(database, tmp_path, PLAYERS["France"], FRANCE + "AHEAD CLEAR")
    assert "AHEAD CLEAR: 1 order sent ahead withdrawn." in reply
    reply = _send(database, tmp_path, PLAYERS["France"], FRANCE + "AHEAD LATER A Par-Bur")
    assert 'Cannot read "AHEAD LATER A Par-Bur": AHEAD needs the kind of phase' in reply
    reply = _send(database, tmp_path, PLAYERS["France"], "AHEAD BUILD Build A Par")
    assert "line 1: AHEAD BUILD Build A Par: refused, sign on to a power first" in reply
