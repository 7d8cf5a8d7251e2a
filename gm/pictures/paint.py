"""The map pictures drawn as pixels with Skia: gm's own SVG read and painted, no SVG renderer.

gm.pictures.svg writes a small part of SVG: shapes (polygon, polyline, path of M/L/Z, circle,
line, rect with rx), text with a halo (`paint-order="stroke"`), four tiling patterns, groups,
`rotate(...)` transforms and the presentation attributes they carry. This module reads that
part and draws it on a Skia canvas (the 2D library Chromium draws with; the skia-python
binding); gm.pictures.png writes the PNG. Both take about a third of the time resvg takes to
draw and encode the same SVG: the reason this module exists (benchmarks/bench_pictures.py).
Text is drawn as an SVG renderer draws it: the glyphs' outlines, kerned, filled and stroked
(Skia's own glyph masks come out lighter at small sizes). Anything outside that part (an
element, attribute or value svg.py does not write today) raises Undrawable, not a guess:
tests/pictures/test_picture_paint.py draws every variant and every mark both ways and compares
the pixels with resvg's, so a change to the pictures that this module does not follow fails
there, not in a player's mail.

The board (everything svg.py writes before the supply centres: sea, land and their owners'
tints, borders, coasts) is the same in the two pictures of a phase, in every acknowledgement
of it, and in every game at the same position: its pixels are kept for the last few boards
(`BOARDS`, by the digest of its SVG text, titles left out), and a picture whose board is kept
starts from a copy of them and paints only what lies on it (centres, units, orders, names,
legend, heading). Painting on a copy of the pixels is painting on the same pixels: the picture
is the same, pixel for pixel (tests/pictures/test_picture_board_cache.py). A phase's two
pictures (the orders, the positions after them) differ in their legends' heights: the board
kept for one is the other's, cut or with white rows below, when the two are drawn at the same
scale (`_board_key`). A board is painted as its provinces' fills under a kept layer of its
borders and coasts, and a new board whose provinces' colours alone differ from a kept one's is
that one refilled (gm.pictures.fills). On the board, the legend's elements (drawn on white)
are copied in as the pixels they came out as before (gm.pictures.sprites), and the centres and
units laid as kept layers (gm.pictures.stamps).

Fonts: DejaVu Sans (Debian's fonts-dejavu-core), read from its files through a font manager of
its own (the system's would load fontconfig, which warns about newer configuration files);
without it, Skia's default typeface.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import skia

from gm.pictures import fills, lines
from gm.pictures.layers import KEPT as LAYERS_KEPT
from gm.pictures.layers import LAYERED, Layer, capture
from gm.pictures.recent import Recent
from gm.pictures.second_sight import SecondSight
from gm.pictures.sprites import Sprites
from gm.pictures.stamps import STAMPED, Stamps

_NS = "{http://www.w3.org/2000/svg}"
_FONT_FILES = {
    "normal": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
               "/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    "bold": ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
             "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
}
# presentation attributes, inherited by an element's children as SVG says
_STYLE = ("fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray",
          "stroke-linecap", "stroke-linejoin", "paint-order", "shape-rendering", "font-size",
          "font-weight", "text-anchor", "font-family")  # font-family read, DejaVu drawn
_STYLE_SET = frozenset(_STYLE)
_DEFAULT: dict[str, str] = {
    "fill": "#000000", "fill-opacity": "1", "stroke": "none", "stroke-width": "1",
    "stroke-dasharray": "", "stroke-linecap": "butt", "stroke-linejoin": "miter",
    "paint-order": "normal", "shape-rendering": "auto", "font-size": "16",
    "font-weight": "normal", "text-anchor": "start", "font-family": "",
}
_KNOWN = frozenset((*_STYLE, "width", "height", "viewBox", "id", "class", "x", "y", "x1", "y1",
                    "x2", "y2", "cx", "cy", "r", "rx", "points", "d", "transform",
                    "patternUnits"))
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PATH = re.compile(r"\s*([MLZmlz])([^A-Za-z]*)")
_ROTATE = re.compile(r"rotate\(\s*([-0-9.e]+)[\s,]+([-0-9.e]+)[\s,]+([-0-9.e]+)\s*\)")
_CAPS = {"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap,
         "square": skia.Paint.kSquare_Cap}
_JOINS = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
          "bevel": skia.Paint.kBevel_Join}
_NAMED = {"white": "#ffffff", "black": "#000000"}
_LOCAL = threading.local()  # .kit: this thread's fonts and paints (Skia objects stay in a thread)

Style = dict[str, str]


class Undrawable(ValueError):
    """The SVG steps outside what this module draws (or is not SVG)."""


def paint_rgba(svg: str, zoom: float) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], int, int]:
    """The picture's pixels (rows of RGBA, opaque: drawn on white), its width and height;
    `zoom` scales the SVG's own size."""
    painted = paint_on_board(svg, zoom)
    return painted.pixels, painted.width, painted.height


