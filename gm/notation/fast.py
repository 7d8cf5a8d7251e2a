"""A shortcut for the commonest order texts, giving exactly what the grammar builds.

Most orders are written in the plainest form: `A PAR - BUR`, `F NTH C A LON - NWY`,
`A MUN S F KIE - BER`, `F STP/sc H`, `Build A PAR`: one upper-case keyword or a `-` between
one-word names, single spaces, nothing else. For such a text the grammar (grammars/orders.lark)
reads each name as one `location` (a keyword that follows a name is a keyword in every state
where it may come), so the order can be built from the words directly, with the same name
resolution as gm.notation.transformer.OrderBuilder.location.

`fast_order` (and `fast_unit`, for the `unit` rule) returns None for anything else and for
anything it could not resolve; the caller then parses the text with the grammar. It is used
only on maps where no keyword of the grammar is also a province name, so a keyword can never be
read as a name or the other way.
The variant orders (`A Lon boards F ENG`, `A/F ENG - MAO`, `Erode Mos`, ...) never have
these shapes, so they always go to the grammar, which knows the game's order kinds.
tests/notation/test_orders_fast.py checks that it agrees with the grammar on every order line of the
reference files and on generated orders.
"""

from __future__ import annotations

import os
import weakref
from typing import Any

from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitSpec,
)
from gm.engine.units import UnitType
from gm.notation.names import coast_label, find_province
from gm.notation.table_cache import cached_json

_TYPES = {"A": UnitType.ARMY, "F": UnitType.FLEET}

# map -> (the keywords checked against it, one-word place as written -> the Location the
# grammar builds for it, or None when the shortcut does not apply to this map: see `_usable`).
_PLACES: weakref.WeakKeyDictionary[
    GameMap, tuple[frozenset[str], dict[str, Location] | None]
] = weakref.WeakKeyDictionary()
# The map, keywords and place cache of the last call, as one tuple (read and replaced whole, so
# threads never see one call's map with another's cache): a weak-keyed lookup costs more than
# the rest of reading a plain order; the last map is kept alive until another is used.
_LAST: list[tuple[Any, Any, dict[str, Location] | None]] = [(None, None, None)]


def fast_order(text: str, gmap: GameMap, keywords: frozenset[str]) -> AnyOrder | None:
    """The order the grammar builds for `text` on `gmap`, or None when the text is not in the
    plain form this shortcut reads (the grammar then decides). `keywords` are the grammar's
    keyword spellings, case-folded (TableParser.keywords)."""
    words = text.split(" ")
    shape = _shape(words)
    if shape is None:
        return None
    places = _places_for(gmap, keywords)
    if places is None:
        return None
    n = len(words)
    try:
        if shape == "build":
            return Build(_unit_of(words[1], words[2], gmap, places))
        if shape == "remove":
            return Remove(_unit_of(words[1], words[2], gmap, places))
        unit = _unit_of(words[0], words[1], gmap, places)
        if shape == "H":
            return Hold(unit)
        if shape == "-":
            return Move(unit, _place(words[3], gmap, places), n == 6)
        if shape == "S":
            target = _unit_of(words[3], words[4], gmap, places)
            if n == 5:
                return SupportHold(unit, target)
            return SupportMove(unit, target, _place(words[6], gmap, places))
        if shape == "C":
            target = _unit_of(words[3], words[4], gmap, places)
            return Convoy(unit, target, _place(words[6], gmap, places))
        if shape == "R":
            return Retreat(unit, _place(words[3], gmap, places))
        return Disband(unit)
    except LookupError:
        return None


def _shape(words: list[str]) -> str | None:
    """Which plain form the words (split at single spaces) have, or None:
    `A PAR H`, `A PAR D`, `A PAR R BUR`, `A PAR - BUR` (` via convoy`), `A PAR S A MAR`
    (` - BUR`), `A PAR C A LON - NWY`, `Build A PAR`, `Remove A PAR`; a type is `A` or `F`,
    a place one word of ASCII letters with `/coast` perhaps."""
    n = len(words)
    if n < 3:
        return None
    first = words[0]
    if first == "Build" or first == "Remove":
        if n == 3 and words[1] in _TYPES and _is_place(words[2]):
            return first.lower()
        return None
    if first not in _TYPES or not _is_place(words[1]):
        return None
    kind = words[2]
    if n == 3:
        return kind if kind == "H" or kind == "D" else None
    if kind == "-":
        if (n == 4 or (n == 6 and words[4] == "via" and words[5] == "convoy")) \
                and _is_place(words[3]):
            return kind
        return None
    if kind == "R":
        return kind if n == 4 and _is_place(words[3]) else None
    if (kind == "S" or kind == "C") and n >= 5:
        if words[3] not in _TYPES or not _is_place(words[4]):
            return None
        if n == 5:
            return kind if kind == "S" else None
        if n == 7 and words[5] == "-" and _is_place(words[6]):
            return kind
    return None


