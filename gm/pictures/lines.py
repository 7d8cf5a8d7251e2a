"""gm's SVG read line by line, each line read once for every picture that has it.

svg.py writes a picture an element a line: whole elements (a unit, a centre, a name, an
order's marks, a legend's square and words), a group's opening tag, or its closing `</g>`.
The pictures of a variant share most of their lines (its board, its names, the centres and
units that have not moved), so a line's elements are kept by its text (`LINES` lines, each
from the second time it is read: a picture's title is read once, gm.pictures.second_sight) and
a picture is read by putting its lines' elements together. Kept elements are shared by the
pictures that have them and never changed; a group's element is made anew for each picture
(its children are the picture's). Text not so written (an element over several lines, text
between elements) gives None, to be read whole.
"""

from __future__ import annotations

import threading
from xml.etree import ElementTree

from gm.pictures.second_sight import SecondSight

LINES = 8192  # lines' elements kept
_OPEN = '<svg xmlns="http://www.w3.org/2000/svg">'
_lock = threading.Lock()
_kept: dict[str, tuple[ElementTree.Element, ...]] = {}
_ids: set[int] = set()  # the kept elements' ids (kept: no other object has them meanwhile)
_met = SecondSight(LINES)  # the lines read lately (a line is kept the second time)


def whole(line: str) -> tuple[ElementTree.Element, ...] | None:
    """The elements `line` writes whole (one or more), kept by its text; None if it writes
    anything else."""
    with _lock:
        found = _kept.get(line)
    if found is not None:
        return found
    try:
        wrapped = ElementTree.fromstring(f"{_OPEN}{line}</svg>")
    except ElementTree.ParseError:
        return None
    if not len(wrapped) or (wrapped.text or "").strip() or any(
            (e.tail or "").strip() for e in wrapped):
        return None
    for e in wrapped:
        e.tail = None
    found = tuple(wrapped)
    with _lock:
        if not _met.again(line):
            return found
        if len(_kept) >= LINES:
            _kept.clear()
            _ids.clear()
        _kept[line] = found
        _ids.update(id(e) for e in found)
    return found


def is_kept(element: ElementTree.Element) -> bool:
    """Whether `element` is a line's, kept (the same object in every picture with the line:
    what is worked out from it may be kept with it, gm.pictures.paint._Painter.replay)."""
    return id(element) in _ids


def elements(text: str) -> list[ElementTree.Element] | None:
    """The top elements `text` writes, one element, opening tag or closing `</g>` a line
    (see above); None if it is not so written."""
    top: list[ElementTree.Element] = []
    stack: list[ElementTree.Element] = []
    for line in text.split("\n"):
        if not line:
            continue
        if line == "</g>":
            if not stack:
                return None
            done = stack.pop()
            (stack[-1] if stack else top).append(done)
            continue
        if line.startswith("<g") and line.endswith(">") and not line.endswith("/>") \
                and "</" not in line:
            opened = whole(line + "</g>")
            if opened is None or len(opened) != 1:
                return None
            stack.append(ElementTree.Element(opened[0].tag, opened[0].attrib))
            continue
        found = whole(line)
        if found is None:
            return None
        (stack[-1] if stack else top).extend(found)
    return None if stack else top
