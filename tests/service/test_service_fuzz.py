"""The fuzzer: 10,000 seeded random messages (random bytes, mutated valid messages, random
order lines) through `ingest`, the function `gm serve` runs for each message. The pipeline never
fails, every message is answered or deliberately ignored (automatic mail, no usable sender, or
a byte-for-byte repeat), nothing is shunted, and game kappa, whose passwords no fuzzed message
carries, is untouched. A smaller sample goes through the whole service (Maildir in and out) on
PostgreSQL too.
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from pathlib import Path

import pytest

from gm.commands.parse import parse_message
from gm.config import Config
from gm.mail.decode import decode_message
from gm.mail.maildir import ensure_maildir
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.service.loop_guard import is_loop_sign
from gm.service.serve import Service
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus
from tests.service.test_service_hostile import protected_game, snapshot
from tests.support.hostile_mail import fuzz_messages
from tests.support.service_support import START, maildir_config

pytestmark = pytest.mark.postgresql_too  # hostile text stored in each database

SEED = 20261123
COUNT = 10_000
PARTS = 4  # the messages in four runs of 2,500 (each in a fresh store), spread over the workers


def _check_outcome(raw: bytes, outcome: Disposition, config: Config) -> None:
    if outcome is Disposition.AUTOMATIC:
        decoded = decode_message(raw, max_bytes=config.max_message_bytes,
                                 own_addresses=config.address)
        assert decoded.is_automatic or not decoded.sender, raw[:300]
    elif outcome is Disposition.HELD:  # many messages without commands at once: a mail loop
        decoded = decode_message(raw, max_bytes=config.max_message_bytes,
                                 own_addresses=config.address)
        assert is_loop_sign(decoded, parse_message(decoded.text), config), raw[:300]
    else:
        assert outcome in (Disposition.ANSWERED, Disposition.DUPLICATE,
                           Disposition.UNANSWERED), raw[:300]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.parametrize("part", range(PARTS))
def test_ten_thousand_random_messages(part: int, database: Database, tmp_path: Path) -> None:
    config, clock = maildir_config(tmp_path), FixedClock(START)
    protected_game(database, tmp_path)
    before = snapshot(database)
    outcomes: Counter[Disposition] = Counter()
    size = COUNT // PARTS
    for raw in islice(fuzz_messages(SEED, COUNT), part * size, (part + 1) * size):
        result = ingest(database, raw, config=config, clock=clock)
        assert result.outcome is not Disposition.SHUNTED, (result.error, raw[:300])
        _check_outcome(raw, result.outcome, config)
        outcomes[result.outcome] += 1
    assert sum(outcomes.values()) == size, outcomes
    # each kind of input occurred in earnest
    assert (outcomes[Disposition.ANSWERED] > 0.3 * size
            and outcomes[Disposition.AUTOMATIC] > 0.1 * size), outcomes
    with database.read() as s:
        assert not inbound_repo.list_inbound(s, status=InboundStatus.SHUNTED, limit=1)
        assert not inbound_repo.list_inbound(s, status=InboundStatus.NEW, limit=1)
    assert snapshot(database) == before


async def test_a_random_sample_through_the_service(database: Database, tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    protected_game(database, tmp_path)
    before = snapshot(database)
    inbox = config.maildir.inbox
    ensure_maildir(inbox)
    sample = list(fuzz_messages(SEED + 1, 300))
    for n, raw in enumerate(sample):
        (inbox / "tmp" / f"{n:05d}.fuzz").write_bytes(raw)
        (inbox / "tmp" / f"{n:05d}.fuzz").rename(inbox / "new" / f"{n:05d}.fuzz")
    done = await Service(database, config, clock=FixedClock(START)).once()
    assert len(done) == len(sample)
    assert not list((inbox / "new").iterdir())
    assert Disposition.SHUNTED not in {d.outcome for d in done}
    answered = [d for d in done if d.outcome is Disposition.ANSWERED]
    with database.read() as s:
        replied = {o.inbound_id for o in outbound_repo.list_outbound(s, limit=10_000)}
    assert {d.inbound_id for d in answered} <= replied
    sent = list((config.maildir.outbox / "new").iterdir())
    assert len(sent) >= len(answered) > 100
    assert snapshot(database) == before