def _is_place(word: str) -> bool:
    """`[A-Za-z]+(/[A-Za-z]+)?`"""
    if not word.isascii():
        return False
    name, slash, coast = word.partition("/")
    return name.isalpha() and (not slash or coast.isalpha())


def fast_unit(text: str, gmap: GameMap, keywords: frozenset[str]) -> UnitSpec | None:
    """The unit the grammar's `unit` rule builds for a plain `A PAR` or `F STP/sc` on `gmap`,
    or None when the text is not in that form (the grammar then decides)."""
    kind, space, place = text.partition(" ")
    if not space or kind not in _TYPES or not _is_place(place):
        return None
    places = _places_for(gmap, keywords)
    if places is None:
        return None
    try:
        return _unit_of(kind, place, gmap, places)
    except LookupError:
        return None


def _places_for(gmap: GameMap, keywords: frozenset[str]) -> dict[str, Location] | None:
    """The shortcut's place cache for `gmap`, or None when the shortcut does not apply."""
    last_map, last_keywords, last_places = _LAST[0]
    if last_map is gmap and last_keywords is keywords:  # the same map as last time (most often)
        return last_places
    known = _PLACES.get(gmap)
    if known is None or known[0] is not keywords:
        known = _PLACES[gmap] = (keywords, {} if _usable(gmap, keywords) else None)
    _LAST[0] = (gmap, keywords, known[1])
    return known[1]


def _usable(gmap: GameMap, keywords: frozenset[str]) -> bool:
    """Whether no keyword is also a name of a province on `gmap`. The answer depends only on
    the map's names, the keywords and the name rules, so it is kept in the user's cache
    (gm.notation.table_cache) under all of them: working it out builds the map's whole name
    index, which reading plain orders does not otherwise need."""
    from gm.notation import names

    source = "\n".join((
        repr(sorted(keywords)),
        repr(sorted(gmap.names.items())),
        repr(sorted((a, p.name, p.aliases) for a, p in gmap.provinces.items())),
        repr(sorted(gmap.terrain)),
        _source_of(names.__file__),
        _source_of(__file__),
    ))
    found = cached_json("fast-usable", source, 1, lambda: _no_keyword_names(gmap, keywords))
    return found if isinstance(found, bool) else _no_keyword_names(gmap, keywords)


def _source_of(path: str) -> str:
    """The source text of the module at `path` (for a compiled module, of the .py beside it)."""
    folder, name = os.path.split(path)
    path = os.path.join(folder, name.split(".", 1)[0] + ".py")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""


def _no_keyword_names(gmap: GameMap, keywords: frozenset[str]) -> bool:
    return all(find_province(word, gmap) is None for word in keywords)


def _unit_of(kind: str, written: str, gmap: GameMap, places: dict[str, Location]) -> UnitSpec:
    return UnitSpec(_TYPES[kind], _place(written, gmap, places))


def _place(written: str, gmap: GameMap, places: dict[str, Location]) -> Location:
    """The place a one-word name (with `/coast` perhaps) names, as OrderBuilder.location
    builds it; LookupError when the builder would do anything but return a place plainly
    (unknown names, unknown or needless coasts: the grammar path gives those their message)."""
    place = places.get(written)
    if place is not None:
        return place
    name, slash, coast = written.partition("/")
    province = find_province(name, gmap)
    if province is None:
        raise LookupError(written)
    if slash:
        # A split province with one of its coasts (OrderBuilder._on_coast); the rest is left
        # to the grammar path.
        label = coast_label(coast, gmap)
        labels = gmap.coasts.get(province, ())
        if len(labels) < 2 or label not in labels:
            raise LookupError(written)
        place = Location(province, label)
    else:
        place = Location(province)
    places[written] = place
    return place
