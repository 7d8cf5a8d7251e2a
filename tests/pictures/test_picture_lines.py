"""A picture read line by line (gm.pictures.lines, each line once for every picture that has
it) is the picture read whole; text not written an element a line is left to be read whole."""

from __future__ import annotations

from copy import deepcopy as copy_of
from xml.etree import ElementTree

import numpy as np
import pytest

from gm.pictures import lines, paint
from tests.support.picture_cases import PICTURES


@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_a_picture_read_line_by_line_is_the_picture_read_whole(picture: str) -> None:
    svg = PICTURES[picture]()
    body = svg[svg.index(">", svg.index("<svg")) + 1:svg.rindex("</svg>")]
    read = lines.elements(body)
    assert read is not None
    whole = _written(list(ElementTree.fromstring(svg)))
    assert _written(read) == whole
    again = lines.elements(body)  # the kept lines' elements, groups made anew
    assert again is not None and _written(again) == whole


def _written(elements: list[ElementTree.Element]) -> list[bytes]:
    """The elements as text, the white space between them left out (nothing draws it)."""
    out = []
    for element in elements:
        copy = copy_of(element)
        for e in copy.iter():
            e.tail = None
            if e.text is not None and not e.text.strip():
                e.text = None
        out.append(ElementTree.tostring(copy))
    return out


@pytest.mark.parametrize("text", [
    '<g class="a">\n<circle r="1"/>',  # a group left open
    '<g class="a"><circle r="1"/>\n</g>',  # an element over two lines
    '<circle r="1"/>words',  # text between elements
    "</g>",  # a group closed that was not opened
])
def test_text_not_written_an_element_a_line_is_read_whole(text: str) -> None:
    assert lines.elements(text) is None


@pytest.mark.parametrize("picture", ["movement", "chaos2", "terrain events"])
def test_elements_drawn_from_their_recordings_are_the_elements_drawn(picture: str) -> None:
    """The kept lines' elements are drawn from recordings of their drawing, kept with them
    (gm.pictures.paint._Painter.replay): the same pixels as the picture read whole and drawn
    element by element (its text written so that it cannot be read line by line)."""
    svg = PICTURES[picture]()
    cut = svg.index('\n<g class="centres"')
    whole = svg[:cut] + svg[cut:].replace("/>\n<", "/><")  # elements no longer a line each
    assert lines.elements(whole[cut:whole.rindex("</svg>")]) is None
    paint._boards.kept.clear()
    first, _, _ = paint.paint_rgba(svg, 1.0)  # recorded
    again, _, _ = paint.paint_rgba(svg, 1.0)  # played again
    drawn, _, _ = paint.paint_rgba(whole, 1.0)
    assert np.array_equal(first, drawn) and np.array_equal(again, drawn)