@dataclass(frozen=True)
class Painted:
    """A picture's pixels (rows of RGBA, opaque), its size, and the board it was painted on
    (None for an SVG without one): every pixel not painted after the board is the board's."""

    pixels: np.ndarray[Any, np.dtype[np.uint8]]
    width: int
    height: int
    board: Board | None


def paint_on_board(svg: str, zoom: float) -> Painted:
    """paint_rgba, with the board the picture was painted on. The SVG is read without its
    board (`_after_board`): on a kept board that text is not read at all."""
    cut = svg.find(_BOARD_END)
    light = None if cut < 0 else _after_board(svg, cut)
    try:
        root = light[0] if light is not None else ElementTree.fromstring(svg)
    except ElementTree.ParseError as exc:
        raise Undrawable(f"the SVG cannot be read: {exc}") from exc
    if root.tag != _NS + "svg":
        raise Undrawable(f"not an SVG picture: <{root.tag}>")
    try:
        width = round(float(root.attrib["width"]) * zoom)
        height = round(float(root.attrib["height"]) * zoom)
        box = [float(v) for v in root.attrib.get(
            "viewBox", f"0 0 {root.attrib['width']} {root.attrib['height']}").split()]
    except (KeyError, ValueError) as exc:
        raise Undrawable(f"the SVG has no readable size: {exc}") from exc
    if not (0 < width <= 10_000 and 0 < height <= 10_000) or len(box) != 4:
        raise Undrawable(f"the SVG's size cannot be drawn: {width}x{height}")
    base = None if cut < 0 else _board_key(svg[:cut], zoom, height / box[3])
    key = None if base is None else (base, height)
    kept = None if key is None else _boards.get(key)
    if kept is None and base is not None and base[3]:  # the same board, another height
        kept = _boards.other_height(base, height)
    pixels = np.empty((height, width * 4), np.uint8)
    if kept is not None and kept.pixels.shape == pixels.shape:
        np.copyto(pixels, kept.pixels)
    else:
        kept = None
        if key is None:
            pixels[:] = 0xFF  # white (a board to paint is whitened when painted, if it is)
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType,
                               skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRasterDirect(info, pixels, width * 4)
    canvas = surface.getCanvas()
    canvas.scale(width / box[2], height / box[3])
    canvas.translate(-box[0], -box[1])
    painter = _Painter(_kit())
    try:
        painter.patterns(root)
        style = painter.style(root, _DEFAULT)
        children = list(root)
        start = 0 if kept is None else kept.elements if light is None else light[1]
        if key is not None and kept is None:  # the board first, kept for the next pictures
            if light is None:
                board = _board_elements(children, svg, cut)
                drawn = children[:board]
            else:  # the board's text read alone, line by line where it can be
                drawn = (_board_by_lines(children[:light[1]], svg, cut)
                         or list(ElementTree.fromstring(svg[:cut] + "</svg>")))
                board = len(drawn)
            rest = drawn[_white_first(drawn, style, painter):]
            written = [line for line in svg[svg.find("</defs>") + 7:cut].split("\n") if line]
            planned = None if "</defs>" not in svg[:cut] else fills.plan(
                rest, written[len(written) - len(rest):] if len(rest) <= len(written) else [],
                style, painter.shapes, (width, height, tuple(box)))
            refilled = None
            if planned is None:
                pixels[:] = 0xFF
                for child in rest:
                    painter.draw(child, style, canvas)
            else:
                refilled = _painted_by_plan(planned, pixels, canvas, painter, style,
                                            (width, height, tuple(box)))
            source, changed = refilled or (
                None if base is None else _boards.latest(base, width), None)
            kept = Board(pixels.copy(), board,
                         source=source if source is None or source.source is None else None,
                         changed=changed,
                         plan=None if planned is None else (planned.key, planned.colours))
            _boards.put(key, kept)
            _boards.painted += 1
            start = board if light is None else light[1]
        style_key = tuple(style.items())
        painter.target = (canvas, pixels.view(np.uint32),
                          (width / box[2], height / box[3], box[0], box[1]),
                          canvas.getTotalMatrix())
        for child in children[start:]:
            if child.attrib.get("class") in LAYERED and "transform" not in child.attrib:
                _kept_layer(child, style, painter, (width, height, tuple(box)),
                            _source(svg, child)).lay_on(pixels)
            elif lines.is_kept(child):
                painter.replay(child, style, style_key, canvas)
            else:
                painter.draw(child, style, canvas)
    except (KeyError, ValueError, IndexError, ElementTree.ParseError) as exc:
        raise Undrawable(f"the SVG cannot be drawn: {exc!r}") from exc
    del canvas, surface
    return Painted(pixels, width, height, kept)


