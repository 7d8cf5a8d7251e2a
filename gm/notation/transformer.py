"""From parsed order text to typed order values: one method per rule of grammars/orders.lark.

Each method receives the rule's children as a Lark Transformer would (keywords dropped) and
returns a value of gm.engine.orders. Names are resolved against the game's map here; a name
the map does not know stops the build with `Rejected` (an OrderError to hand back), a name
followed by words that belong to no name stops it with `StrayWord` (the parser then says what
it expected at that word). To add an order kind, add its rule to the grammar and a method here.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, Protocol

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import (
    Alliance,
    Build,
    Convoy,
    CreateCentre,
    DesignateHome,
    Disband,
    Disembark,
    Embark,
    Exchange,
    GeoEvent,
    GeoKind,
    GeoTarget,
    Hold,
    KeepFleet,
    Move,
    Remove,
    Retreat,
    Stabilize,
    SupportEvent,
    SupportHold,
    SupportMove,
    Transform,
    UnitSpec,
    Waive,
)
from gm.engine.units import UnitType
from gm.notation.names import coast_label, find_province, map_names, unknown_province

if TYPE_CHECKING:
    from lark import Transformer, Tree


class Token(Protocol):
    """What the builder uses of a token (a Lark Token or a gm.notation.lalr.Tok)."""

    type: str
    value: str
    start_pos: int
    end_pos: int


class Rejected(Exception):
    """The order cannot be built; `error` says why."""

    def __init__(self, error: OrderError) -> None:
        super().__init__(error.message)
        self.error = error


class StrayWord(Exception):
    """A word after a complete name that no name accounts for (`A Par suports Mar`)."""

    def __init__(self, token: Token) -> None:
        super().__init__(token.value)
        self.token = token


class Words(NamedTuple):
    """A run of words: a province name, perhaps with a coast written as words."""

    tokens: tuple[Token, ...]

    @property
    def values(self) -> list[str]:
        return [t.value for t in self.tokens]


class CoastWords(NamedTuple):
    """A coast given after `/` or in brackets."""

    tokens: tuple[Token, ...]


class ViaConvoy:
    """Marks `via convoy` / `by convoy` after a move."""


VIA_CONVOY = ViaConvoy()

_UNIT_TYPES = {
    "a": UnitType.ARMY,
    "army": UnitType.ARMY,
    "f": UnitType.FLEET,
    "fleet": UnitType.FLEET,
    "a/f": UnitType.ARMY_FLEET,
}

_GEO_KINDS = {
    "uplift": GeoKind.UPLIFT,
    "erode": GeoKind.ERODE,
    "erosion": GeoKind.ERODE,
    "orogenesis": GeoKind.OROGENESIS,
    # The spelling of Geophysical rule 2's text.
    "orogenisis": GeoKind.OROGENESIS,
    "earthquake": GeoKind.EARTHQUAKE,
}
_TRAILING_PUNCT = ".,;:!"
_POSSESSIVE = re.compile(r"['’]s?$")
# `Stabilize Mos twice` (Geophysical rule 3: "stabilize a space ... more than once").
_COUNT_WORDS = {"once": 1, "twice": 2, "thrice": 3}


def _count(written: str) -> int:
    """The number a COUNT or TIMES token gives: `2`, `x2`, `3 times`, `twice`."""
    word = written.casefold()
    if word in _COUNT_WORDS:
        return _COUNT_WORDS[word]
    return int(re.sub(r"\D", "", written))


class OrderBuilder:
    """Builds the values of one order text (`text`, as the player wrote it) on `gmap`.

    gm.notation.lalr calls the rule methods directly; `transform` builds from a Lark parse tree
    as a Lark Transformer does (without importing Lark until it is needed)."""

    def __init__(self, gmap: GameMap, text: str) -> None:
        self.gmap = gmap
        self.text = text
        # The variant order kind (Variant.order_kinds) the text used, if any.
        self.kind: str | None = None

    def transform(self, tree: Tree[Any]) -> Any:
        """The value of a Lark parse tree of this text (errors wrapped in Lark's VisitError,
        as a Lark Transformer raises them)."""
        return _lark_builder()(self.gmap, self.text).transform(tree)

    # -- orders ----------------------------------------------------------------------------
    def order(self, children: list[Any]) -> Any:
        return children[0]

    def hold(self, children: list[Any]) -> Hold:
        return Hold(children[0])

    def move(self, children: list[Any]) -> Move:
        unit, *route = children
        via = bool(route) and route[-1] is VIA_CONVOY
        if via:
            route.pop()
        # `A Lon - ENG - Bre`: a route through seas is a convoyed move to its last place.
        return Move(unit, route[-1], via or len(route) > 1)

    def support_hold(self, children: list[Any]) -> SupportHold:
        return SupportHold(children[0], children[1])

    def support_move(self, children: list[Any]) -> SupportMove:
        # `... via convoy` after a supported move changes nothing: support does not care how.
        return SupportMove(children[0], children[1], children[2])

    def convoy(self, children: list[Any]) -> Convoy:
        # `F ENG C A Lon - Bre via convoy`: the words repeat what the order says.
        return Convoy(children[0], children[1], children[2])

    def retreat(self, children: list[Any]) -> Retreat:
        return Retreat(children[0], children[1])

    def disband(self, children: list[Any]) -> Disband:
        return Disband(children[0])

    def build(self, children: list[Any]) -> Build:
        return Build(children[0])

    def remove(self, children: list[Any]) -> Remove:
        return Remove(children[0])

    def waive(self, children: list[Any]) -> Waive:
        return Waive()

    def via_convoy(self, children: list[Any]) -> ViaConvoy:
        return VIA_CONVOY

    # -- variant orders (the kind each needs is kept in `self.kind`) -------------------------
    def embark(self, children: list[Any]) -> Embark:
        unit, fleet = children
        self.kind = "af"
        if fleet.type not in (None, UnitType.FLEET):
            self._refuse(f"an army boards a fleet; write {unit} boards F {fleet.location}")
        return Embark(unit, fleet.location)

    def retreat_embark(self, children: list[Any]) -> Embark:
        # Abstraction2 rule 3: "An army may retreat on to an adjacent fleet".
        return self.embark(children)

    def disembark(self, children: list[Any]) -> Disembark:
        # `A/F ENG disembarks Por`, `A/F(TYS) disembarks A(Tun)`, `A/F(ENG) disembarks A(ENG)-Bre`.
        self.kind = "af"
        unit, army = children[0], children[1]
        if army.type not in (None, UnitType.ARMY):
            self._refuse(f"the army disembarks; write {unit} disembarks <province>")
        if len(children) == 3:
            if army.province != unit.province:
                self._refuse(f"the army of {unit} is in {unit.location}, not {army.location}")
            return Disembark(unit, children[2])
        return Disembark(unit, army.location)

    def ferry(self, children: list[Any]) -> Convoy:
        # FF (fast ferry): the A/F variants' word for a one-fleet convoy (Abstraction2 rule 3).
        self.kind = "af"
        return Convoy(children[0], children[1], children[2])

    def transformation(self, children: list[Any]) -> Transform:
        self.kind = "transform"
        unit: UnitSpec = children[0]
        if len(children) == 1:
            return Transform(unit)
        place: Location = children[1]
        if place.province != unit.province:
            # Deluge II rule 2: the unit changes type where it stands.
            self._refuse(f"a unit transforms where it stands, in {unit.location}")
        return Transform(unit, place if place.coast else None)

    def keep_fleet(self, children: list[Any]) -> KeepFleet:
        self.kind = "keep fleet"
        return KeepFleet(children[0])

    def exchange(self, children: list[Any]) -> Exchange:
        self.kind = "exchange"
        give, receive, partner = children
        return Exchange(partner, give, receive)

    def place_list(self, children: list[Any]) -> tuple[str, ...]:
        provinces: list[str] = []
        for words in children:
            provinces.extend(self._provinces(words))
        return tuple(provinces)

    def partner(self, children: list[Any]) -> str:
        # `Turkey's` (Geophysical rule 3's "another player's geophysical move") names Turkey.
        return _POSSESSIVE.sub("", self._span(children[0], children[-1]))

    def home(self, children: list[Any]) -> DesignateHome:
        self.kind = "home"
        return DesignateHome(children[0].province)

    def alliance(self, children: list[Any]) -> Alliance:
        # Chaos II rule 6: members as written; commas or `and` separate names of several
        # words (`St Petersburg, Paris`), otherwise each word is one member.
        self.kind = "alliance"
        raw = self.text[children[0].start_pos : children[-1].end_pos]
        written = raw.rstrip(_TRAILING_PUNCT)
        if written[:5].casefold() == "with ":  # `Alliance with Paris and Berlin`
            written = written[5:]
        if "," in raw or any(w.casefold() == "and" for w in written.split()):
            parts = [
                " ".join(w for w in part.split())
                for chunk in written.split(",")
                for part in _split_and(chunk)
            ]
        else:
            parts = written.split()
        members = tuple(p.strip(_TRAILING_PUNCT) for p in parts if p.strip(_TRAILING_PUNCT))
        if not members:
            self._refuse("name the powers of the alliance")
        return Alliance(members)

    def geo_kind(self, children: list[Any]) -> GeoKind:
        token = children[0]
        value = " ".join(token.value.casefold().split())
        if value.startswith("marine"):  # `Marine platform uplift NTH` (rule 2a)
            return GeoKind.UPLIFT
        if value.startswith("ice"):
            return GeoKind.ICE_ADVANCE if "advance" in value else GeoKind.ICE_RETREAT
        return _GEO_KINDS[value]

    def geo_target(self, children: list[Any]) -> GeoTarget:
        if len(children) == 1:
            return GeoTarget(children[0].province)
        if children[0].province == children[1].province:
            self._refuse("a border joins two different spaces")
        return GeoTarget(children[0].province, children[1].province)

    def geo_event(self, children: list[Any]) -> GeoEvent:
        self.kind = "geo"
        return GeoEvent(children[0], children[1])

    def support_event(self, children: list[Any]) -> SupportEvent:
        self.kind = "geo"
        return SupportEvent(children[-2], children[-1])

    def create_centre(self, children: list[Any]) -> CreateCentre:
        self.kind = "geo"
        return CreateCentre(children[0].province)

    def stabilize(self, children: list[Any]) -> Stabilize:
        # `2 Stabilize Mos` or `Stabilize Mos 2` (Geophysical rules 1b, 3).
        self.kind = "geo"
        counts = [_count(c.value) for c in children if not isinstance(c, GeoTarget)]
        target = next(c for c in children if isinstance(c, GeoTarget))
        if len(counts) > 1:
            self._refuse("give the number of stabilizations once")
        count = counts[0] if counts else 1
        if count < 1:
            self._refuse("the number of stabilizations is at least 1")
        return Stabilize(target, count)

    # -- units and places ------------------------------------------------------------------
    def unit(self, children: list[Any]) -> UnitSpec:
        if len(children) == 1:
            return UnitSpec(None, children[0])
        return UnitSpec(children[0], children[1])

    typed_unit = unit

    def unit_type(self, children: list[Any]) -> UnitType:
        return _UNIT_TYPES[children[0].value.casefold()]

    def name(self, children: list[Any]) -> Words:
        return Words(tuple(children))

    def coast(self, children: list[Any]) -> CoastWords:
        return CoastWords(tuple(children))

    def location(self, children: list[Any]) -> Location:
        words: Words = children[0]
        coast: CoastWords | None = children[1] if len(children) > 1 else None
        if coast is None:
            # A plain name seen before on this map (`Bud`, `North Sea`): the same place.
            places = _places(self.gmap)
            key = " ".join(words.values)
            place = places.get(key)
            if place is not None:
                return place
        found = self._province(words.values, allow_coast=coast is None)
        if found is None:
            self._reject_name(words)
        province, taken = found
        if coast is not None:
            return self._on_coast(province, coast.tokens, words.tokens[0])
        if taken:
            return self._on_coast(province, words.tokens[-taken:], words.tokens[0])
        place = places[key] = Location(province)
        return place

    # -- helpers ---------------------------------------------------------------------------
    def _refuse(self, reason: str) -> NoReturn:
        message = f'"{self.text.strip()}": {reason}.'
        raise Rejected(OrderError(ErrorKind.ILLEGAL, self.text, message))

    def _provinces(self, words: Words) -> list[str]:
        """The provinces a run of names gives (`Bel Den`, `North Sea and Hol`): the longest
        name at each word, `and` between names skipped."""
        tokens = words.tokens
        found: list[str] = []
        start = 0
        while start < len(tokens):
            if tokens[start].value.casefold() == "and" and found:
                start += 1
                continue
            longest = len(tokens)
            if start + 1 < longest and self.gmap.lookup(tokens[start].value) is not None \
                    and self.gmap.lookup(tokens[start + 1].value) is not None:
                # Two names in a row (`Swe Den`), not one name written in two (`Sweden`).
                longest = start + 1
            for end in range(longest, start, -1):
                province = find_province(" ".join(t.value for t in tokens[start:end]), self.gmap)
                if province is not None:
                    found.append(province)
                    start = end
                    break
            else:
                self._reject_name(Words(tokens[start:]))
        return found

    def _span(self, first: Token, last: Token) -> str:
        """The player's text from `first` to `last`, with a closing bracket that follows."""
        end = last.end_pos
        rest = self.text[end:]
        if rest.lstrip().startswith(")") and "(" in self.text[first.start_pos : end]:
            end += len(rest) - len(rest.lstrip()) + 1
        return self.text[first.start_pos : end]

    def _province(self, values: Sequence[str], allow_coast: bool) -> tuple[str, int] | None:
        """The province `values` name and how many trailing words name a coast
        (`StP north coast`, `Spa nc`), or None."""
        found = find_province(" ".join(values), self.gmap)
        if found is not None:
            return found, 0
        if allow_coast:
            for taken in (2, 1):
                if len(values) > taken and coast_label(" ".join(values[-taken:]), self.gmap):
                    found = find_province(" ".join(values[:-taken]), self.gmap)
                    if found is not None:
                        return found, taken
        return None

    def _reject_name(self, words: Words) -> NoReturn:
        values = words.values
        for size in range(len(values) - 1, 0, -1):
            if self._province(values[:size], allow_coast=True) is not None:
                raise StrayWord(words.tokens[size])
        name = self._span(words.tokens[0], words.tokens[-1])
        raise Rejected(unknown_province(name, self.gmap, self.text))

    def _on_coast(self, province: str, tokens: Sequence[Token], first: Token) -> Location:
        """`province` at the coast `tokens` name. A province with one coast needs no label,
        so a label there is dropped; a split province must have the label; other provinces
        have no coast."""
        written = self._span(tokens[0], tokens[-1])
        label = coast_label(" ".join(t.value for t in tokens), self.gmap)
        if label is None:
            raise Rejected(
                OrderError(
                    ErrorKind.UNREADABLE,
                    self.text,
                    f'Cannot read "{self.text.strip()}": "{written}" is not a coast; write a '
                    f"coast as /nc, (nc) or north coast.",
                )
            )
        labels = self.gmap.coasts.get(province, ())
        if len(labels) >= 2:
            if label in labels:
                return Location(province, label)
            wanted = tuple(f"{province}/{c}" for c in labels)
            raise Rejected(self._no_such_coast(province, first, tokens[-1], wanted))
        if self.gmap.terrain.get(province) is not None and self.gmap.is_coastal(province):
            return Location(province)
        raise Rejected(self._no_such_coast(province, first, tokens[-1], (province,)))

    def _no_such_coast(
        self, province: str, first: Token, last: Token, wanted: tuple[str, ...]
    ) -> OrderError:
        shown = map_names(self.gmap).display(self.gmap, province)
        labels = self.gmap.coasts.get(province, ())
        has = (
            f"has the coasts {' and '.join(labels)}"
            if len(labels) >= 2
            else "has no coasts to choose from"
        )
        return OrderError(
            ErrorKind.UNKNOWN_PROVINCE,
            self.text,
            f'Unknown coast "{self._span(first, last)}" in "{self.text.strip()}": {shown} {has}; '
            f"write {' or '.join(wanted)}.",
            wanted,
        )


