"""A line of several orders: `A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por`.

Orders on one line are separated by commas or semicolons (an Exchange or Alliance order takes
the rest of its part of the line, where commas separate its names). Within a line the seed's
A/F shorthand is read (Abstraction2 rule 3):

- `A disembarks Por` after an A/F order disembarks that A/F's army;
- `F(TYS)-WMS` after an order of the A/F in TYS is the order of that A/F's fleet;
- `A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)` is the disembarkation and the A/F fleet's
  support of it: [Disembark(A/F ENG, Bre), SupportMove(A/F ENG S A ENG - Bre)].
"""

from __future__ import annotations

import re

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.frozen import replace
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Disembark, Embark, Order, SupportMove, UnitSpec
from gm.engine.phase import PhaseType
from gm.engine.units import UnitType
from gm.notation.parser import parse_order, parse_unit

# Patterns compiled on first use (by the `re` module's cache): plain order lines never need
# them (the checks in _whole_part and _supported_by), and compiling costs start-up time.
_WHOLE_PART = r"\s*(?:exchanges?|alliance|ally|declares?\s+alliance|(?:formal\s+)?declaration)\b"
_ARMY_DISEMBARKS = r"\s*(?:a|army)\s+(disembarks?\b.*)"
_SUPPORTED_BY = r"(?P<head>.*\S)\s+(?:s|supported|support)\s+by\s+(?P<by>.*?)[\s.!]*"
_FLAGS = re.IGNORECASE | re.DOTALL


def _whole_part(part: str) -> bool:
    """Does the part start with an Exchange or Alliance order (taking the rest of it)?"""
    if part.isascii() and part.lstrip()[:4].lower() not in ("exch", "alli", "ally", "decl",
                                                            "form"):
        return False
    return re.match(_WHOLE_PART, part, re.IGNORECASE) is not None


def _supported_by(part: str) -> re.Match[str] | None:
    """`<order> S by <unit>`: the order and the supporting unit (Abstraction2 rule 3)."""
    if part.isascii() and "by" not in part.lower():
        return None
    return re.fullmatch(_SUPPORTED_BY, part, _FLAGS)


def split_orders(text: str) -> list[str]:
    """The order texts of a line, in order (empty parts dropped)."""
    parts: list[str] = []
    for part in text.split(";"):
        if _whole_part(part):
            parts.append(part)
        else:
            parts.extend(part.split(","))
    return [p for p in parts if p.strip(" \t.,;:!")]


def parse_orders(
    text: str,
    gmap: GameMap,
    phase_type: PhaseType | None = None,
    kinds: frozenset[str] = frozenset(),
) -> list[AnyOrder] | OrderError:
    """Every order of a line, read as parse_order reads each (same phase and `kinds`), with
    the A/F shorthand of the module docstring; the first order that cannot be read is the
    error, offering only the words of orders a phase of `phase_type` takes."""
    parts = split_orders(text)
    if not parts:
        return OrderError(ErrorKind.UNREADABLE, text, "Expected an order, found nothing.")
    if len(parts) == 1 and _supported_by(parts[0]) is None:
        single = parse_order(parts[0], gmap, phase_type, kinds, offer=phase_type)
        return single if isinstance(single, OrderError) else [single]
    orders: list[AnyOrder] = []
    pairs: list[UnitSpec] = []  # the A/F units named so far on the line, latest last
    for part in parts:
        got = _parse_part(part, gmap, phase_type, kinds, pairs[-1] if pairs else None)
        if isinstance(got, OrderError):
            return got
        for order in got:
            order = _as_pair_order(order, pairs)
            orders.append(order)
            pair = _pair_of(order)
            if pair is not None:
                pairs.append(pair)
    return orders


def _parse_part(
    part: str,
    gmap: GameMap,
    phase_type: PhaseType | None,
    kinds: frozenset[str],
    pair: UnitSpec | None,
) -> list[AnyOrder] | OrderError:
    army = re.fullmatch(_ARMY_DISEMBARKS, part, _FLAGS)
    if army is not None and pair is not None:
        part = f"{pair} {army.group(1)}"
    supported = _supported_by(part)
    if supported is not None:
        head = parse_order(supported.group("head"), gmap, phase_type, kinds, offer=phase_type)
        if isinstance(head, Disembark):
            by = parse_unit(supported.group("by"), gmap)
            if isinstance(by, OrderError):
                return by
            if by.province == head.unit.province and by.type is not UnitType.ARMY:
                by = UnitSpec(UnitType.ARMY_FLEET, head.unit.location)
            army_spec = UnitSpec(UnitType.ARMY, head.unit.location)
            return [head, SupportMove(by, army_spec, head.dest)]
    order = parse_order(part, gmap, phase_type, kinds, offer=phase_type)
    return order if isinstance(order, OrderError) else [order]


def _pair_of(order: AnyOrder) -> UnitSpec | None:
    """The A/F an order names or makes (an Embark makes one in the fleet's sea)."""
    if isinstance(order, Embark):
        return UnitSpec(UnitType.ARMY_FLEET, order.fleet)
    if isinstance(order, Order) and order.unit.type is UnitType.ARMY_FLEET:
        return order.unit
    return None


def _as_pair_order(order: AnyOrder, pairs: list[UnitSpec]) -> AnyOrder:
    """A fleet's order where the line already named an A/F: the A/F's fleet's order."""
    if not isinstance(order, Order) or isinstance(order, Embark):
        return order
    if order.unit.type is not UnitType.FLEET:
        return order
    for pair in reversed(pairs):
        if pair.province == order.unit.province:
            return replace(order, unit=pair)
    return order