def _board_by_lines(head: list[ElementTree.Element], svg: str, cut: int
                    ) -> list[ElementTree.Element] | None:
    """The board's top elements: `head` (its title, its definitions), then one element a
    line of the text between its definitions and `cut`, each line read once for every board
    (gm.pictures.lines); None if a line is not one element alone."""
    end = svg.rfind("</defs>", 0, cut)
    if end < 0 or not head or head[-1].tag != _NS + "defs":
        return None
    out = list(head)
    for line in svg[end + len("</defs>"):cut].split("\n"):
        found = lines.whole(line) if line else ()
        if found is None or len(found) > 1:  # (the board's lines: an element each)
            return None
        out.extend(found)
    return out


def _painted_by_plan(planned: fills.Plan, pixels: np.ndarray[Any, np.dtype[np.uint8]],
                     canvas: Any, painter: _Painter, style: Style,
                     size: tuple[int, int, tuple[float, ...]]
                     ) -> tuple[Board, np.ndarray[Any, np.dtype[np.uint32]]] | None:
    """Paint a board of `planned` (gm.pictures.fills) on `pixels` (not yet painted: made
    white, unless a kept board is copied on them): a kept board of the same plan refilled,
    else the elements before its layer, then the layer; the kept board it was refilled
    from, if any, and the pixels that differ from it."""
    width, height, box = size
    known = _fills.peek(planned.key)
    source = None if known is None else _boards.planned(planned.key, pixels.shape)
    if source is not None and source.plan is not None and known is not None:
        np.copyto(pixels, source.pixels)
        places = fills.refill(pixels, known, source.plan[1], planned.colours, _colour)
        if places is not None:
            _boards.refilled += 1
            return source, places
    pixels[:] = 0xFF

    def scaled(target: Any) -> None:
        target.scale(width / box[2], height / box[3])
        target.translate(-box[0], -box[1])

    for child in planned.before + planned.provinces:
        painter.draw(child, style, canvas)
    made = _fills.get(planned.key, lambda: fills.make_fills(
        planned, width, height, scaled, painter.shapes, style, painter.path,
        lambda element, target: painter.draw(element, style, target)))
    made.after.lay_on(pixels)
    return None


def _white_first(elements: list[ElementTree.Element], style: Style, painter: _Painter) -> int:
    """How many of the first `elements` are titles, definitions and opaque white rectangles:
    painted on white (the white under svg.py's board), they change no pixel (4 ms a board)."""
    for i, element in enumerate(elements):
        tag = element.tag[len(_NS):]
        if tag in ("title", "defs"):
            continue
        own = painter.style(element, style, tag)
        if (tag != "rect" or "transform" in element.attrib or own["stroke"] != "none"
                or _NAMED.get(own["fill"], own["fill"]).lower() not in ("#ffffff", "#fff")
                or float(own["fill-opacity"]) != 1.0):
            return i
    return len(elements)


def _after_board(svg: str, cut: int) -> tuple[ElementTree.Element, int] | None:
    """The SVG read without its board (what lies between its definitions and `cut`, where
    the centres' group opens), and how many of its top elements come before that group (its
    title, its definitions); None where no definitions come before the board or the text so
    cut cannot be read."""
    end = svg.rfind("</defs>", 0, cut)
    if end < 0:
        return None
    head = svg[:end + len("</defs>")]
    close = svg.rfind("</svg>")
    try:
        root = ElementTree.fromstring(head + "</svg>")
        count = len(root)
        after = None if close < cut else lines.elements(svg[cut:close])  # each line once
        if after is None:
            return ElementTree.fromstring(head + svg[cut:]), count
    except ElementTree.ParseError:
        return None
    root.extend(after)
    return root, count


def _board_elements(children: list[ElementTree.Element], svg: str, cut: int) -> int:
    """How many of the SVG's top elements lie before `cut` (where the centres' group opens):
    the place of the first top group of centres, or (should that group not be a top one)
    the elements of the text before it, read again."""
    for i, child in enumerate(children):
        if child.tag == _NS + "g" and child.attrib.get("class") == "centres":
            return i
    return len(ElementTree.fromstring(svg[:cut] + "</svg>"))


def _source(svg: str, element: ElementTree.Element) -> str | None:
    """The text of `element`, a top group, in `svg`, where it is plain to see: the one group
    opening with its class, holding no other group, each of its children on a line of its
    own (as svg.py writes the names); else None."""
    opening = f'<g class="{element.attrib.get("class")}"'
    start = svg.find(opening)
    if start < 0 or svg.find(opening, start + 1) >= 0:
        return None
    end = svg.find("</g>", start)
    text = svg[start:end]
    if end < 0 or "<g" in text[2:] or text.count("\n<") != len(element):
        return None
    return text


