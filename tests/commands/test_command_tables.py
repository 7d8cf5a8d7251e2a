"""The tables made from the commands' declarations (gm.commands.tables): SET's usage names every
SET command's settings, the grammar's `command` rule has every command's rule, passwords are
masked where each command says, and HELP reads the tables the catalog published."""

from __future__ import annotations

import pytest

from gm.commands.catalog import COMMANDS, RULES, SET_USAGE, TABLES, USAGE
from gm.commands.parse import command_grammar, parse_message
from gm.commands.tables import command_rule, mask_unread, published, set_needs
from gm.commands.values import Unreadable


def test_set_usage_names_every_set_command() -> None:
    sets = [c for c in COMMANDS if "SET" in c.keywords]
    assert len(sets) > 25
    for command in sets:
        assert command.set_words, command.value.__name__
        for word in command.set_words:
            assert f" {word}," in USAGE["SET"] or f" {word} (" in USAGE["SET"], word
    # the ones the list kept by hand had left out
    for word in ("PICTURES", "TAKEOVER", "RULEBOOK", "PREFERENCE", "DIAS", "MULTIPLE"):
        assert word in USAGE["SET"]
    players, gm = USAGE["SET"].split(" (players) or ")
    assert "PASSWORD" in players and "DEADLINE" not in players and "DEADLINE" in gm
    assert SET_USAGE["NO"].startswith("SET NO needs DRAW, CONCEDE, WAIT or ABSENCE")


def test_a_set_command_added_is_named_in_the_usage() -> None:
    [draw] = [c for c in COMMANDS if c.set_words == ("DRAW", "NO DRAW")]
    fewer = [c for c in COMMANDS if c is not draw]
    assert " DRAW," not in set_needs(fewer)["SET"]
    assert " DRAW," in set_needs(COMMANDS)["SET"]


def test_an_unreadable_set_line_gets_the_whole_list() -> None:
    [error] = [c for c in parse_message("SET COLOUR red") if isinstance(c, Unreadable)]
    assert "RULEBOOK" in error.message and "PICTURES" in error.message


def test_the_command_rule_has_every_commands_rule_once() -> None:
    rule = command_rule(command_grammar(), RULES)
    alternatives = rule.removeprefix("?command: ").replace("\n", " ").split(" | ")
    alternatives = [a.strip() for a in alternatives]
    assert len(alternatives) == len(set(alternatives))
    assert {"signon", "set_draw", "history", "reprocess"} <= set(alternatives)
    # aliases of one rule's alternatives give that rule: SIGNON's three forms are one rule
    assert "signon_by_code" not in alternatives and "signon_master" not in alternatives


def test_a_command_naming_a_rule_the_grammar_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="no_such_rule"):
        command_rule(command_grammar(), [*RULES, "no_such_rule"])


@pytest.mark.parametrize(("line", "keyword", "masked"), [
    ("SET PASSWORD hunter2", "SET", "SET PASSWORD ******"),
    ("SET PASWORD hunter2", "SET", "SET PASWORD ******"),
    ("SET PARTIAL now", "SET", "SET PARTIAL now"),
    ("SET TAKEOVER a b", "SET", "SET TAKEOVER ****** ******"),
    ("TAKEOVER France g one two", "TAKEOVER", "TAKEOVER France g ****** ******"),
    ("SET ADDRESS CONFIRM g 1234", "SET", "SET ADDRESS CONFIRM ******"),
    ("JOIN g secret PREFER F,G", "JOIN", "JOIN g ****** PREFER F,G"),
    ("JOIN g secret extra", "JOIN", "JOIN g secret ******"),
    ("CREATE ?g secret standard", "CREATE", "CREATE ?g ****** standard"),
    ("CREATE g standard secret RULEBOOK 1999", "CREATE", "CREATE g standard ****** RULEBOOK 1999"),
    ("CREATE g standard secret", "CREATE", "CREATE g standard ******"),
    ("SIGNON France g secret", "SIGNON", "SIGNON France g ******"),
    ("LIST g", "LIST", "LIST g"),
])
def test_passwords_are_masked_where_each_command_says(line: str, keyword: str,
                                                      masked: str) -> None:
    assert " ".join(mask_unread(line.split(), keyword, TABLES)) == masked


def test_help_reads_the_tables_the_catalog_published() -> None:
    assert published() is TABLES
    assert "SET" in published().help_topics and "HELP" in published().keywords
