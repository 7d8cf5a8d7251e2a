"""Order text a player gets wrong: the error values and their messages (never exceptions)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.errors import ErrorCode, ErrorKind, OrderError, compose
from gm.engine.map import GameMap
from gm.engine.orders import Waive
from gm.engine.phase import PhaseType
from gm.notation import parse_location, parse_order, parse_unit, resolve_province
from gm.variants.maps import standard_map


@cache
def gmap() -> GameMap:
    return standard_map()


def error(text: str, phase: PhaseType | None = None) -> OrderError:
    parsed = parse_order(text, gmap(), phase)
    assert isinstance(parsed, OrderError), f"{text!r} read as {parsed}"
    assert parsed.text == text
    return parsed


# -- unreadable --------------------------------------------------------------------------------
def test_unreadable_quotes_the_order_and_says_where_and_what_was_expected() -> None:
    e = error("A Par @ Bur")
    assert e.kind is ErrorKind.UNREADABLE
    assert e.message == (
        'Cannot read "A Par @ Bur" at line 1, column 7: expected '
        "'-', 'H', 'S', 'C', 'R' or 'D' after \"A Par\", not \"@\"."
    )


def test_a_misspelt_keyword_gets_the_closest_keyword() -> None:
    e = error("A Par suports Mar")
    assert e.kind is ErrorKind.UNREADABLE
    assert "column 7" in e.message
    assert 'after "A Par", not "suports"' in e.message
    assert "did you mean 'supports'?" in e.message


def test_a_second_name_without_a_keyword_between() -> None:
    e = error("A Par Bur")
    assert e.kind is ErrorKind.UNREADABLE
    assert 'not "Bur"' in e.message and "'-'" in e.message


def test_an_order_that_stops_too_early() -> None:
    assert error("A Par S").message == (
        'Cannot read "A Par S": it stops too early; expected a unit type (A or F) or a '
        "province name next."
    )
    assert "expected '-' next" in error("F ENG C A Lon").message
    assert "expected a province name next" in error("A Lon - Bre -").message


def test_line_and_column_on_a_later_line() -> None:
    e = error("A Par -\n  @ Bur")
    assert e.kind is ErrorKind.UNREADABLE
    assert "at line 2, column 3" in e.message


@pytest.mark.parametrize(
    "text", ["Cheers!", "Thanks", "Best regards", "Ed", "Embark A Con on F BLA"])
def test_a_line_that_is_only_an_unknown_name_is_not_an_order(text: str) -> None:
    e = error(text)
    assert e.kind is ErrorKind.UNREADABLE
    assert e.message.startswith(f'Not an order: "{text}". An order names a unit')
    assert "SIGNOFF" in e.message


def test_an_unknown_province_inside_an_order_is_still_named() -> None:
    e = error("Brx - MAO")
    assert e.kind is ErrorKind.UNKNOWN_PROVINCE
    assert e.message.startswith('Unknown province "Brx" in "Brx - MAO": did you mean')


@pytest.mark.parametrize("text", ["Waive", "build waive", "Waive build", "B waive", "waive builds"])
def test_a_waiver_in_the_ways_players_write_it(text: str) -> None:
    assert parse_order(text, gmap(), PhaseType.ADJUSTMENT) == Waive()


def test_a_build_needs_a_unit_type() -> None:
    e = error("Build Par")
    assert e.kind is ErrorKind.UNREADABLE
    assert 'expected a unit type (A or F) or \'waive\' after "Build", not "Par"' in e.message


def test_after_a_complete_move_only_its_endings_are_expected() -> None:
    e = error("A Lon - Bre x")
    assert "expected 'via', 'by', '-' or the end of the order after \"A Lon - Bre\"" in e.message


def test_a_retreat_has_no_convoy() -> None:
    e = error("A Bur R Par via convoy")
    assert e.kind is ErrorKind.UNREADABLE
    assert "the end of the order" in e.message


def test_empty_text() -> None:
    for text in ("", "   ", "\n"):
        assert error(text).kind is ErrorKind.UNREADABLE
    empty_unit = parse_unit("", gmap())
    assert isinstance(empty_unit, OrderError) and empty_unit.kind is ErrorKind.UNREADABLE


def test_something_that_is_not_a_coast() -> None:
    e = error("F StP/xx H")
    assert e.kind is ErrorKind.UNREADABLE
    assert '"xx" is not a coast' in e.message


# -- unknown provinces -------------------------------------------------------------------------
def test_unknown_province_is_quoted_with_suggestions() -> None:
    e = error("A Par - Burgndy")
    assert e.kind is ErrorKind.UNKNOWN_PROVINCE
    assert e.suggestions == ("Bur (Burgundy)",)
    assert e.message == (
        'Unknown province "Burgndy" in "A Par - Burgndy": did you mean Bur (Burgundy)?'
    )


def test_unknown_multi_word_province() -> None:
    e = error("F Gulf of Lyin - Spa/sc")
    assert e.kind is ErrorKind.UNKNOWN_PROVINCE
    assert '"Gulf of Lyin"' in e.message
    assert e.suggestions == ("LYO (Gulf of Lyon)",)


def test_unknown_province_with_nothing_close() -> None:
    e = error("A Xqzzv H")
    assert e.kind is ErrorKind.UNKNOWN_PROVINCE
    assert e.suggestions == ()
    assert "write a province's name or abbreviation" in e.message


def test_a_coast_the_province_does_not_have() -> None:
    e = error("F Spa/ec H")
    assert e.kind is ErrorKind.UNKNOWN_PROVINCE
    assert e.suggestions == ("Spa/nc", "Spa/sc")
    assert e.message == (
        'Unknown coast "Spa/ec" in "F Spa/ec H": Spa (Spain) has the coasts nc and sc; '
        "write Spa/nc or Spa/sc."
    )


def test_a_coast_for_a_province_without_coasts() -> None:
    for text in ("A Par/nc H", "F NTH (north coast) H"):
        e = error(text)
        assert e.kind is ErrorKind.UNKNOWN_PROVINCE
        assert "has no coasts to choose from" in e.message
    assert '"NTH (north coast)"' in error("F NTH (north coast) H").message


def test_parse_location_errors() -> None:
    e = parse_location("Burgndy", gmap())
    assert isinstance(e, OrderError) and e.kind is ErrorKind.UNKNOWN_PROVINCE
    e = parse_location("Par - Bur", gmap())
    assert isinstance(e, OrderError) and e.kind is ErrorKind.UNREADABLE


# -- illegal as written ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("A Par - Par", "cannot move to the province it is in"),  # DATC 6.A.4
        ("F kie-kie", "cannot move to the province it is in"),
        ("F Spa/nc - Spa/sc", "cannot move to the province it is in"),
        ("A Lon - NTH - Lon", "cannot move to the province it is in"),
        ("F tri supports F tri", "cannot support itself"),  # DATC 6.A.8
        ("A Par S A Par - Bur", "cannot support its own move"),
        ("A lvp supports A yor-yor", "supported unit cannot move to the province it is in"),
        ("A pru S A lvn-pru", "cannot support a move into its own province"),  # DATC 6.D.34
        ("F nth convoys A yor - yor", "convoyed unit cannot move to the province it is in"),
        ("F NTH C F NTH - Lon", "cannot convoy itself"),
    ],
)
def test_orders_the_text_proves_illegal(text: str, reason: str) -> None:
    e = error(text)
    assert e.kind is ErrorKind.ILLEGAL
    assert e.message == f'"{text}": a unit {reason}.' or e.message == f'"{text}": the {reason}.'


def test_a_retreat_to_its_own_province_is_illegal() -> None:
    assert error("A Bur - Bur", PhaseType.RETREAT).kind is ErrorKind.ILLEGAL
    assert error("A Bur R Bur").kind is ErrorKind.ILLEGAL


def test_a_convoyed_retreat_is_illegal() -> None:
    for text in ("A Bur - Par via convoy", "A Lon - ENG - Bre"):
        e = error(text, PhaseType.RETREAT)
        assert e.kind is ErrorKind.ILLEGAL
        assert "a retreat cannot go by convoy" in e.message


SALAD = [
    "A", "F", "S", "C", "H", "R", "D", "B", "Par", "Bur", "StP", "/", "(", ")", "-", "nc", "sc",
    "via", "convoy", "to", "Build", "Remove", "Waive", "St.", "Petersburg", "north", "coast",
    ".", ",", "Mid-Atlantic", "Ocean", "xx",
]  # fmt: skip


# -- never an exception ------------------------------------------------------------------------
@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_any_text_gives_an_order_or_an_error(text: str) -> None:
    for phase in (None, PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT):
        parsed = parse_order(text, gmap(), phase)
        if isinstance(parsed, OrderError):
            assert parsed.text == text
            assert text.strip() in parsed.message or not text.strip()


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(SALAD),
        max_size=10,
    )
)
def test_any_word_salad_gives_an_order_or_an_error(words: list[str]) -> None:
    text = " ".join(words)
    parsed = parse_order(text, gmap())
    assert not isinstance(parsed, OrderError) or parsed.text == text


@pytest.mark.parametrize(
    ("typed", "abbr"),
    [("Const", "Con"), ("North Atl", "NAO"), ("Mid-Atl", "MAO"), ("Marseil", "Mar"),
     ("North Afr", "NAf"), ("Bohem", "Boh"), ("East Med", "EMS"), ("Picard", "Pic"),
     ("Sebastopol", "Sev"), ("Gulf of Lion", "LYO"), ("Nor A", "NAf")],
)
def test_a_name_shortened_word_by_word_is_read_when_one_province_fits(
    typed: str, abbr: str
) -> None:
    assert resolve_province(typed, gmap()) == abbr


@pytest.mark.parametrize("typed", ["Gulf", "Nort", "Med", "Sea"])
def test_a_shortened_name_that_fits_several_provinces_is_unknown(typed: str) -> None:
    error = resolve_province(typed, gmap())
    assert isinstance(error, OrderError)
    assert error.kind is ErrorKind.UNKNOWN_PROVINCE


# -- codes and fields: what a reply words an error from ------------------------------------------
def test_an_unreadable_order_carries_where_it_stops_as_fields() -> None:
    e = error("A Par @ Bur")
    assert e.code is ErrorCode.CANNOT_READ_AT
    assert (e.field("quoted"), e.field("line"), e.field("column")) == ("A Par @ Bur", "1", "7")
    # worded again with the line dropped and another column, as a reply places it in a line
    assert e.worded(line="", column="12") == (
        'Cannot read "A Par @ Bur" at column 12: expected '
        "'-', 'H', 'S', 'C', 'R' or 'D' after \"A Par\", not \"@\"."
    )


def test_a_line_that_names_nothing_is_not_an_order_and_takes_a_hint() -> None:
    e = error("Bulid A Lon")
    assert e.code is ErrorCode.NOT_AN_ORDER and e.field("written") == "Bulid A Lon"
    assert e.worded(hint=" (did you mean 'Build'?)").startswith(
        "Not an order: \"Bulid A Lon\" (did you mean 'Build'?). An order names a unit")


def test_an_order_of_another_phase_is_named_by_its_class_and_worded_with_another_word() -> None:
    from gm.engine.legality import check_movement_order
    from gm.variants import get_variant

    standard = get_variant("standard")
    state = standard.start_state()
    order = parse_order("Build A Par", gmap(), PhaseType.ADJUSTMENT)
    assert not isinstance(order, OrderError)
    checked = check_movement_order(gmap(), state, "France", order)
    assert isinstance(checked, OrderError)
    assert checked.code is ErrorCode.NOT_IN_PHASE
    assert (checked.field("order"), checked.field("phase")) == ("build", "movement")
    assert checked.message == "a build order is not possible in a movement phase"
    assert checked.worded(order="removal", phase="adjustment") == \
        "a removal order is not possible in an adjustment phase"


def test_an_error_made_with_a_message_alone_is_stated_and_takes_forms() -> None:
    e = OrderError(ErrorKind.ILLEGAL, "x", "no unit in Bur")
    assert e.code is ErrorCode.STATED and e.field("message") == "no unit in Bur"
    with_forms = e.with_fields(forms="Erode <province>")
    assert with_forms.message == "no unit in Bur Accepted forms: Erode <province>."
    assert with_forms.code is ErrorCode.STATED and with_forms.field("forms")
    assert compose(ErrorCode.STATED, with_forms.fields) == with_forms.message
