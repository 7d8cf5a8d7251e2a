"""Command dispatch: every command names a handler that exists, and a message loads only the
handlers of the commands it uses (start-up time of `gm ingest` and of the service)."""

from __future__ import annotations

import json
import subprocess
import sys

from gm.commands.handlers.dispatch import HANDLERS, handler_for
from tests.service_support import GM, message


def test_every_command_names_a_handler_that_exists() -> None:
    for kind, (module, name) in HANDLERS.items():
        handler = handler_for(kind)
        assert handler is not None and callable(handler), kind
        assert handler.__module__ == f"gm.commands.handlers.{module}", kind
        assert handler.__name__ == name, kind


_INGEST = """
import json, sys
from gm.config import load_config
from gm.service.clock import SystemClock
from gm.service.ingest import ingest
from gm.store.db import open_database

db = open_database(sys.argv[1])
loaded = []
for raw in sys.stdin.buffer.read().split(b"\\0"):
    result = ingest(db, raw, config=load_config(None, {}), clock=SystemClock())
    loaded.append([result.outcome.value, sorted(m for m in sys.modules if m.startswith(
        ("gm.commands.handlers.", "gm.service.", "alembic")))])
db.dispose()
print(json.dumps(loaded))
"""


def test_a_message_loads_the_handlers_of_its_commands_only(migrated_url: str) -> None:
    messages = [message(GM, "HELP", message_id="<d1@example.org>"),
                message(GM, "CREATE delta standard secret", message_id="<d2@example.org>")]
    done = subprocess.run([sys.executable, "-c", _INGEST, migrated_url],
                          input=b"\0".join(messages), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    (help_outcome, after_help), (create_outcome, after_create) = json.loads(done.stdout)
    assert help_outcome == create_outcome == "answered"
    assert "gm.commands.handlers.info" in after_help
    unused = {"gm.commands.handlers.create", "gm.commands.handlers.order_taking",
              "gm.commands.handlers.gm_control", "gm.commands.handlers.gm_settings",
              "gm.commands.handlers.seats", "gm.commands.handlers.press",
              "gm.service.tick", "alembic"}
    assert not unused & set(after_help)
    assert "gm.commands.handlers.create" in after_create
    assert "gm.commands.handlers.gm_control" not in after_create
