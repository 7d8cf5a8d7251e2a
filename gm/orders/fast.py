"""A shortcut for the commonest order texts, giving exactly what the grammar builds.

Most orders are written in the plainest form: `A PAR - BUR`, `F NTH C A LON - NWY`,
`A MUN S F KIE - BER`, `F STP/sc H`, `Build A PAR`: one upper-case keyword or a `-` between
one-word names, single spaces, nothing else. For such a text the grammar (grammars/orders.lark)
reads each name as one `location` (a keyword that follows a name is a keyword in every state
where it may come), so the order can be built from the words directly, with the same name
resolution as gm.orders.transformer.OrderBuilder.location.

`fast_order` (and `fast_unit`, for the `unit` rule) returns None for anything else and for
anything it could not resolve; the caller then parses the text with the grammar. It is used
only on maps where no keyword of the grammar is also a province name, so a keyword can never be
read as a name or the other way.
The variant orders (`A Lon boards F ENG`, `A/F ENG - MAO`, `Erode Mos`, ...) never have
these shapes, so they always go to the grammar, which knows the game's order kinds.
tests/test_orders_fast.py checks that it agrees with the grammar on every order line of the
reference files and on generated orders.
"""

from __future__ import annotations

import re
import weakref

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
from gm.orders.names import coast_label, find_province

_PLACE = r"[A-Za-z]+(?:/[A-Za-z]+)?"
_UNIT = rf"[AF] {_PLACE}"
_SHAPES = re.compile(
    rf"(?P<unit>{_UNIT}) (?:"
    r"(?P<hold>H)"
    rf"|- (?P<move>{_PLACE})(?P<via> via convoy)?"
    rf"|S (?P<supported>{_UNIT})(?: - (?P<support_dest>{_PLACE}))?"
    rf"|C (?P<convoyed>{_UNIT}) - (?P<convoy_dest>{_PLACE})"
    rf"|R (?P<retreat>{_PLACE})"
    r"|(?P<disband>D)"
    r")"
    rf"|Build (?P<build>{_UNIT})"
    rf"|Remove (?P<remove>{_UNIT})"
)
_UNIT_ONLY = re.compile(_UNIT)
_TYPES = {"A": UnitType.ARMY, "F": UnitType.FLEET}

# map -> (the keywords checked against it, one-word place as written -> the Location the
# grammar builds for it, or None when the shortcut does not apply to this map: see `_usable`).
_PLACES: weakref.WeakKeyDictionary[
    GameMap, tuple[frozenset[str], dict[str, Location] | None]
] = weakref.WeakKeyDictionary()


def fast_order(text: str, gmap: GameMap, keywords: frozenset[str]) -> AnyOrder | None:
    """The order the grammar builds for `text` on `gmap`, or None when the text is not in the
    plain form this shortcut reads (the grammar then decides). `keywords` are the grammar's
    keyword spellings, case-folded (TableParser.keywords)."""
    match = _SHAPES.fullmatch(text)
    if match is None:
        return None
    places = _places_for(gmap, keywords)
    if places is None:
        return None
    groups = match.groupdict()
    try:
        build = groups["build"]
        if build is not None:
            return Build(_unit(build, gmap, places))
        remove = groups["remove"]
        if remove is not None:
            return Remove(_unit(remove, gmap, places))
        unit = _unit(groups["unit"], gmap, places)
        if groups["hold"] is not None:
            return Hold(unit)
        dest = groups["move"]
        if dest is not None:
            return Move(unit, _place(dest, gmap, places), groups["via"] is not None)
        supported = groups["supported"]
        if supported is not None:
            target = _unit(supported, gmap, places)
            dest = groups["support_dest"]
            if dest is None:
                return SupportHold(unit, target)
            return SupportMove(unit, target, _place(dest, gmap, places))
        convoyed = groups["convoyed"]
        if convoyed is not None:
            target = _unit(convoyed, gmap, places)
            return Convoy(unit, target, _place(groups["convoy_dest"], gmap, places))
        dest = groups["retreat"]
        if dest is not None:
            return Retreat(unit, _place(dest, gmap, places))
        return Disband(unit)
    except LookupError:
        return None


def fast_unit(text: str, gmap: GameMap, keywords: frozenset[str]) -> UnitSpec | None:
    """The unit the grammar's `unit` rule builds for a plain `A PAR` or `F STP/sc` on `gmap`,
    or None when the text is not in that form (the grammar then decides)."""
    if _UNIT_ONLY.fullmatch(text) is None:
        return None
    places = _places_for(gmap, keywords)
    if places is None:
        return None
    try:
        return _unit(text, gmap, places)
    except LookupError:
        return None


def _places_for(gmap: GameMap, keywords: frozenset[str]) -> dict[str, Location] | None:
    """The shortcut's place cache for `gmap`, or None when the shortcut does not apply."""
    known = _PLACES.get(gmap)
    if known is None or known[0] is not keywords:
        known = _PLACES[gmap] = (keywords, {} if _usable(gmap, keywords) else None)
    return known[1]


def _usable(gmap: GameMap, keywords: frozenset[str]) -> bool:
    """Whether no keyword is also a name of a province on `gmap`."""
    return all(find_province(word, gmap) is None for word in keywords)


def _unit(written: str, gmap: GameMap, places: dict[str, Location]) -> UnitSpec:
    kind, _, place = written.partition(" ")
    return UnitSpec(_TYPES[kind], _place(place, gmap, places))


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
