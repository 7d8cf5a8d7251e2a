"""Province and coast names as players write them, resolved against a map.

A province is found through `GameMap.lookup` (names, abbreviations and aliases of the map
data, any case), then through a spelling-insensitive index ("St Petersburg", "St.Petersburg",
"stpetersburg" and "St. Petersburg" are one name). Unknown names get close suggestions from
the map's own names. Coasts are normalised to the map's lower-case labels ("nc", "sc", ...).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from typing import NamedTuple

from gm.engine.errors import ErrorCode, ErrorKind, OrderError, order_error
from gm.engine.map import GameMap

# During parsing a hyphen inside one of the map's names ("Mid-Atlantic Ocean") is written as
# this character, so that the grammar's `-` always means a move.
NAME_HYPHEN = "_"

_DIRECTIONS = {
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
}
_COAST_LABEL = re.compile(r"(?:n|s|e|w|ne|nw|se|sw)c")


def squash(text: str) -> str:
    """A name without case, spaces or punctuation: the spelling-insensitive key."""
    folded = text.casefold()
    if folded.isalnum():  # nothing to take out (str.isalnum is re's \w without `_`)
        return folded
    return re.sub(r"[\W_]+", "", folded)


def spaced(text: str) -> str:
    """A name as `GameMap.lookup` keys it (single spaces, real hyphens)."""
    return " ".join(text.replace(NAME_HYPHEN, "-").split())


class MapNames(NamedTuple):
    """What name resolution needs from one map, computed once per map."""

    squashed: dict[str, str]  # spelling-insensitive key -> abbreviation (unique keys only)
    choices: dict[str, str]  # lower-case name or alias -> abbreviation (for suggestions)
    hyphenated: re.Pattern[str] | None  # the map's hyphenated words, e.g. "mid-atlantic"
    labels: frozenset[str]  # every coast label the map uses
    # first letter -> (the words of a name in `choices`, abbreviation): the names a name
    # shortened word by word may stand for (`_shortened`)
    by_initial: dict[str, tuple[tuple[tuple[str, ...], str], ...]]

    def display(self, gmap: GameMap, abbr: str) -> str:
        """`Bur (Burgundy)`: how suggestions name a province."""
        province = gmap.provinces.get(abbr)
        if province is None or province.name.casefold() == abbr.casefold():
            return abbr
        return f"{abbr} ({province.name})"


_CACHE: weakref.WeakKeyDictionary[GameMap, MapNames] = weakref.WeakKeyDictionary()


def map_names(gmap: GameMap) -> MapNames:
    """The name index of `gmap` (built on first use, kept while the map lives)."""
    found = _CACHE.get(gmap)
    if found is None:
        found = _index(gmap)
        _CACHE[gmap] = found
    return found


def _all_names(gmap: GameMap) -> Iterable[tuple[str, str]]:
    for name, abbr in gmap.names.items():
        yield name, abbr
    for abbr, province in gmap.provinces.items():
        yield abbr, abbr
        yield province.name, abbr
        for alias in province.aliases:
            yield alias, abbr


def _index(gmap: GameMap) -> MapNames:
    squashed: dict[str, str | None] = {}
    choices: dict[str, str] = {}
    hyphenated: set[str] = set()
    for name, abbr in _all_names(gmap):
        if abbr not in gmap.provinces and abbr not in gmap.terrain:
            continue
        lower = spaced(name).casefold()
        choices.setdefault(lower, abbr)
        key = squash(name)
        if key:
            # A key shared by two provinces is no key.
            squashed[key] = abbr if squashed.get(key, abbr) == abbr else None
        hyphenated.update(w for w in lower.split() if re.fullmatch(r"\w+(?:-\w+)+", w))
    pattern = None
    if hyphenated:
        words = "|".join(re.escape(w) for w in sorted(hyphenated, key=len, reverse=True))
        pattern = re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE)
    labels = frozenset(c for cs in gmap.coasts.values() for c in cs)
    by_initial: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for candidate, abbr in choices.items():
        parts = tuple(_words(candidate))
        if parts:
            by_initial.setdefault(parts[0][0], []).append((parts, abbr))
    return MapNames(
        squashed={k: v for k, v in squashed.items() if v is not None},
        choices=choices,
        hyphenated=pattern,
        labels=labels,
        by_initial={k: tuple(v) for k, v in by_initial.items()},
    )


def protect_hyphens(text: str, gmap: GameMap) -> str:
    """`text` with the hyphens of the map's hyphenated names replaced by NAME_HYPHEN.

    `F Mid-Atlantic Ocean - Spa` becomes `F Mid_Atlantic Ocean - Spa`; the length and every
    other character stay the same, so positions in the text still hold.
    """
    pattern = map_names(gmap).hyphenated
    if pattern is None or "-" not in text:
        return text
    return pattern.sub(lambda m: m.group(0).replace("-", NAME_HYPHEN), text)


def find_province(name: str, gmap: GameMap) -> str | None:
    """The canonical abbreviation for a name as a player writes it, or None.

    Besides the map's names in any spelling, a name shortened word by word is read when only
    one province fits it: `Const` (Constantinople), `North Atl` (North Atlantic Ocean),
    `Mid-Atl`, `Marseil`. Each typed word is the start of a word of the name, in order, and
    the whole is at least four letters; `Gulf` or `Nort` fit several provinces and stay unknown.
    """
    plain = spaced(name)
    found = gmap.lookup(plain)
    if found is not None:
        return found
    names = map_names(gmap)
    found = names.squashed.get(squash(plain))
    if found is not None:
        return found
    return _shortened(plain, names)


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", text.casefold()) if w]


def _shortened(plain: str, names: MapNames) -> str | None:
    typed = _words(plain)
    if not typed or sum(map(len, typed)) < 4:
        return None
    fits = set()
    # Only names whose first word starts with the first typed word's letter can fit.
    for words, abbr in names.by_initial.get(typed[0][0], ()):
        if len(typed) <= len(words) and all(
            w.startswith(t) for t, w in zip(typed, words, strict=False)
        ):
            fits.add(abbr)
            if len(fits) > 1:
                return None
    return fits.pop() if fits else None


def suggest(name: str, gmap: GameMap, limit: int = 3) -> tuple[str, ...]:
    """Up to `limit` provinces whose names are close to `name`, as `Bur (Burgundy)`."""
    import difflib  # only when a name is not found: slow to import, not needed otherwise

    names = map_names(gmap)
    wanted = spaced(name).casefold()
    # two letters swapped (`Amr` for Arm) is one slip, as close as a name gets: first
    seen = list(dict.fromkeys(names.choices[k] for k in names.choices if _swapped(wanted, k)))
    close = difflib.get_close_matches(wanted, names.choices.keys(), n=12, cutoff=0.6)
    best = difflib.SequenceMatcher(None, wanted, close[0]).ratio() if close else 0.0
    for candidate in close:
        # only names about as close as the closest one
        if difflib.SequenceMatcher(None, wanted, candidate).ratio() < best - 0.1:
            break
        abbr = names.choices[candidate]
        if abbr not in seen:
            seen.append(abbr)
    return tuple(names.display(gmap, abbr) for abbr in seen[:limit])


def _swapped(typed: str, name: str) -> bool:
    """Is `name` `typed` with two neighbouring letters swapped back?"""
    if len(typed) != len(name) or typed == name:
        return False
    diff = [i for i, (a, b) in enumerate(zip(typed, name, strict=True)) if a != b]
    return (len(diff) == 2 and diff[1] == diff[0] + 1
            and typed[diff[0]] == name[diff[1]] and typed[diff[1]] == name[diff[0]])


_CLOSING = ".,;:!?'\")"


def not_an_order(text: str, error: OrderError) -> OrderError:
    """`error` for the order `text`, unless it says that the whole line is an unknown name
    ("Cheers,", "Thanks!", a signature): such a line is not an order at all, and is told so."""
    core = " ".join(text.strip().rstrip(_CLOSING).split())
    if error.code is not ErrorCode.UNKNOWN_PROVINCE or not core or error.field("name") != core:
        return error
    return order_error(ErrorKind.UNREADABLE, text, ErrorCode.NOT_AN_ORDER, written=text.strip())


def unknown_province(name: str, gmap: GameMap, text: str | None = None) -> OrderError:
    """The UNKNOWN_PROVINCE error for `name` (inside the order `text`, if given)."""
    suggestions = suggest(name, gmap)
    if not suggestions and len(name.split()) > 1:
        suggestions = suggest(name.split()[0], gmap)
    within = f'"{text.strip()}"' if text is not None and text.strip() != name else ""
    if suggestions:
        hint = "did you mean " + _either(suggestions) + "?"
    else:
        hint = "write a province's name or abbreviation."
    return order_error(ErrorKind.UNKNOWN_PROVINCE, text or name, ErrorCode.UNKNOWN_PROVINCE,
                       suggestions, name=name, within=within, hint=hint)


def coast_label(text: str, gmap: GameMap | None = None) -> str | None:
    """The coast label a player means by `text` (`nc`, `NC`, `n.c.`, `north coast`, `north`,
    `(nc)` content, ...), or None if `text` does not name a coast."""
    key = squash(text)
    # The map's labels (MapNames.labels), read from its coasts: building the whole name index
    # for them would cost more than most order files take to read.
    if gmap is not None and any(key in labels for labels in gmap.coasts.values()):
        return key
    if key.endswith("coast") and len(key) > len("coast"):
        key = key[: -len("coast")]
    key = _DIRECTIONS.get(key, key)
    if key and not key.endswith("c"):
        key += "c"
    return key if _COAST_LABEL.fullmatch(key) else None


def _either(items: tuple[str, ...]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]
