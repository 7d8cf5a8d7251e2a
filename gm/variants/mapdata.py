"""Map data files: reading and validating a ring map (gm/variants/data/*.map).

The format is line based; `#` starts a comment, blank lines are ignored, keywords and terrain
names are case-insensitive, province abbreviations are case-sensitive (they are canonical).

    map <name>                                   the map's name (optional, once)
    edge ~<NAME> "<description>" [polar]         a board-edge marker; "polar" marks the edge
                                                 of the permanent polar ice (at most one)
    passage <A> <B>                              A and B border each other across a point
                                                 where four provinces meet (see below)
    border <A> <B> armies|fleets                 only armies (or only fleets) cross the
                                                 border between A and B
    link <A> <B>                                 A and B border each other though the board
                                                 does not draw them together (a long link)
    oneway <A> <B>                               the border A-B is crossed from A to B only
    <Abbr> <terrain> "<Full name>" at <x>,<y> [centre] [home <Power>] [opens <terrain>] [canal]
                                                 [unit <x>,<y>] [label <x>,<y>]
        aka  <alias>, <alias>, ...               other names (comma separated, may have spaces)
        ring <entry> <entry> ...                 the neighbours clockwise around the border

A province line starts in the first column; its `aka` and `ring` lines follow, indented.
- terrain: land, sea, lake, mountain or impassable. `opens <terrain>` (impassable provinces
  only) says what the space becomes when a variant opens it.
- `at x,y`: the province's approximate centre on the board (x to the east, y to the south).
- `unit x,y`, `label x,y` (optional, for the picture): where its unit and its name stand, in
  the coordinates of `at` (moved with it where the picture moves crowded positions apart); one
  that falls outside the province as drawn is not used (`gm variant check` warns).
- `centre`: a supply centre; `home <Power>`: a home supply centre of that power.
- `canal`: a land province whose water is all one coast however it lies around the ring, so
  fleets pass through it (Con: the Bosporus; Kie: the Kiel canal; Den and Swe: the Sound).
- ring entries: province abbreviations or edge markers, clockwise, starting anywhere. A
  neighbour appears once per stretch of common border (MAO twice around Spa). Consecutive
  entries X Q in P's ring are the point where P, X and Q meet, so Q's ring must have P X and
  X's ring Q P (checked). `Abbr[label]` pins a coast label: a coast of this province whose
  water includes that slot is called `label` (for the standard split coasts).

A passage is for a map whose rules make two provinces adjacent that meet only at a point
where four provinces meet (Abstraction2 rule 4: CMS-TYS at Messina, where the rings give
Naples and Sicily the common border). The two must not be ring neighbours; they border each
other as across a border of no length (gm/engine/topology.py says what moves that allows).

A `border` line restricts a border the rings (or a passage) draw: `armies` closes it to fleets
(a coast no fleet can sail along: the army crosses, the fleet does not), `fleets` closes it to
armies (a channel between two coasts: fleets sail through, armies cannot cross), as DPjudge
map files and webDiplomacy variants say of some borders. Adjacency is still derived: the line
only takes the other kind of unit's moves across that border away.

A `link` joins two provinces that are not ring neighbours (DPjudge's and webDiplomacy's
adjacency beyond the drawn borders: a sea lane, a tunnel): armies cross it if both ends are
land, fleets if both are water, or water and a coast, or two coasts; a province with split
coasts is reached by a link by armies only. A `oneway A B` line keeps the moves from A to B
across their border (ring, passage or link) and takes the moves from B to A away (a waterfall,
a current).

Every name (abbreviation, full name, alias; compared lower-case with spaces normalised) must
be unique across the map. Errors are MapDataError with the file and line of the problem.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher, get_close_matches
from pathlib import Path
from typing import ClassVar

from gm.engine.geo import Terrain
from gm.engine.map import GameMap, Province
from gm.engine.topology import EDGE_PREFIX, RingTopology, check_rings, is_edge
from gm.variants.ring_hints import diagnose, passage_problem

# Text shlex (POSIX mode) splits into whole words and whole "quoted strings" without escapes,
# separated by shlex's whitespace: read with one regular expression instead of shlex's
# per-character loop.
_SIMPLE_WORDS = re.compile(r'[ \t\r\n]*(?:(?:"[^"\\]*"|[^\s"\'\\]+)(?:[ \t\r\n]+|\Z))*')
_WORD = re.compile(r'"([^"\\]*)"|([^\s"\'\\]+)')


class MapDataError(ValueError):
    """A problem in a map data file, with the file and line it is on."""

    def __init__(self, source: str, line: int, message: str,
                 others: tuple[tuple[int, str], ...] = ()) -> None:
        super().__init__(f"{source}:{line}: {message}")
        self.source = source
        self.line = line
        self.message = message
        self.others = others  # further problems found with this one: (line, message)


@dataclass(frozen=True)
class Edge:
    """A board-edge marker as the data file declares it."""

    name: str
    description: str
    polar: bool = False


class MapData:
    """A parsed and validated map data file. Equal to another with equal fields;
    gm.engine.frozen.replace makes a changed copy."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "name", "source", "provinces", "rings", "pins", "canals", "edges", "names", "lines",
        "ring_lines", "passages", "only", "only_lines", "links", "one_way", "way_lines",
    )

    def __init__(
        self,
        name: str,
        source: str,
        provinces: dict[str, Province] | None = None,
        rings: dict[str, tuple[str, ...]] | None = None,
        pins: dict[tuple[str, int], str] | None = None,
        canals: set[str] | None = None,
        edges: dict[str, Edge] | None = None,
        names: dict[str, str] | None = None,  # normalised name -> abbreviation
        lines: dict[str, int] | None = None,  # province -> line of its header
        ring_lines: dict[str, int] | None = None,  # province -> line of its ring
        passages: set[tuple[str, str]] | None = None,  # sorted pairs
        only: dict[tuple[str, str], str] | None = None,  # sorted pair -> "armies" / "fleets"
        only_lines: dict[tuple[str, str], int] | None = None,  # sorted pair -> its line
        links: set[tuple[str, str]] | None = None,  # sorted pairs
        one_way: set[tuple[str, str]] | None = None,  # (from, to)
        way_lines: dict[tuple[str, str], int] | None = None,  # a link's or oneway's line
    ) -> None:
        self.name = name
        self.source = source
        self.provinces = {} if provinces is None else provinces
        self.rings = {} if rings is None else rings
        self.pins = {} if pins is None else pins
        self.canals = set() if canals is None else canals
        self.edges = {} if edges is None else edges
        self.names = {} if names is None else names
        self.lines = {} if lines is None else lines
        self.ring_lines = {} if ring_lines is None else ring_lines
        self.passages = set() if passages is None else passages
        self.only = {} if only is None else only
        self.only_lines = {} if only_lines is None else only_lines
        self.links = set() if links is None else links
        self.one_way = set() if one_way is None else one_way
        self.way_lines = {} if way_lines is None else way_lines

    def __eq__(self, other: object) -> bool:
        if type(other) is not MapData:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__match_args__)

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"MapData({inside})"

    @property
    def polar_edge(self) -> str | None:
        return next((e.name for e in self.edges.values() if e.polar), None)

    def topology(self) -> RingTopology:
        return RingTopology(
            self.provinces,
            self.rings,
            pins=self.pins,
            canals=self.canals,
            polar_edge=self.polar_edge,
            names=self.names,
            passages=self.passages,
            army_only=(pair for pair, kind in self.only.items() if kind == "armies"),
            fleet_only=(pair for pair, kind in self.only.items() if kind == "fleets"),
            links=self.links,
            one_way=self.one_way,
        )

    def game_map(self) -> GameMap:
        """The map with the data's own terrain (re-derivable with `with_overlay`)."""
        return self.topology().base()


