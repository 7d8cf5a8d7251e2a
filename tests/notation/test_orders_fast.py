"""The plain-order shortcut (gm.notation.fast) builds exactly what the grammar builds."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Move, SupportMove
from gm.engine.phase import PhaseType
from gm.notation import parse_order, parse_unit
from gm.notation.checks import text_error
from gm.notation.fast import fast_order, fast_unit
from gm.notation.names import not_an_order
from gm.notation.parser import parse_text, table_parser
from gm.notation.phases import read_for_phase
from gm.scenario.format import read_file
from gm.variants.registry import get_variant

DIFFERENTIAL = Path(__file__).parent.parent / "data" / "differential" / "random_games.txt"

REFERENCE_FILES = (
    *sorted((Path(__file__).resolve().parent.parent / "scenarios" / "datc").glob("*.txt")),
    DIFFERENTIAL,
)
PHASES = (None, PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT)


@functools.cache
def standard() -> GameMap:
    return get_variant("standard").map


def keywords() -> frozenset[str]:
    return table_parser().keywords


@functools.cache
def reference_texts() -> tuple[str, ...]:
    """Every distinct text after `Power:` in any block of the reference scenario files."""
    texts: set[str] = set()
    for path in REFERENCE_FILES:
        for case in read_file(path):
            for lines in case.blocks.values():
                for line in lines:
                    _, colon, text = line.text.partition(":")
                    if colon:
                        texts.add(text.strip())
    return tuple(sorted(texts))


@functools.lru_cache(maxsize=4096)
def grammar_order(text: str) -> Any:
    """The grammar's reading of `text` as an order (a frozen value, or the error): the same in
    every phase, so read once for the four phases compared."""
    return parse_text(text, standard(), "order")


def by_grammar(text: str, phase: PhaseType | None) -> AnyOrder | OrderError:
    """parse_order without the shortcut: the grammar, the phase's reading, the text checks."""
    parsed = grammar_order(text)
    if isinstance(parsed, OrderError):
        return not_an_order(text, parsed)
    order = read_for_phase(parsed, phase, text)
    if isinstance(order, OrderError):
        return order
    return text_error(order, text) or order


def assert_agrees(text: str) -> bool:
    """The shortcut gives the grammar's value or nothing; True when it gave a value."""
    fast = fast_order(text, standard(), keywords())
    if fast is None:
        return False
    slow = parse_text(text, standard(), "order")
    assert type(fast) is type(slow), text
    assert fast == slow, text
    return True


def test_agrees_with_grammar_on_every_reference_text() -> None:
    texts = reference_texts()
    hits = sum(assert_agrees(text) for text in texts)
    # The differential corpus writes nearly every order in the plain form.
    assert hits > 1500


def unit_agrees(text: str) -> bool:
    """The unit shortcut gives the grammar's unit or nothing; True when it gave one."""
    fast = fast_unit(text, standard(), keywords())
    if fast is None:
        return False
    assert fast == parse_text(text, standard(), "unit"), text
    return True


def test_unit_agrees_with_grammar_on_every_reference_text() -> None:
    texts = reference_texts()
    hits = sum(unit_agrees(text) for text in texts)
    # Every PRESTATE unit line (`A BUD`, `F STP/sc`) is plain.
    assert hits > 100
    for text in texts:
        assert parse_unit(text, standard()) == parse_text(text, standard(), "unit"), text


def test_unit_reads_plain_units_only() -> None:
    unit = fast_unit("F STP/sc", standard(), keywords())
    assert unit is not None and str(unit) == "F StP/sc"
    for text in ("A XYZ", "Par", "A/F PAR", "Army PAR", "A PAR H", "F SPA/xx", "A  PAR"):
        assert fast_unit(text, standard(), keywords()) is None, text


def test_parse_order_unchanged_in_every_phase() -> None:
    for text in reference_texts():
        for phase in PHASES:
            assert parse_order(text, standard(), phase) == by_grammar(text, phase), (text, phase)


