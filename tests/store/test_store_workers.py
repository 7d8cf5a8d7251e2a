"""Several gm processes on one database never do the same work twice.

Two real OS processes (tests/support/store_race_worker.py) share one database, PostgreSQL or a
SQLite file: both store the same inbound messages (read from one mailbox), and race to process them
and to adjudicate the same games' due phases. Every message must be processed exactly once and
every phase adjudicated exactly once. In-process tests show what a claim does while another
transaction holds a row.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from gm.store import audit, games, inbound, phases
from gm.store.db import Database
from gm.store.statuses import GameStatus, InboundStatus
from tests.support.store_samples import T0, phase_sequence, sample_state

ROOT = Path(__file__).resolve().parent.parent.parent

MESSAGES = 100
GAMES = 8
PHASES = 5


def _setup_games(db: Database) -> list[int]:
    ids = []
    with db.transaction() as s:
        for g in range(GAMES):
            gid = games.create_game(s, name=f"race{g}", variant="standard", gm_address="gm@x",
                                    gm_password_hash="h", now=T0, status=GameStatus.ACTIVE).id
            phases.open_phase(s, gid, sample_state(phase=phase_sequence(1)[0]), now=T0,
                              deadline_at=T0)
            ids.append(gid)
    return ids


def test_two_processes_never_do_the_same_work_twice(database: Database, tmp_path: Path) -> None:
    game_ids = _setup_games(database)
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_race_worker", database.url, f"worker{i}",
             str(go), str(MESSAGES), str(PHASES)],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        for i in range(2)
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"go.worker{i}").exists() for i in range(2)):
        assert time.monotonic() < deadline, "the workers did not start"
        assert all(w.poll() is None for w in workers), "a worker died"
        time.sleep(0.01)
    go.touch()  # both are connected and waiting: start the race
    for w in workers:
        _out, err = w.communicate(timeout=300)
        assert w.returncode == 0, err.decode()

    with database.read() as s:
        processed = audit.audit_log(s, action="processed")
        adjudicated = audit.audit_log(s, action="adjudicated")
        messages = inbound.list_inbound(s, limit=10 * MESSAGES)
        histories = {gid: phases.history(s, gid) for gid in game_ids}

    # every message stored once although both workers stored all of them
    assert len(messages) == MESSAGES
    assert {m.status for m in messages} == {InboundStatus.PROCESSED}
    # ... and processed exactly once
    per_message = Counter(e.details["inbound"] for e in processed)
    assert set(per_message) == {m.id for m in messages}
    assert set(per_message.values()) == {1}
    # every phase of every game adjudicated exactly once
    per_phase = Counter((e.details["game"], e.details["index"]) for e in adjudicated)
    assert set(per_phase) == {(g, i) for g in game_ids for i in range(PHASES)}
    assert set(per_phase.values()) == {1}
    for hist in histories.values():
        assert [p.index for p in hist] == list(range(PHASES))
        assert all(p.adjudicated for p in hist)
        # the worker that adjudicated a phase is the one that logged it
        for p in hist:
            (entry,) = [e for e in adjudicated if e.details == {"game": p.game_id,
                                                               "index": p.index}]
            assert p.events == (f"by {entry.actor}",)
    # both processes took part: the work was really raced for
    by_worker = Counter(e.actor for e in processed + adjudicated)
    assert set(by_worker) == {"worker0", "worker1"}, by_worker


def test_a_held_claim_is_never_handed_out_twice(database: Database) -> None:
    """While one transaction holds a claim, another gets other work (PostgreSQL: at once,
    skipping the locked rows) or waits for the first to commit (SQLite: one writer at a time);
    either way it never gets the held message or phase."""
    game_ids = _setup_games(database)
    with database.transaction() as s:
        for i in range(2):
            inbound.receive_inbound(s, raw=b"x", sender="p@x", message_id=f"<{i}@x>", now=T0)
    now = T0 + timedelta(hours=1)
    seen: dict[str, object] = {}
    first_holds = threading.Event()

    def second() -> None:
        first_holds.wait()
        with database.transaction() as s:
            msg = inbound.claim_next_inbound(s)
            seen["message"] = None if msg is None else msg.id
            ph = phases.claim_next_due_phase(s, now)
            seen["game"] = None if ph is None else ph.game_id
            seen["done_at"] = time.monotonic()

    thread = threading.Thread(target=second)
    thread.start()
    with database.transaction() as s:
        msg = inbound.claim_next_inbound(s)
        ph = phases.claim_next_due_phase(s, now)
        assert msg is not None and ph is not None
        first_holds.set()
        inbound.mark_processed(s, msg.id, now=now)
        phases.record_results(s, ph.id, [], now=now)
        time.sleep(0.5)
        committed_at = time.monotonic()
    thread.join(30)
    assert seen["message"] is not None and seen["message"] != msg.id
    assert seen["game"] in set(game_ids) - {ph.game_id}
    done_at = seen["done_at"]
    assert isinstance(done_at, float)
    if database.dialect == "postgresql":
        assert done_at < committed_at  # skipped the locked rows, did not wait
    else:
        assert done_at > committed_at  # waited for the writer to finish