def normalise(name: str) -> str:
    """How names are compared: lower case, runs of whitespace as one space."""
    return " ".join(name.lower().split())


def nearest(name: str, names: Iterable[str], n: int = 1) -> list[str]:
    """The names closest to a misspelt `name` (difflib, compared lower case), closest first;
    empty if none is close."""
    by_key: dict[str, str] = {}
    for known in names:
        by_key.setdefault(normalise(known), known)
    key = normalise(name)
    found = get_close_matches(key, list(by_key), n=n, cutoff=0.6)
    if found:  # only those about as close as the closest
        best = SequenceMatcher(None, found[0], key).ratio()
        found = [k for k in found if SequenceMatcher(None, k, key).ratio() >= best - 0.05]
    return [by_key[k] for k in found]


_HEADER = re.compile(r"^(?P<abbr>\S+)\s+(?P<terrain>\S+)\s+(?P<rest>.*)$")
_AT = re.compile(r"^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$")
_ABBR = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
_ENTRY = re.compile(r"^(?P<name>~?[A-Za-z][A-Za-z0-9]*)(?:\[(?P<pin>[a-z][a-z0-9]*)\])?$")
_TERRAINS = {t.value: t for t in Terrain}
ONLY = ("armies", "fleets")  # what a `border` line lets cross


