"""The order language: player text -> typed orders of gm.engine.orders, or OrderError values.

The syntax is grammars/orders.lark; names are resolved against the game's map.

- `parse_order(text, gmap, phase_type=None, kinds=frozenset())`: one order, read for the phase;
  `kinds` are the variant orders the game allows (Variant.order_kinds, gm.notation.kinds).
- `parse_orders(text, gmap, phase_type=None, kinds=frozenset())`: the orders of one line
  (separated by commas or semicolons, gm.notation.lines).
- `parse_unit(text, gmap)`, `parse_location(text, gmap)`: `A Par`, `StP/nc`.
- `resolve_province(name, gmap)`: canonical abbreviation, or UNKNOWN_PROVINCE with suggestions.
- `stored_order(kept, text, board, phase_type, kinds)`: an order as stored, its value kept on
  arrival, else its text read again (gm.notation.stored).
"""

from gm.notation.lines import parse_orders
from gm.notation.names import coast_label
from gm.notation.parser import parse_location, parse_order, parse_unit, resolve_province
from gm.notation.stored import stored_order

__all__ = [
    "coast_label",
    "parse_location",
    "parse_order",
    "parse_orders",
    "parse_unit",
    "resolve_province",
    "stored_order",
]