def _kept_layer(element: ElementTree.Element, style: Style, painter: _Painter,
                size: tuple[int, int, tuple[float, ...]], source: str | None = None) -> Layer:
    """The layer `element` paints (gm.pictures.layers), painted once for every picture;
    `source`: its SVG text, if known (else it is written out again, to be known by)."""
    width, height, box = size
    text = source.encode() if source is not None else ElementTree.tostring(element)
    key = (hashlib.blake2b(text, digest_size=20).digest(), source is not None, size,
           tuple(sorted(style.items())))

    def draw(canvas: Any) -> None:
        canvas.scale(width / box[2], height / box[3])
        canvas.translate(-box[0], -box[1])
        painter.draw(element, style, canvas)

    return _layers.get(key, lambda: capture(width, height, draw))


_layers: Recent[Hashable, Layer] = Recent(LAYERS_KEPT)
_BOARD_END = '\n<g class="centres"'  # svg.py writes the board before it
_TITLE = re.compile(r"<title>[^<]*</title>")  # not drawn: no part of a board's digest
_SIZE = re.compile(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)" '
                   r'viewBox="([-0-9.]+) ([-0-9.]+) ([0-9.]+) ([0-9.]+)"')
BoardKey = tuple[bytes, float, float, bool]


def _board_key(head: str, zoom: float, scale: float) -> BoardKey:
    """The key of the board `head` (the SVG text before the centres) paints at `zoom`: its
    digest (titles left out, and the picture's height where only the white under the board
    has it: a phase's two pictures differ in their legends' heights alone), the zoom, the
    vertical scale (the same board at another height is the same pixels only at the same
    scale), and whether the height was left out."""
    text = _TITLE.sub("", head)
    size = _SIZE.search(text)
    heightless = False
    if size is not None:
        _, high, _, top, wide, view_high = size.groups()
        white = f'<rect y="{top}" width="{wide}" height="{high}" fill="#ffffff"/>'
        if view_high == high and text.count(white) == 1:
            root = size.group(0).replace(f' height="{high}"', "", 1)
            text = (text[:size.start()] + root.replace(f' {wide} {high}"', f' {wide}"', 1)
                    + text[size.end():]).replace(white, f'<rect y="{top}" width="{wide}" '
                                                        'fill="#ffffff"/>', 1)
            heightless = True
    return (hashlib.blake2b(text.encode(), digest_size=20).digest(), zoom, scale, heightless)


def _other_height(board: Board, height: int) -> Board | None:
    """`board` at `height` rows: cut, or with white rows below (what painting it at that
    height gives: the white under it is the picture's height, and nothing of the board
    reaches its last row); None if something does."""
    old = board.pixels
    if not (old[-1] == 0xFF).all():
        return None
    source = board if board.source is None else None  # (never a chain of sources)
    same = np.empty(0, np.uint32)  # its rows the board's: no pixel of them differs
    if height <= len(old):  # cut: the same pixels (a board's are never painted on)
        return Board(old[:height], board.elements, source=source, changed=same)
    pixels = np.empty((height, old.shape[1]), np.uint8)
    rows = min(height, len(old))
    pixels[:rows] = old[:rows]
    pixels[rows:] = 0xFF
    return Board(pixels, board.elements, source=source, changed=same)
BOARDS = 6  # boards kept (a standard one at 1140 pixels wide: 4 MB)
OUTLINES = 512  # texts' outlines kept, about 12 kB each (the names are a kept layer)
SHAPES = 4096  # shapes' paths kept (gm.pictures.paint._Kit.shape), a kB or two each
RECORDED = 4096  # elements' drawings kept recorded (_Painter.replay)
PATTERNS = 64  # patterns' shaders kept (a variant's few: a tile's recording each)
_EVERYWHERE = skia.Rect.MakeLTRB(-1e6, -1e6, 1e6, 1e6)  # a recording's bounds


@dataclass
class Board:
    """A board as painted: its pixels (copied, never painted on), how many of the SVG's top
    elements it is, and what a picture's writer worked out from the pixels once for every
    picture on it (gm.pictures.png keeps the board's palette and indices here; a board's
    palette is worked out from its `source`'s where it can be: gm.pictures.palette)."""

    pixels: np.ndarray[Any, np.dtype[np.uint8]]
    elements: int
    derived: dict[str, Any] = field(default_factory=dict)
    source: Board | None = None  # a kept board as wide its palette may come from, until it does
    plan: tuple[bytes, tuple[str, ...]] | None = None  # its Fills' key, its shapes' fills
    changed: np.ndarray[Any, np.dtype[np.uint32]] | None = None  # its pixels not `source`'s
    # (in the rows both have), if known