class _Pending:
    """A province while its block is being read (a plain class: a dataclass costs more to
    define at import than reading the standard map with this one)."""

    def __init__(
        self, abbr: str, terrain: Terrain, name: str, position: tuple[float, float], line: int
    ) -> None:
        self.abbr = abbr
        self.terrain = terrain
        self.name = name
        self.position = position
        self.line = line
        self.centre = False
        self.home: str | None = None
        self.opens: Terrain | None = None
        self.canal = False
        self.unit_at: tuple[float, float] | None = None
        self.label_at: tuple[float, float] | None = None
        self.aliases: list[tuple[str, int]] = []
        self.ring: list[str] | None = None
        self.ring_line = 0


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.name = Path(source).stem
        self.edges: dict[str, Edge] = {}
        self.edge_lines: dict[str, int] = {}
        self.pending: dict[str, _Pending] = {}
        self.current: _Pending | None = None
        self.passage_lines: list[tuple[str, str, int]] = []
        self.border_lines: list[tuple[str, str, str, int]] = []
        self.way_lines: list[tuple[str, str, str, int]] = []  # link / oneway, A, B, line

    def error(self, line: int, message: str) -> MapDataError:
        return MapDataError(self.source, line, message)

    def terrain(self, word: str, line: int) -> Terrain:
        t = _TERRAINS.get(word.lower())
        if t is None:
            raise self.error(line, f"unknown terrain {word!r} (use one of: {', '.join(_TERRAINS)})")
        return t

    def words(self, text: str, line: int) -> list[str]:
        if _SIMPLE_WORDS.fullmatch(text):
            return [m[1] if m[1] is not None else m[2] for m in _WORD.finditer(text)]
        import shlex  # only for the rare line the expression above does not read

        try:
            return shlex.split(text, posix=True)
        except ValueError as exc:
            raise self.error(line, f"cannot read {text.strip()!r}: {exc}") from None

    # -- statements ----------------------------------------------------------------------------
    def read(self) -> None:
        seen_map = False
        for number, raw in enumerate(self.text.splitlines(), start=1):
            line = raw.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            if line[0].isspace():
                self.continuation(line.strip(), number)
                continue
            self.current = None
            keyword = line.split(None, 1)[0]
            if keyword.lower() == "map":
                words = line.split()
                if seen_map or len(words) != 2:
                    raise self.error(number, "`map <name>` must appear once, with one word")
                self.name, seen_map = words[1], True
            elif keyword.lower() == "edge":
                self.edge(line, number)
            elif keyword.lower() == "passage":
                words = line.split()
                if len(words) != 3:
                    raise self.error(number, "a passage is written: passage <A> <B>")
                self.passage_lines.append((words[1], words[2], number))
            elif keyword.lower() in ("link", "oneway"):
                words = line.split()
                if len(words) != 3:
                    raise self.error(number, f"cannot read {line.strip()!r}: write "
                                     f"`{keyword.lower()} <A> <B>`")
                self.way_lines.append((keyword.lower(), words[1], words[2], number))
            elif keyword.lower() == "border":
                words = line.split()
                if len(words) != 4 or words[3].lower() not in ONLY:
                    raise self.error(number, f"cannot read {line.strip()!r}: a border is "
                                     "restricted with `border <A> <B> armies` (only armies "
                                     "cross it) or `border <A> <B> fleets` (only fleets do)")
                self.border_lines.append((words[1], words[2], words[3].lower(), number))
            else:
                self.province(line, number)

    def edge(self, line: str, number: int) -> None:
        words = self.words(line, number)
        if len(words) < 3 or not words[1].startswith(EDGE_PREFIX) or len(words[1]) < 2:
            raise self.error(number, 'an edge is written: edge ~NAME "description" [polar]')
        name = words[1]
        if name in self.edges:
            raise self.error(
                number, f"edge {name} is declared twice (first on line {self.edge_lines[name]})"
            )
        flags = [w.lower() for w in words[3:]]
        if any(f != "polar" for f in flags):
            raise self.error(number, f"unknown edge flag in {' '.join(words[3:])!r}")
        polar = "polar" in flags
        if polar and any(e.polar for e in self.edges.values()):
            raise self.error(number, "only one edge may be the polar edge")
        self.edges[name] = Edge(name, words[2], polar)
        self.edge_lines[name] = number

    def province(self, line: str, number: int) -> None:
        match = _HEADER.match(line)
        if match is None:
            raise self.error(number, f"cannot read {line.strip()!r} as a province line")
        abbr = match["abbr"]
        if not _ABBR.match(abbr):
            raise self.error(number, f"{abbr!r} is not a province abbreviation (letters, digits)")
        if abbr in self.pending:
            first = self.pending[abbr].line
            raise self.error(number, f"province {abbr} is declared twice (first on line {first})")
        terrain = self.terrain(match["terrain"], number)
        words = self.words(match["rest"], number)
        if not words:
            raise self.error(number, f"province {abbr} needs a full name in quotes")
        name = words[0]
        rest = words[1:]
        position: tuple[float, float] | None = None
        prov = _Pending(abbr, terrain, name, (0.0, 0.0), number)
        k = 0
        while k < len(rest):
            word = rest[k].lower()
            arg = rest[k + 1] if k + 1 < len(rest) else None
            if word == "at" and arg is not None and (m := _AT.match(arg)):
                position = (float(m[1]), float(m[2]))
                k += 2
            elif word == "centre":
                prov.centre = True
                k += 1
            elif word == "home" and arg is not None:
                if prov.home is not None and prov.home != arg:
                    raise self.error(number, f"{abbr} is marked home of {prov.home} and of "
                                     f"{arg}: a centre is the home of one power; keep one "
                                     "`home` mark")
                prov.home, prov.centre = arg, True
                k += 2
            elif word == "canal":
                prov.canal = True
                k += 1
            elif word in ("unit", "label"):
                m = _AT.match(arg or "")
                if m is None:
                    raise self.error(number, f"{abbr}: write {word} X,Y, where its {word} "
                                     f"stands on the board (e.g. {word} 120,340), not "
                                     f"{' '.join(rest[k:k + 2])!r}")
                if word == "unit":
                    prov.unit_at = (float(m[1]), float(m[2]))
                else:
                    prov.label_at = (float(m[1]), float(m[2]))
                k += 2
            elif word == "opens" and arg is not None:
                prov.opens = self.terrain(arg, number)
                k += 2
            else:
                raise self.error(
                    number,
                    f"cannot read {' '.join(rest[k:])!r} after the name of {abbr} "
                    "(expected: at X,Y / centre / home POWER / opens TERRAIN / canal / "
                    "unit X,Y / label X,Y)",
                )
        if position is None:
            raise self.error(number, f"province {abbr} needs its position: at X,Y")
        prov.position = position
        if prov.canal and terrain.is_water:
            raise self.error(number, f"{abbr} is water: only land can be a canal")
        if prov.opens is not None and terrain is not Terrain.IMPASSABLE:
            raise self.error(number, "only an impassable province can say what it opens as")
        self.pending[abbr] = prov
        self.current = prov

    def continuation(self, line: str, number: int) -> None:
        prov = self.current
        if prov is None:
            raise self.error(number, "an indented line must follow a province line")
        keyword, _, rest = line.partition(" ")
        keyword = keyword.lower()
        if keyword == "aka":
            aliases = [a.strip() for a in rest.split(",")]
            if aliases and not aliases[-1] and len(aliases) > 1:
                aliases.pop()  # a trailing comma: the list goes on on the next aka line
            for alias in aliases:
                if not alias:
                    raise self.error(number, f"empty alias in the aka list of {prov.abbr}")
                prov.aliases.append((alias, number))
        elif keyword == "ring":
            if prov.ring is not None:
                raise self.error(
                    number, f"{prov.abbr} has two rings (first on line {prov.ring_line})"
                )
            prov.ring = rest.split()
            prov.ring_line = number
        else:
            raise self.error(number, f"unknown line {keyword!r} in {prov.abbr} (aka or ring)")

    # -- validation ----------------------------------------------------------------------------
    def build(self) -> MapData:
        data = MapData(self.name, self.source, edges=dict(self.edges))
        if not self.pending:
            raise self.error(1, "the file declares no provinces")
        owner_line: dict[str, tuple[str, int]] = {}

        def add_name(name: str, abbr: str, line: int) -> None:
            key = normalise(name)
            if key in owner_line:
                other, first = owner_line[key]
                raise self.error(
                    line,
                    f"duplicate alias {name!r} for {abbr}: already a name of {other} "
                    f"(line {first})",
                )
            owner_line[key] = (abbr, line)
            data.names[key] = abbr

        for abbr, p in self.pending.items():
            add_name(abbr, abbr, p.line)
        for abbr, p in self.pending.items():
            add_name(p.name, abbr, p.line)
            for alias, line in p.aliases:
                add_name(alias, abbr, line)
        for abbr, p in self.pending.items():
            if p.ring is None:
                raise self.error(p.line, f"province {abbr} has no ring")
            ring: list[str] = []
            for i, entry in enumerate(p.ring):
                m = _ENTRY.match(entry)
                if m is None:
                    raise self.error(p.ring_line, f"cannot read ring entry {entry!r} of {abbr}")
                name = m["name"]
                if is_edge(name):
                    if name not in self.edges:
                        raise self.error(
                            p.ring_line,
                            f"unknown name {name!r} in the ring of {abbr} "
                            "(edges must be declared with an edge line)",
                        )
                    if m["pin"]:
                        raise self.error(p.ring_line, f"a coast label cannot be pinned to {name}")
                elif name not in self.pending:
                    hint = data.names.get(normalise(name)) or next(
                        iter(nearest(name, self.pending)), None)
                    tip = f" (did you mean {hint}?)" if hint else ""
                    raise self.error(
                        p.ring_line, f"unknown name {name!r} in the ring of {abbr}{tip}"
                    )
                if m["pin"]:
                    data.pins[(abbr, i)] = m["pin"]
                ring.append(name)
            data.rings[abbr] = tuple(ring)
            if p.canal:
                data.canals.add(abbr)
            data.ring_lines[abbr] = p.ring_line
            data.lines[abbr] = p.line
            data.provinces[abbr] = Province(
                abbr=abbr,
                name=p.name,
                terrain=p.terrain,
                aliases=tuple(a for a, _ in p.aliases),
                supply_centre=p.centre,
                home=p.home,
                opens_as=p.opens,
                position=p.position,
                unit_position=p.unit_at,
                label_position=p.label_at,
            )
        for a, b, line in self.passage_lines:
            for name in (a, b):
                if name not in data.provinces:
                    raise self.error(line, f"unknown province {name!r} in a passage")
            if a == b or b in data.rings[a]:
                raise self.error(line, f"{a} and {b} already border each other: no passage")
            apart = passage_problem(data.rings, a, b)
            if apart is not None:
                raise self.error(line, apart)
            key = (a, b) if a <= b else (b, a)
            if key in data.passages:
                raise self.error(line, f"the passage {a}-{b} is declared twice")
            data.passages.add(key)
        for what, a, b, line in sorted(self.way_lines, key=lambda w: w[0]):  # links first
            self.way(data, what, a, b, line)
        for a, b, kind, line in self.border_lines:
            self.restrict(data, a, b, kind, line)
        problems = diagnose(data.rings, {a: p.ring or () for a, p in self.pending.items()},
                            check_rings(data.rings))
        if problems:
            # report a problem of the ring blamed most often: usually the one to fix
            blamed = Counter(problem.province for problem in problems)
            worst = max(problems, key=lambda problem: blamed[problem.province])
            others = tuple((data.ring_lines[p.province], p.message)
                           for p in problems if p is not worst)
            raise MapDataError(self.source, data.ring_lines[worst.province], worst.message,
                               others)
        return data

    def known(self, data: MapData, name: str, line: int, what: str) -> None:
        if name not in data.provinces:
            hint = data.names.get(normalise(name)) or next(
                iter(nearest(name, data.provinces)), None)
            tip = f" (did you mean {hint}?)" if hint else ""
            raise self.error(line, f"unknown province {name!r} in a {what} line{tip}")

    def way(self, data: MapData, what: str, a: str, b: str, line: int) -> None:
        """A `link A B` (the two must not border already) or `oneway A B` (they must)."""
        self.known(data, a, line, what)
        self.known(data, b, line, what)
        key = (a, b) if a <= b else (b, a)
        bordering = b in data.rings[a] or key in data.passages or key in data.links
        if a == b:
            raise self.error(line, f"a {what} joins two provinces, not {a} and itself")
        if what == "link":
            if bordering:
                raise self.error(line, f"{a} and {b} border each other already: no link; "
                                 "leave the line out")
            data.links.add(key)
        else:
            if not bordering:
                raise self.error(line, f"{a} and {b} do not border each other: `oneway {a} "
                                 f"{b}` makes a border one-way; put the two provinces' rings "
                                 f"together, or join them first with `link {a} {b}`")
            if (a, b) in data.one_way or (b, a) in data.one_way:
                raise self.error(line, f"the border {key[0]}-{key[1]} is made one-way twice: "
                                 "keep one line (a border crossed both ways needs none)")
            data.one_way.add((a, b))
        data.way_lines[(a, b) if what == "oneway" else key] = line

    def restrict(self, data: MapData, a: str, b: str, kind: str, line: int) -> None:
        """A `border A B armies|fleets` line: the two must border each other (in their rings or
        by a passage), once."""
        for name in (a, b):
            self.known(data, name, line, "border")
        key = (a, b) if a <= b else (b, a)
        if a == b or (b not in data.rings[a] and key not in data.passages
                      and key not in data.links):
            raise self.error(line, f"{a} and {b} do not border each other: `border {a} {b} "
                             f"{kind}` restricts a border the rings draw; put the two "
                             "provinces' rings together first (or declare a passage)")
        if key in data.only:
            raise self.error(line, f"the border {key[0]}-{key[1]} is restricted twice: keep "
                             "one line (`armies` or `fleets`)")
        data.only[key] = kind
        data.only_lines[key] = line


def parse_map(text: str, source: str = "<map>") -> MapData:
    """Read and validate map data; `source` names the file in error messages."""
    reader = _Reader(text, source)
    reader.read()
    return reader.build()


def load_map(path: Path) -> MapData:
    """Read and validate a map data file."""
    return parse_map(path.read_text(encoding="utf-8"), str(path))
