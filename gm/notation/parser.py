"""Reading order text: grammars/orders.lark, compiled once, and the public parse functions.

Every function returns a value or an OrderError; player text never raises.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Embark, UnitSpec
from gm.engine.phase import PhaseType
from gm.notation.checks import text_error
from gm.notation.fast import fast_order, fast_unit
from gm.notation.kinds import kind_error, kind_phase_error, with_forms
from gm.notation.lalr import TABLE_FORMAT, NoParse, TableParser, table_data
from gm.notation.names import find_province, not_an_order, protect_hyphens, unknown_province
from gm.notation.phases import read_for_phase
from gm.notation.table_cache import cached_json
from gm.paths import GRAMMARS

if TYPE_CHECKING:
    from lark import Lark

    from gm.notation.transformer import OrderBuilder

# gm.notation.transformer (the grammar's builder) is imported where an order needs the grammar:
# plain orders are read without it (gm.notation.fast), and importing it costs start-up time.

GRAMMAR_FILE = GRAMMARS / "orders.lark"
START_SYMBOLS = ("order", "unit", "location")


@functools.cache
def order_lark() -> Lark:
    """The order grammar compiled by Lark (LALR, contextual lexer), built once. Reading valid
    orders does not need it (`table_parser`); messages about unreadable ones do."""
    from lark import Lark

    return Lark(
        GRAMMAR_FILE.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        start=list(START_SYMBOLS),
        maybe_placeholders=False,
    )


@functools.cache
def table_parser() -> TableParser:
    """The fast runner of the grammar's table; checks that every rule has a builder method.
    The table comes from the cache (gm.notation.table_cache) when the grammar has not changed."""
    grammar = GRAMMAR_FILE.read_text(encoding="utf-8")
    data = cached_json("orders-table", grammar, TABLE_FORMAT, lambda: table_data(order_lark()))
    try:
        table = TableParser(data)
    except (ValueError, KeyError, TypeError, IndexError):
        table = TableParser(table_data(order_lark()))
    from gm.notation.transformer import OrderBuilder

    missing = sorted(name for name in table.callbacks if not hasattr(OrderBuilder, name))
    if missing:
        raise TypeError(f"OrderBuilder has no method for the grammar rules {missing}")
    return table


@functools.cache
def _keywords() -> frozenset[str]:
    """The grammar's keyword spellings (TableParser.keywords), which the plain-order shortcut
    needs: kept in the user's cache beside the table, so that reading plain orders does not
    load the whole table."""
    grammar = GRAMMAR_FILE.read_text(encoding="utf-8")
    words = cached_json(
        "orders-keywords", grammar, TABLE_FORMAT, lambda: sorted(table_parser().keywords)
    )
    if isinstance(words, list) and all(isinstance(w, str) for w in words):
        return frozenset(words)
    return table_parser().keywords


# Deluge II rule 1 writes `F(StP)nc`: a coast after the parenthesised province.
_SEED_COAST = r"\)\s*((?:north|south|east|west)\s+coast|[nsew]c)\b"  # compiled on first use


def seed_coast(text: str) -> str:
    """`F(StP)nc` (the seed texts' spelling) as `F(StP/nc)`; any other text unchanged."""
    if ")" not in text:
        return text
    return re.sub(_SEED_COAST, lambda m: "/" + m.group(1) + ")", text, flags=re.IGNORECASE)


def parse_order(
    text: str,
    gmap: GameMap,
    phase_type: PhaseType | None = None,
    kinds: frozenset[str] = frozenset(),
    *,
    offer: PhaseType | None = None,
) -> AnyOrder | OrderError:
    """One order as the player wrote it, read for a phase of `phase_type`.

    In a retreat phase a move is a retreat; in an adjustment phase a disband is a removal;
    with no phase every form keeps its natural reading (gm.notation.phases). `kinds` are the
    variant orders the game allows (Variant.order_kinds, gm.notation.kinds); any other variant
    order, or one given in the wrong phase, is an ILLEGAL error saying why. An unreadable
    order's message offers the words of the orders a phase of `offer` takes (gm.notation.lines
    reads a line's orders so), or of any phase.
    """
    seeded = seed_coast(text)
    if seeded != text:  # read as `F(StP/nc)` if that reads; else the errors quote the text
        again = parse_order(seeded, gmap, phase_type, kinds, offer=offer)
        if not isinstance(again, OrderError):
            return again
    parsed: Any = fast_order(text, gmap, _keywords())
    if parsed is None:
        from gm.notation.transformer import OrderBuilder

        builder = OrderBuilder(gmap, text)
        parsed = parse_text(text, gmap, "order", builder, kinds, offer)
        if isinstance(parsed, OrderError):
            return with_forms(not_an_order(text, parsed), kinds)
        if builder.kind is not None:
            error = kind_error(builder.kind, kinds, text)
            # Abstraction2 rule 3: a dislodged army may retreat onto its fleet; `A Pic boards
            # F ENG` in a retreat phase is that retreat (gm.notation.phases).
            boards_in_retreat = isinstance(parsed, Embark) and phase_type is PhaseType.RETREAT
            if error is None and not boards_in_retreat:
                error = kind_phase_error(builder.kind, phase_type, text)
            if error is not None:
                return error
    if isinstance(parsed, OrderError):
        return parsed
    order = read_for_phase(parsed, phase_type, text)
    if isinstance(order, OrderError):
        return order
    return text_error(order, text) or order


def parse_unit(text: str, gmap: GameMap) -> UnitSpec | OrderError:
    """A unit as orders name it: `A Par`, `F StP/nc`, `A/F ENG`, or just `Par`."""
    seeded = seed_coast(text)
    if seeded != text:
        again = parse_unit(seeded, gmap)
        if not isinstance(again, OrderError):
            return again
    fast = fast_unit(text, gmap, _keywords())
    if fast is not None:
        return fast
    result: UnitSpec | OrderError = parse_text(text, gmap, "unit")
    return result


def parse_location(text: str, gmap: GameMap) -> Location | OrderError:
    """A place: `Par`, `St. Petersburg (north coast)`, `spa/sc`."""
    result: Location | OrderError = parse_text(text, gmap, "location")
    return result


def resolve_province(name: str, gmap: GameMap) -> str | OrderError:
    """The canonical abbreviation for `name` (any name, abbreviation or alias of the map, any
    case and spacing; a coast after it is allowed and ignored: `StP/nc`, `Spain (south coast)`),
    or UNKNOWN_PROVINCE quoting `name` with the closest names of the map."""
    found = find_province(name, gmap)
    if found is not None:
        return found
    place = parse_location(name, gmap) if name.strip() else None
    if isinstance(place, Location):
        return place.province
    return unknown_province(" ".join(name.split()), gmap)


def parse_text(
    text: str,
    gmap: GameMap,
    start: str,
    builder: OrderBuilder | None = None,
    kinds: frozenset[str] = frozenset(),
    offer: PhaseType | None = None,
) -> Any:
    """The value the grammar's `start` rule builds for `text` (with `builder`, which then
    tells the variant order kind used), or an OrderError; an unreadable text's message names
    only the variant words of `kinds`, and with `offer` only the words of that phase's orders."""
    from gm.notation.transformer import OrderBuilder, Rejected, StrayWord

    if not text.strip():
        what = "an order" if start == "order" else f"a {start}"
        return OrderError(ErrorKind.UNREADABLE, text, f"Expected {what}, found nothing.")
    prepared = protect_hyphens(text, gmap)
    if builder is None:
        builder = OrderBuilder(gmap, text)
    try:
        try:
            return table_parser().parse(prepared, start, builder)
        except NoParse:
            pass
        # Not in the language: Lark itself says where and what it expected.
        from lark.exceptions import UnexpectedInput, VisitError

        from gm.notation.messages import unreadable

        try:
            tree = order_lark().parse(prepared, start=start)
        except UnexpectedInput as error:
            return _refused_variant(text, prepared, start, kinds, offer) or unreadable(
                text, prepared, error, start, order_lark(), kinds, offer
            )
        try:
            return builder.transform(tree)
        except VisitError as error:
            raise error.orig_exc from None
    except Rejected as rejected:
        return _refused_variant(text, prepared, start, kinds, offer) or rejected.error
    except StrayWord as stray:
        from gm.notation.messages import stray_word

        return _refused_variant(text, prepared, start, kinds, offer) or stray_word(
            text, prepared, stray.token.start_pos, start, order_lark(), kinds, offer
        )


def _refused_variant(
    text: str, prepared: str, start: str, kinds: frozenset[str], offer: PhaseType | None
) -> OrderError | None:
    """For a text that cannot be read and opens with a word only variant orders of other
    games use: that such orders are not in this game (`Home Xyz` in a standard game), or, for
    a number or `S` (which may be a mistyped standard order), what may start an order."""
    if start != "order":
        return None
    from gm.notation.messages import at_start, leading_variant

    found = leading_variant(order_lark(), prepared, start)
    if found is None or found[1] & kinds:
        return None
    name, owners = found
    if name in ("COUNT", "SUPPORT_EVENT"):
        return at_start(text, prepared, start, order_lark(), kinds, offer)
    return kind_error(sorted(owners)[0], kinds, text)