class _Boards:
    """The last few boards painted (shared by the threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[tuple[BoardKey, int], Board] = OrderedDict()
        self.painted = 0  # boards painted (the others were kept ones)
        self.refilled = 0  # of them, kept boards refilled (gm.pictures.fills)
        self.lock = threading.Lock()

    def get(self, key: tuple[BoardKey, int]) -> Board | None:
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
            return found

    def other_height(self, base: BoardKey, height: int) -> Board | None:
        """The board kept last under `base` at another height, made `height` rows high (then
        kept too), if one is and it can be (`_other_height`)."""
        with self.lock:
            found = next((b for (k, _), b in reversed(self.kept.items()) if k == base), None)
        board = None if found is None else _other_height(found, height)
        if board is not None:
            self.put((base, height), board)
        return board

    def planned(self, key: bytes, shape: tuple[int, ...]) -> Board | None:
        """The board kept last painted by a plan of Fills `key`, of pixels of `shape`."""
        with self.lock:
            return next((b for b in reversed(self.kept.values()) if b.plan is not None
                         and b.plan[0] == key and b.pixels.shape == shape), None)

    def latest(self, base: BoardKey, width: int) -> Board | None:
        """The board kept last at `base`'s zoom and scale, `width` pixels wide, if any."""
        with self.lock:
            return next((b for (k, _), b in reversed(self.kept.items())
                         if k[1:3] == base[1:3] and b.pixels.shape[1] == width * 4), None)

    def put(self, key: tuple[BoardKey, int], value: Board) -> None:
        with self.lock:
            self.kept[key] = value
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)


_boards = _Boards(BOARDS)
_fills: Recent[bytes, fills.Fills] = Recent(fills.KEPT)


class _Kit:
    """Fonts and paints, made once per thread and kept (most pictures use the same few)."""

    def __init__(self) -> None:
        manager = skia.FontMgr.New_Custom_Empty()
        self.typefaces: dict[str, Any] = {}
        for weight, files in _FONT_FILES.items():
            found = next((f for f in files if Path(f).exists()), None)
            face = None if found is None else manager.makeFromFile(found, 0)
            if face is None:
                face = skia.Typeface.MakeDefault()
            self.typefaces[weight] = face
        self.fonts: dict[tuple[str, str], Any] = {}
        self.paints: dict[tuple[str, ...], Any] = {}
        self.outlines: dict[tuple[str, str, str], tuple[Any, float]] = {}
        self.shapes: dict[tuple[str, str], Any] = {}
        # an element's recording, and the patterns it was drawn with (None: none)
        self.recorded: dict[tuple[ElementTree.Element, tuple[tuple[str, str], ...]],
                            tuple[Any, tuple[Hashable, ...] | None]] = {}
        self.patterns: dict[Hashable, Any] = {}  # patterns' shaders, by _written
        self.sprites = Sprites()  # kept elements as drawn on white (gm.pictures.sprites)
        self.stamps = Stamps()  # centres' and units' layers (gm.pictures.stamps)
        self.met = SecondSight(OUTLINES)  # the texts outlined lately (kept the second time)

    def shape(self, tag: str, a: dict[str, str]) -> Any:
        """The path of a polygon, polyline or path element, kept by its points or path data
        (a board's provinces, borders and coasts are the same in every picture of a variant:
        read once, not in each picture)."""
        key = (tag, a["d"] if tag == "path" else a["points"])
        found = self.shapes.get(key)
        if found is None:
            if len(self.shapes) >= SHAPES:
                self.shapes.clear()
            found = self.shapes[key] = _SHAPES[tag](a)
        return found

    def outline(self, words: str, size: str, weight: str) -> tuple[Any, float]:
        """The words' glyphs as one path from the origin on the baseline, and its advance."""
        key = (words, size, weight)
        found = self.outlines.get(key)
        if found is None:
            font = self.font(size, weight)
            glyphs = font.textToGlyphs(words)
            pairs = font.getTypeface().getKerningPairAdjustments(glyphs) or ()
            scale = font.getSize() / font.getTypeface().getUnitsPerEm()
            path, kerned = skia.Path(), 0.0
            for i, (glyph, x) in enumerate(zip(font.getPaths(glyphs), font.getXPos(glyphs),
                                               strict=True)):
                if i and i <= len(pairs):  # the font's kerning of this pair
                    kerned += pairs[i - 1] * scale
                if glyph is not None:
                    path.addPath(glyph, x + kerned, 0)
            found = (path, font.measureText(words) + kerned)
            if not self.met.again(key):  # a title is new in every picture: not kept
                return found
            if len(self.outlines) > OUTLINES:
                self.outlines.clear()
            self.outlines[key] = found
        return found

    def font(self, size: str, weight: str) -> Any:
        font = self.fonts.get((size, weight))
        if font is None:
            face = self.typefaces["bold" if weight in ("bold", "bolder", "700", "800", "900")
                                  else "normal"]
            font = skia.Font(face, float(size))
            font.setEdging(skia.Font.kAntiAlias)
            font.setSubpixel(True)
            font.setHinting(skia.FontHinting.kNone)
            font.setLinearMetrics(True)
            self.fonts[(size, weight)] = font
        return font