def test_reads_each_plain_form() -> None:
    gmap = standard()
    cases = {
        "A PAR H": "A Par H",
        "A PAR - BUR": "A Par - Bur",
        "A ALB - TRI via convoy": "A Alb - Tri via convoy",
        "F NTH C A LON - NWY": "F NTH C A Lon - Nwy",
        "A MUN S F KIE - BER": "A Mun S F Kie - Ber",
        "A ANK S F ARM": "A Ank S F Arm",
        "F STP/sc - BOT": "F StP/sc - BOT",
        "A BUR R PAR": "A Bur R Par",
        "F WAL D": "F Wal D",
        "Build A PAR": "Build A Par",
        "Remove F WAL": "Remove F Wal",
        "A Paris - Burgundy": "A Par - Bur",  # one-word full names too
    }
    for text, canonical in cases.items():
        order = fast_order(text, gmap, keywords())
        assert order is not None, text
        assert str(order) == canonical
        assert_agrees(text)
    move = fast_order("A ALB - TRI via convoy", gmap, keywords())
    assert isinstance(move, Move) and move.via_convoy
    support = fast_order("A MUN S F KIE - BER", gmap, keywords())
    assert isinstance(support, SupportMove) and support.dest.province == "Ber"


def test_leaves_everything_else_to_the_grammar() -> None:
    gmap = standard()
    for text in (
        "A XYZ - BUR",  # unknown name: the grammar path words the error
        "F SPA/xx - MAO",  # not a coast
        "F BUR/nc H",  # a coast on a province without coasts
        "F SPA/nc/sc H",
        "A PAR  - BUR",  # two spaces
        " A PAR - BUR",
        "A PAR - BUR.",
        "a par - bur",
        "A North Sea H",
        "A PAR - BUR - MAR",
        "A/F PAR H",
        "Waive",
        "",
    ):
        assert fast_order(text, gmap, keywords()) is None, text
    error = parse_order("A XYZ - BUR", gmap)
    assert isinstance(error, OrderError) and error.kind is ErrorKind.UNKNOWN_PROVINCE


def test_not_used_where_a_keyword_is_a_province_name() -> None:
    # With `par` among the keywords, `A PAR H` could read differently: the shortcut stands
    # aside for the whole map.
    assert fast_order("A PAR H", standard(), frozenset({"par"})) is None
    assert fast_order("A PAR H", standard(), keywords()) is not None


def test_text_checks_still_apply() -> None:
    # DATC 6.A.4: a move to its own province is illegal, shortcut or not.
    order = parse_order("A PAR - PAR", standard(), PhaseType.MOVEMENT)
    assert isinstance(order, OrderError) and order.kind is ErrorKind.ILLEGAL


_NAMES = st.sampled_from(
    ["PAR", "Par", "par", "BUR", "StP", "STP", "SPA", "BUL", "NTH", "nth", "ENG", "Mos", "Kie",
     "MAO", "Lon", "XYZ", "H", "S", "C", "D", "R", "Via", "convoy", "A", "F", "Build"]
)
_COASTS = st.sampled_from(["", "", "", "/nc", "/sc", "/ec", "/NC", "/xx", "/north"])
_PLACES = st.builds(lambda name, coast: name + coast, _NAMES, _COASTS)
_UNITS = st.builds(lambda kind, place: f"{kind} {place}", st.sampled_from(["A", "F"]), _PLACES)


@st.composite
def plain_looking(draw: st.DrawFn) -> str:
    unit = draw(_UNITS)
    form = draw(st.integers(0, 9))
    if form == 0:
        return f"{unit} H"
    if form == 1:
        return f"{unit} - {draw(_PLACES)}" + draw(st.sampled_from(["", " via convoy"]))
    if form == 2:
        return f"{unit} S {draw(_UNITS)}"
    if form == 3:
        return f"{unit} S {draw(_UNITS)} - {draw(_PLACES)}"
    if form == 4:
        return f"{unit} C {draw(_UNITS)} - {draw(_PLACES)}"
    if form == 5:
        return f"{unit} R {draw(_PLACES)}"
    if form == 6:
        return f"{unit} D"
    if form == 7:
        return f"Build {unit}"
    if form == 8:
        return f"Remove {unit}"
    return " ".join(draw(st.lists(_PLACES, min_size=1, max_size=6)))


@settings(max_examples=300, deadline=None)
@given(st.one_of(_UNITS, _PLACES))
def test_unit_agrees_with_grammar_on_generated_units(text: str) -> None:
    unit_agrees(text)


@settings(max_examples=400, deadline=None)
@given(plain_looking())
def test_agrees_with_grammar_on_generated_orders(text: str) -> None:
    assert_agrees(text)
    for phase in PHASES:
        assert parse_order(text, standard(), phase) == by_grammar(text, phase)
