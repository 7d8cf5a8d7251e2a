"""Command dispatch: every command names a handler that exists; handlers import at their modules'
heads, apart from the adjudicator and the reports, which a message loads only when it
adjudicates or draws (start-up time of `gm ingest`: benchmarks/bench_ingest_startup.py)."""

from __future__ import annotations

import dis
import json
import subprocess
import sys

from lark import Lark

from gm.commands.catalog import COMMANDS, HANDLERS, RULES
from gm.commands.dispatch import handler_for
from gm.commands.parse import command_grammar
from gm.commands.values import OrderLine
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


# What a handler may import where it is used: modules that cost a `gm ingest` of orders ~0.1 s.
# (gm.play.game_files and gm.play.played_game, HISTORY <game> FILE's: the pictures, Pillow and
# the adjudicator; gm.play.import_mila, IMPORT's: the adjudicator)
_HEAVY = ("gm.play.adjudicate", "gm.play.compose_reports", "gm.play.reports",
          "gm.play.orders_ahead", "gm.play.process_phase", "gm.variants.abstraction2",
          "gm.play.game_files", "gm.play.played_game", "gm.play.import_mila")


def test_every_command_names_a_handler_that_exists() -> None:
    for command in COMMANDS:
        if command.handle is None:
            assert command.keywords == ("SIGNOFF",)  # the dispatcher stops at it
            continue
        assert handler_for(command.value) is command.handle is HANDLERS[command.value]
        for module, _name in _imported(command.handle):
            assert module in _HEAVY, (command.value, module)  # else: at the module's head
    assert handler_for(OrderLine) is not None


def test_every_grammar_rule_of_a_command_has_its_reader() -> None:
    grammar = Lark(command_grammar(), parser="lalr")
    shared = {"start", "command", "recipients", "name", "duration", "season", "phase",
              "phase_long", "phase_code", "date_words"}
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
        ("gm.commands.handlers.", "gm.play.", "gm.service.", "alembic")))])
db.dispose()
print(json.dumps(loaded))
"""


def test_a_message_loads_the_adjudicator_only_when_it_adjudicates(migrated_url: str) -> None:
    messages = [message(GM, "HELP", message_id="<d1@example.org>"),
                message(GM, "CREATE delta standard secret", message_id="<d2@example.org>")]
    done = subprocess.run([sys.executable, "-c", _INGEST, migrated_url],
                          input=b"\0".join(messages), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    (help_outcome, after_help), (create_outcome, after_create) = json.loads(done.stdout)
    assert help_outcome == create_outcome == "answered"
    assert "gm.commands.handlers.common" in after_help  # the handlers: with the commands
    unused = {*_HEAVY, "gm.service.tick", "alembic"}
    assert not unused & set(after_help)
    assert not unused & set(after_create)


def test_no_two_commands_claim_the_same_rule_value_or_usage() -> None:
    assert len(RULES) == sum(len(command.rules) for command in COMMANDS)
    assert len({command.value for command in COMMANDS}) == len(COMMANDS)
    usage_keys = [k for command in COMMANDS for k in command.usage]
    set_usage_keys = [k for command in COMMANDS for k in command.set_usage]
    assert len(set(usage_keys)) == len(usage_keys)
    assert len(set(set_usage_keys)) == len(set_usage_keys)