def _kit() -> _Kit:
    kit: _Kit | None = getattr(_LOCAL, "kit", None)
    if kit is None:
        kit = _LOCAL.kit = _Kit()
    return kit


def _colour(text: str) -> int:
    value = _NAMED.get(text, text).lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    if len(value) != 6:
        raise ValueError(f"colour {text!r}")
    return 0xFF000000 | int(value, 16)


class _Painter:
    """Draws one picture's elements (the patterns first: fills refer to them)."""

    def __init__(self, kit: _Kit) -> None:
        self.kit = kit
        self.shaders: dict[str, Any] = {}
        self.patterned: dict[tuple[str, ...], Any] = {}  # paints of this picture's patterns
        self.patterned_used = False  # whether a pattern's paint was asked for (replay)
        # the picture's canvas, its pixels, its scale and place (as a key and as Skia's
        # matrix): kept elements drawn on it unturned may be sprites (gm.pictures.sprites)
        self.target: tuple[Any, np.ndarray[Any, np.dtype[np.uint32]], Hashable, Any] | None = (
            None)
        self.turned = 0  # transforms the element drawn now is under
        self.patterns_key: tuple[Hashable, ...] = ()  # the picture's patterns (`patterns`)

    def patterns(self, root: ElementTree.Element) -> None:
        """The picture's patterns' shaders, each kept by what it is written as (`_written`)
        for the next pictures (`PATTERNS`), and `patterns_key`: all of them (what a
        recording drawn with them is kept with)."""
        texts = []
        for pattern in root.iter(_NS + "pattern"):
            a = pattern.attrib
            if a.get("patternUnits") != "userSpaceOnUse":
                raise Undrawable(f"pattern {a.get('id')!r}: only userSpaceOnUse is drawn")
            text = _written(pattern)
            texts.append(text)
            shader = self.kit.patterns.get(text)
            if shader is None:
                tile = skia.Rect.MakeWH(float(a["width"]), float(a["height"]))
                recorder = skia.PictureRecorder()
                canvas = recorder.beginRecording(tile)
                for child in pattern:
                    self.draw(child, _DEFAULT, canvas)
                shader = recorder.finishRecordingAsPicture().makeShader(
                    skia.TileMode.kRepeat, skia.TileMode.kRepeat, skia.FilterMode.kLinear,
                    None, tile)
                if len(self.kit.patterns) >= PATTERNS:
                    self.kit.patterns.clear()
                self.kit.patterns[text] = shader
            self.shaders[a["id"]] = shader
        self.patterns_key = tuple(texts)

    def paint(self, style: Style, stroke: bool) -> Any:
        """The Skia paint for the style's fill or stroke, None if there is none."""
        value = style["stroke" if stroke else "fill"]
        if value == "none":
            return None
        key = ((value, style["stroke-width"], style["stroke-dasharray"],
                style["stroke-linecap"], style["stroke-linejoin"], style["shape-rendering"])
               if stroke else (value, style["fill-opacity"], style["shape-rendering"]))
        if value.startswith("url("):
            self.patterned_used = True
        paints = self.patterned if value.startswith("url(") else self.kit.paints
        paint = paints.get(key)
        if paint is None:
            paint = skia.Paint()
            paint.setAntiAlias(style["shape-rendering"] not in ("crispEdges", "optimizeSpeed"))
            if value.startswith("url(#") and value.endswith(")"):
                paint.setShader(self.shaders[value[5:-1]])
            else:
                paint.setColor(_colour(value))
            if stroke:
                paint.setStyle(skia.Paint.kStroke_Style)
                paint.setStrokeWidth(float(style["stroke-width"]))
                paint.setStrokeCap(_CAPS[style["stroke-linecap"]])
                paint.setStrokeJoin(_JOINS[style["stroke-linejoin"]])
                dash = [float(v) for v in _NUMBER.findall(style["stroke-dasharray"])]
                if dash and any(dash):
                    paint.setPathEffect(skia.DashPathEffect.Make(dash * (len(dash) % 2 + 1), 0))
            else:
                paint.setAlphaf(float(style["fill-opacity"]))
            paints[key] = paint
        return paint

    @staticmethod
    def style(element: ElementTree.Element, inherited: Style, tag: str = "svg") -> Style:
        """The element's style: what it inherits with its own presentation attributes (an
        attribute this module does not draw raises Undrawable)."""
        a = element.attrib
        if not _KNOWN.issuperset(a):
            unknown = [k for k in a if k not in _KNOWN and not k.startswith("data-")]
            if unknown:
                raise Undrawable(f"<{tag}>: cannot draw attribute {unknown[0]}")
        if _STYLE_SET.isdisjoint(a):
            return inherited
        return {**inherited, **{k: a[k] for k in _STYLE if k in a}}

    def draw(self, element: ElementTree.Element, inherited: Style, canvas: Any) -> None:
        tag = element.tag[len(_NS):] if element.tag.startswith(_NS) else element.tag
        if tag in ("title", "defs", "desc", "metadata"):
            return
        a = element.attrib
        style = self.style(element, inherited, tag)
        transform = a.get("transform")
        if transform is not None:
            turn = _ROTATE.fullmatch(transform.strip())
            if turn is None:
                raise Undrawable(f"<{tag}>: cannot draw transform {transform!r}")
            canvas.save()
            canvas.rotate(*(float(v) for v in turn.groups()))
            self.turned += 1
        if tag == "g" and a.get("class") in STAMPED and self.stamped(element, style, canvas):
            pass  # its elements laid as layers (gm.pictures.stamps)
        elif tag in ("g", "svg"):
            inherited_key = tuple(style.items())
            for child in element:
                if lines.is_kept(child):
                    self.replay(child, style, inherited_key, canvas)
                else:
                    self.draw(child, style, canvas)
        elif tag == "text":
            self.text(element, style, canvas)
        else:
            shape = _SHAPES.get(tag)
            if shape is None:
                raise Undrawable(f"cannot draw <{tag}>")
            path = self.kit.shape(tag, a) if tag in _KEPT_SHAPES else shape(a)
            for paint in (self.paint(style, False), self.paint(style, True)):
                if paint is not None:
                    canvas.drawPath(path, paint)
        if transform is not None:
            canvas.restore()
            self.turned -= 1

    def stamped(self, group: ElementTree.Element, style: Style, canvas: Any) -> bool:
        """Lay the elements of `group` (its style `style`) on the picture's canvas as layers
        (gm.pictures.stamps; kept for an element gm.pictures.lines keeps, else painted for
        this picture alone: the same pixels either way), if they all can be: none drawn with
        a pattern, unturned; whether they were."""
        target = self.target
        if target is None or canvas is not target[0] or self.turned:
            return False
        pixels = target[1]
        height, width = pixels.shape
        style_key = tuple(style.items())
        layers = []
        for child in group:
            kept = lines.is_kept(child)
            picture, alone = (self._recording(child, style, style_key) if kept
                              else self._recorded(child, style))
            layer = None if not alone else self.kit.stamps.layer(
                (child, style_key, target[2]) if kept else None, picture, target[3], width,
                height)
            if layer is None:
                return False
            layers.append(layer)
        return self.kit.stamps.lay(layers, pixels)

    def replay(self, element: ElementTree.Element, inherited: Style,
               inherited_key: tuple[tuple[str, str], ...], canvas: Any) -> None:
        """draw, for an element kept by gm.pictures.lines, from a recording of its drawing
        kept for it and what it inherits (its calls to Skia, played again: the same pixels),
        made the first time; an element drawn with a pattern is recorded again when the
        picture's patterns differ from those it was recorded with. On the picture's canvas,
        unturned, it is drawn as a sprite where it can be (gm.pictures.sprites)."""
        target = self.target
        if target is not None and canvas is target[0] and not self.turned:
            self.kit.sprites.draw((element, inherited_key, target[2]), target[1], target[3],
                                  lambda: self._recording(element, inherited, inherited_key),
                                  canvas)
        else:
            canvas.drawPicture(self._recording(element, inherited, inherited_key)[0])

    def _recording(self, element: ElementTree.Element, inherited: Style,
                   inherited_key: tuple[tuple[str, str], ...]) -> tuple[Any, bool]:
        """replay's recording (bounded: its cullRect is what it draws), and whether it is the
        element's alone (no pattern of this picture's)."""
        key = (element, inherited_key)
        found = self.kit.recorded.get(key)
        if found is None or (found[1] is not None and found[1] != self.patterns_key):
            picture, alone = self._recorded(element, inherited)
            found = (picture, None if alone else self.patterns_key)
            if len(self.kit.recorded) >= RECORDED:
                self.kit.recorded.clear()
            self.kit.recorded[key] = found
        return found[0], found[1] is None

    def _recorded(self, element: ElementTree.Element, inherited: Style) -> tuple[Any, bool]:
        """A recording of the element's drawing (bounded: its cullRect is what it draws),
        and whether it is the element's alone (no pattern of this picture's)."""
        recorder = skia.PictureRecorder()
        target = recorder.beginRecording(_EVERYWHERE, skia.RTreeFactory()())
        self.patterned_used = False
        self.draw(element, inherited, target)
        return recorder.finishRecordingAsPicture(), not self.patterned_used

    def shapes(self, element: ElementTree.Element, inherited: Style
               ) -> list[tuple[ElementTree.Element, Style]] | None:
        """The shapes `element` draws, with their styles, if it draws shapes alone (no text)
        and none transformed; else None."""
        out: list[tuple[ElementTree.Element, Style]] = []
        return out if self._shapes(element, inherited, out) else None

    def _shapes(self, element: ElementTree.Element, inherited: Style,
                out: list[tuple[ElementTree.Element, Style]]) -> bool:
        tag = element.tag[len(_NS):] if element.tag.startswith(_NS) else element.tag
        if tag in ("title", "desc", "metadata"):
            return True
        if "transform" in element.attrib:
            return False
        style = self.style(element, inherited, tag)
        if tag == "g":
            return all(self._shapes(child, style, out) for child in element)
        if tag in _SHAPES:
            out.append((element, style))
            return True
        return False

    def path(self, element: ElementTree.Element) -> Any:
        """A shape's path."""
        tag = element.tag[len(_NS):] if element.tag.startswith(_NS) else element.tag
        return self.kit.shape(tag, element.attrib) if tag in _KEPT_SHAPES else _SHAPES[tag](
            element.attrib)

    def text(self, element: ElementTree.Element, style: Style, canvas: Any) -> None:
        if len(element):
            raise Undrawable("cannot draw <text> with elements inside")
        words = element.text or ""
        if not words:
            return
        outline, advance = self.kit.outline(words, style["font-size"], style["font-weight"])
        x, y = float(element.attrib.get("x", 0)), float(element.attrib.get("y", 0))
        anchor = style["text-anchor"]
        if anchor != "start":
            x -= advance / 2 if anchor == "middle" else advance
        fill, stroke = self.paint(style, False), self.paint(style, True)
        canvas.save()
        canvas.translate(x, y)
        for paint in ((stroke, fill) if style["paint-order"].startswith("stroke")
                      else (fill, stroke)):
            if paint is not None:
                canvas.drawPath(outline, paint)
        canvas.restore()


