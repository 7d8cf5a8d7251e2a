"""A mailbox claim on SQLite runs without SQLAlchemy's PostgreSQL dialect (some 40 ms of a
process's start): gm.store.mailbox_claims imports it only when the database is PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_CLAIMED = """
import json, sys
from datetime import datetime, timezone
from gm.store.db import open_database
from gm.store.mailbox_claims import claim_mail
db = open_database(sys.argv[1])
with db.transaction() as s:
    found = claim_mail(s, "imap:gm@127.0.0.1:143/INBOX", "INBOX", [(7, 1), (7, 2)],
                       holder="me", now=datetime(2026, 3, 1, tzinfo=timezone.utc))
print(json.dumps({"mine": sorted(found.mine),
                  "postgresql": sorted(m for m in sys.modules
                                       if m.startswith("sqlalchemy.dialects.postgresql"))}))
"""


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_claim_on_sqlite_loads_no_postgresql_dialect(migrated_url: str) -> None:
    done = subprocess.run([sys.executable, "-c", _CLAIMED, migrated_url], capture_output=True,
                          check=True, text=True)
    assert json.loads(done.stdout) == {"mine": [[7, 1], [7, 2]], "postgresql": []}
