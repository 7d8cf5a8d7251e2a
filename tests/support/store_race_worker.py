"""A worker process for the several-workers test (tests/store/test_store_workers.py).

    python -m tests.support.store_race_worker URL NAME GO_FILE MESSAGES PHASES

Says it is ready (creates GO_FILE.NAME), waits for GO_FILE to exist, then, like a gm process,
polls the shared mailbox (stores messages 0..MESSAGES-1, which the other worker stores too),
processes new inbound messages and adjudicates due phases until nothing is left. "Processing"
writes an audit row inside the claim transaction; adjudicating records results and opens the
next phase until a game has PHASES.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from gm.store import audit, inbound, phases
from gm.store.db import open_database
from tests.support.store_samples import phase_sequence, sample_state

NOW = datetime(2031, 1, 1, tzinfo=UTC)  # every deadline is before this


def message(i: int) -> tuple[str, bytes]:
    mid = f"<race-{i}@example.org>"
    return mid, f"Message-ID: {mid}\r\n\r\nSIGNON Fg pw\r\n".encode()


def main(url: str, name: str, go_file: str, messages: int, phase_count: int) -> int:
    db = open_database(url)
    rng = random.Random(name)
    order = list(range(messages))
    rng.shuffle(order)  # the two workers read the mailbox in different orders
    seq = phase_sequence(phase_count)
    Path(f"{go_file}.{name}").touch()
    while not Path(go_file).exists():
        time.sleep(0.01)
    idle = 0
    while idle < 20:
        worked = False
        if order:
            mid, raw = message(order.pop())
            with db.transaction() as s:
                inbound.receive_inbound(s, raw=raw, sender="p@example.org", message_id=mid,
                                        mailbox="INBOX", now=NOW)
            worked = True
        with db.transaction() as s:
            msg = inbound.claim_next_inbound(s)
            if msg is not None:
                time.sleep(rng.random() * 0.003)  # widen the window for a double claim
                audit.record_action(s, actor=name, action="processed", now=NOW,
                                    details={"inbound": msg.id}, inbound_id=msg.id)
                inbound.mark_processed(s, msg.id, now=NOW)
                worked = True
        with db.transaction() as s:
            phase = phases.claim_next_due_phase(s, NOW)
            if phase is not None:
                time.sleep(rng.random() * 0.003)
                phases.record_results(s, phase.id, [], now=NOW, events=[f"by {name}"])
                audit.record_action(s, actor=name, action="adjudicated", now=NOW,
                                    game_id=phase.game_id,
                                    details={"game": phase.game_id, "index": phase.index})
                if phase.index + 1 < phase_count:
                    phases.open_phase(s, phase.game_id, sample_state(phase=seq[phase.index + 1]),
                                      now=NOW, deadline_at=NOW)
                worked = True
        idle = 0 if worked else idle + 1
        # Between messages a gm process does other work (replies, IMAP); without a pause here
        # a SQLite writer re-takes the lock at once and the other worker may never get it.
        time.sleep(0.002 if worked else 0.01)
    db.dispose()
    return 0


if __name__ == "__main__":
    url, name, go_file, messages, phase_count = sys.argv[1:6]
    sys.exit(main(url, name, go_file, int(messages), int(phase_count)))
