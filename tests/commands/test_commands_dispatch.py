"""Command dispatch: every command names a handler that exists, and a message loads only the
handlers of the commands it uses (start-up time of `gm ingest` and of the service)."""

from __future__ import annotations

import dis
import json
import subprocess
import sys

from lark import Lark

from gm.commands.catalog import COMMANDS, HANDLERS, RULES
from gm.commands.dispatch import handler_for
from gm.commands.values import OrderLine
from gm.paths import GRAMMARS
from tests.support.service_support import GM, message


def _imported(handle: object) -> list[tuple[str, str]]:
    """The (module, name) pairs a handler imports when it runs."""
    found, module = [], ""
    for op in dis.get_instructions(handle):  # type: ignore[arg-type]
        if op.opname == "IMPORT_NAME":
            module = op.argval
        elif op.opname == "IMPORT_FROM":
            found.append((module, op.argval))
    return found


def test_every_command_names_a_handler_that_exists() -> None:
    import importlib
    import importlib.util

    for command in COMMANDS:
        if command.handle is None:
            assert command.keywords == ("SIGNOFF",)  # the dispatcher stops at it
            continue
        assert handler_for(command.value) is command.handle is HANDLERS[command.value]
        imported = _imported(command.handle)
        assert imported, command.value  # its work's imports come when it first runs
        for module, name in imported:
            assert not module.startswith("gm.commands.catalog"), command.value
            found = importlib.import_module(module)
            assert (hasattr(found, name)  # a name of the module, or one of its submodules
                    or importlib.util.find_spec(f"{module}.{name}") is not None), command.value
    assert handler_for(OrderLine) is not None


def test_every_grammar_rule_of_a_command_has_its_reader() -> None:
    grammar = Lark((GRAMMARS / "commands.lark").read_text(encoding="utf-8"), parser="lalr")
    shared = {"start", "command", "recipients", "name", "duration", "season", "phase",
              "phase_long", "phase_code"}
    named = {str(r.alias or r.origin.name) for r in grammar.rules
             if not str(r.origin.name).startswith("_")} - shared
    assert named == set(RULES)


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
    assert "gm.commands.handlers.common" in after_help
    unused = {"gm.commands.handlers.order_taking", "gm.commands.handlers.gm_control",
              "gm.commands.handlers.gm_settings", "gm.commands.handlers.seats",
              "gm.commands.handlers.join_prefer", "gm.service.adjudicate",
              "gm.service.tick", "alembic"}
    assert not unused & set(after_help)
    assert "gm.commands.handlers.gm_control" not in after_create
    assert "gm.service.adjudicate" not in after_create


def test_no_two_commands_claim_the_same_rule_value_or_usage() -> None:
    assert len(RULES) == sum(len(command.rules) for command in COMMANDS)
    assert len({command.value for command in COMMANDS}) == len(COMMANDS)
    usage_keys = [k for command in COMMANDS for k in command.usage]
    set_usage_keys = [k for command in COMMANDS for k in command.set_usage]
    assert len(set(usage_keys)) == len(usage_keys)
    assert len(set(set_usage_keys)) == len(set_usage_keys)
