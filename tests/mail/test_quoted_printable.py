"""gm.mail.quoted_printable.body_encode writes exactly what email.quoprimime.body_encode does."""

from __future__ import annotations

from email import quoprimime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.mail.quoted_printable import body_encode

# the characters that decide the line breaking: quoted ones, '=', whitespace, line ends
_TRICKY = st.sampled_from(["=", " ", "\t", "\r", "\n", "\r\n", "é", "\x00", "\x7f", "a", "~"])
_TEXT = st.lists(st.one_of(_TRICKY, st.characters(max_codepoint=255)), max_size=400).map(
    "".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.integers(min_value=4, max_value=90))
def test_the_same_text_as_the_library(body: str, maxlinelen: int) -> None:
    assert body_encode(body, maxlinelen) == quoprimime.body_encode(body, maxlinelen)


@pytest.mark.parametrize("line", [
    "x" * 77 + " ", "x" * 76 + "\t", "x" * 75 + " ", "x" * 74 + "=" + "y" * 10,
    "x" * 73 + "é" * 3, "a=b" * 60, "", "\n", "trailing \n", "é\r\nü\r\n"])
def test_the_edges_of_a_line(line: str) -> None:
    """Whitespace at a line's end, an escape where a line breaks, empty input, line ends."""
    text = line.encode("utf-8").decode("latin-1")
    assert body_encode(text, 78) == quoprimime.body_encode(text, 78)


def test_a_line_shorter_than_an_escape_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 4"):
        body_encode("text", 3)