def _written(element: ElementTree.Element) -> Hashable:
    """All that `element` and what it holds are written as: tags, attributes, texts."""
    return tuple((e.tag, tuple(e.attrib.items()), e.text) for e in element.iter())


def _numbers(text: str) -> list[float]:
    return [float(v) for v in _NUMBER.findall(text)]


def _poly(a: dict[str, str], close: bool) -> Any:
    v = _numbers(a["points"])
    path = skia.Path()
    path.addPoly([skia.Point(v[i], v[i + 1]) for i in range(0, len(v) - 1, 2)], close)
    return path


def _d(a: dict[str, str]) -> Any:
    """A path of absolute M, L and Z commands (what svg.py writes)."""
    path = skia.Path()
    d = a["d"]
    at = 0
    for match in _PATH.finditer(d):
        if match.start() != at:
            break
        at = match.end()
        command, v = match.group(1), _numbers(match.group(2))
        if command in "ml":
            raise Undrawable("cannot draw a relative path (m, l)")
        if command == "M":
            path.moveTo(v[0], v[1])
            v = v[2:]
        if command in "Zz":
            path.close()
            continue
        for i in range(0, len(v) - 1, 2):
            path.lineTo(v[i], v[i + 1])
    if d[at:].strip():
        raise Undrawable(f"cannot draw path data {d[at:at + 20]!r}")
    return path


def _rect(a: dict[str, str]) -> Any:
    r = skia.Rect.MakeXYWH(float(a.get("x", 0)), float(a.get("y", 0)), float(a["width"]),
                           float(a["height"]))
    rx = float(a.get("rx", 0))
    return skia.Path.RRect(r, rx, rx) if rx else skia.Path.Rect(r)


_KEPT_SHAPES = frozenset({"polygon", "polyline", "path"})
_SHAPES: dict[str, Callable[[dict[str, str]], Any]] = {
    "polygon": lambda a: _poly(a, True),
    "polyline": lambda a: _poly(a, False),
    "path": _d,
    "circle": lambda a: skia.Path.Circle(float(a["cx"]), float(a["cy"]), float(a["r"])),
    "line": lambda a: skia.Path.Line(skia.Point(float(a["x1"]), float(a["y1"])),
                                     skia.Point(float(a["x2"]), float(a["y2"]))),
    "rect": _rect,
}