def _split_and(chunk: str) -> list[str]:
    """`Paris and Berlin` -> [`Paris`, `Berlin`]."""
    parts: list[list[str]] = [[]]
    for word in chunk.split():
        if word.casefold() == "and":
            parts.append([])
        else:
            parts[-1].append(word)
    return [" ".join(p) for p in parts if p]


# map -> plain name as written (words joined by one space) -> the place it names, for names
# that name a province directly (no coast words); maps are immutable, so this never goes stale.
_PLACES: weakref.WeakKeyDictionary[GameMap, dict[str, Location]] = weakref.WeakKeyDictionary()


def _places(gmap: GameMap) -> dict[str, Location]:
    places = _PLACES.get(gmap)
    if places is None:
        places = _PLACES[gmap] = {}
    return places


@functools.cache
def _lark_builder() -> Callable[[GameMap, str], Transformer[Any, Any]]:
    """OrderBuilder as a Lark Transformer (Lark's `transform` calling the rule methods)."""
    from lark import Transformer

    class LarkOrderBuilder(Transformer[Any, Any], OrderBuilder):
        def __init__(self, gmap: GameMap, text: str) -> None:
            Transformer.__init__(self, visit_tokens=False)
            OrderBuilder.__init__(self, gmap, text)

    return LarkOrderBuilder
