"""The map picture of a position as SVG: terrain as it is now, centres and owners, units.

Each province is a group `<g id="p-<abbr>" class="province <terrain>" data-terrain=...>` with
its cell and its name, so the picture can be read back (tests parse it with xml.etree): the
terrain is the map's terrain in this position (a submerged province is drawn as sea, a dried
sea as land), ice is drawn over water (`data-ice="yes"`), supply centres carry their owner
(`class="centre" data-owner=...`), units their power and type (`class="unit army"`, fleet,
army-fleet), dislodged units are drawn beside their province with a broken red outline
(`class="unit ... dislodged"`), and cut borders are drawn as red dashes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from xml.sax.saxutils import escape, quoteattr

from gm.engine.geo import Terrain
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.pictures.layout import Layout, layout
from gm.variants.base import Variant

TERRAIN_FILL = {
    Terrain.SEA: "#a8c8e6",
    Terrain.LAKE: "#6fa8d6",
    Terrain.LAND: "#efe6cc",
    Terrain.MOUNTAIN: "url(#mountain)",
    Terrain.IMPASSABLE: "#8a8a8a",
}
ICE_FILL = "url(#ice)"
POWER_COLOURS = (
    "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
    "#e377c2", "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#843c39", "#7b4173",
    "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363", "#ad494a",
)
UNIT_CLASS = {UnitType.ARMY: "army", UnitType.FLEET: "fleet", UnitType.ARMY_FLEET: "army-fleet"}
UNIT_LETTER = {UnitType.ARMY: "A", UnitType.FLEET: "F", UnitType.ARMY_FLEET: "A/F"}

_DEFS = (
    '<defs>'
    '<pattern id="mountain" width="14" height="14" patternUnits="userSpaceOnUse">'
    '<rect width="14" height="14" fill="#c8b48c"/>'
    '<path d="M1 12 L7 3 L13 12" fill="none" stroke="#7a6440" stroke-width="1.2"/></pattern>'
    '<pattern id="ice" width="10" height="10" patternUnits="userSpaceOnUse">'
    '<rect width="10" height="10" fill="#f4fbff"/>'
    '<path d="M0 10 L10 0" stroke="#9cc3dc" stroke-width="1"/></pattern>'
    '</defs>'
)


@cache
def _colours(powers: tuple[str, ...]) -> dict[str, str]:
    return {p: POWER_COLOURS[i % len(POWER_COLOURS)] for i, p in enumerate(powers)}


def power_colour(variant: Variant, power: str) -> str:
    """The colour of `power`'s units, centres and provinces (by its place in the variant)."""
    return _colours(variant.power_names).get(power, POWER_COLOURS[-1])


escape = cache(escape)  # the same few names and units, again and again
quoteattr = cache(quoteattr)


@dataclass(frozen=True)
class _Static:
    """What the picture of a variant's board always has: each province's cell as SVG points,
    where its name and centre go, and its full name."""

    board: Layout
    points: dict[str, str]
    at: dict[str, tuple[float, float]]
    names: dict[str, str]
    order: tuple[str, ...]  # the provinces, in drawing order

    def __hash__(self) -> int:  # one per variant (`_static` is cached): hashed by identity
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


@cache
def _static(variant_name: str) -> _Static:
    from gm.variants import get_variant

    board = layout(variant_name)
    provinces = get_variant(variant_name).map.provinces
    return _Static(
        board,
        {a: " ".join(f"{x - board.left:.0f},{y - board.top:.0f}" for x, y in cell)
         for a, cell in board.cells.items()},
        {a: (x - board.left, y - board.top) for a, (x, y) in board.positions.items()},
        {a: escape(provinces[a].name) for a in board.cells},
        tuple(sorted(board.cells)),
    )


@lru_cache(maxsize=1 << 14)
def _province(static: _Static, abbr: str, terrain: Terrain, iced: bool, centre: bool,
              owner: str | None, colour: str | None) -> str:
    """A province's cell, name and centre as they look now (remembered: most provinces look
    the same in many pictures). `colour`: the owner's."""
    fill = ICE_FILL if iced else TERRAIN_FILL[terrain]
    classes = f"province {terrain.value}" + (" ice" if iced else "")
    x, y = static.at[abbr]
    points = static.points[abbr]
    out = [
        f'<g id="p-{abbr}" class="{classes}" '
        f'data-terrain="{terrain.value}" data-ice="{"yes" if iced else "no"}">'
        f'<title>{static.names[abbr]} ({terrain.value}{", ice" if iced else ""})</title>'
        f'<polygon points="{points}" fill="{fill}" stroke="#555"/>'
    ]
    if colour is not None:  # an owned centre's province is tinted with its owner's colour
        out.append(f'<polygon points="{points}" fill="{colour}" '
                   f'fill-opacity="0.22" stroke="none"/>')
    out.append(f'<text x="{x:.0f}" y="{y - 16:.0f}" text-anchor="middle" font-size="12">'
               f'{abbr}</text></g>')
    if centre:
        out.append(f'<circle class="centre" data-province="{abbr}" '
                   f'data-owner={quoteattr(owner or "")} cx="{x + 20:.0f}" '
                   f'cy="{y + 14:.0f}" r="6" fill="{colour or "#ffffff"}" stroke="#000" '
                   f'stroke-width="1.5"/>')
    return "\n".join(out)


@lru_cache(maxsize=1 << 14)
def _unit(unit: Unit, colour: str, x: float, y: float, dislodged: bool) -> str:
    """A unit's mark (remembered: the same units stand in the same places in many pictures)."""
    classes = f"unit {UNIT_CLASS[unit.type]}" + (" dislodged" if dislodged else "")
    stroke = ' stroke="#c00000" stroke-width="2.5" stroke-dasharray="4 2"' if dislodged \
        else ' stroke="#222" stroke-width="1"'
    coast = unit.location.coast
    letter = UNIT_LETTER[unit.type]
    label = letter if coast is None else f"{letter}/{coast}"
    width = 18 + 7 * (len(label) - 1)
    shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="{colour}"{stroke}/>'
             if unit.type is UnitType.ARMY and coast is None else
             f'<rect x="{x - width / 2:.1f}" y="{y - 10:.1f}" width="{width}" height="20" '
             f'rx="3" fill="{colour}"{stroke}/>')
    return (f'<g class={quoteattr(classes)} data-power={quoteattr(unit.power)} '
            f'data-province={quoteattr(unit.location.province)}><title>'
            f'{escape(unit.power)} {escape(str(unit))}{" (dislodged)" if dislodged else ""}'
            f'</title>{shape}<text x="{x:.1f}" y="{y + 4.5:.1f}" text-anchor="middle" '
            f'font-size="12" font-weight="bold" fill="#fff">{escape(label)}</text></g>')


def render_map_svg(variant: Variant, state: GameState, title: str) -> str:
    """The picture of `state` on `variant`'s map, headed by `title` (game and phase)."""
    static = _static(variant.name)
    board = static.board
    gmap = variant.map_for(state)
    powers = variant.power_names  # a property that builds its tuple: asked once
    colours = _colours(powers)
    legend_rows = (len(powers) + 3) // 4 + 1
    height = board.height + 40 + 22 * legend_rows
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{board.width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {board.width:.0f} {height:.0f}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" data-variant={quoteattr(variant.name)}>',
        f'<title>{escape(title)}</title>', _DEFS,
        f'<rect width="{board.width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text x="12" y="24" font-size="18" font-weight="bold">{escape(title)}</text>',
    ]
    centres = gmap.centres
    for abbr in static.order:
        terrain = gmap.terrain.get(abbr, variant.map.provinces[abbr].terrain)
        owner = state.owners.get(abbr) if abbr in centres else None
        out.append(_province(static, abbr, terrain, abbr in gmap.iced, abbr in centres, owner,
                             None if owner is None else colours.get(owner, POWER_COLOURS[-1])))
    for a, b in sorted(state.cut_borders):
        if a in board.positions and b in board.positions:
            (x1, y1), (x2, y2) = static.at[a], static.at[b]
            out.append(f'<line class="cut-border" data-between={quoteattr(a + "-" + b)} '
                       f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                       f'stroke="#c00000" stroke-width="3" stroke-dasharray="8 5"/>')
    other = POWER_COLOURS[-1]
    for unit in sorted(state.units):
        if unit.location.province in board.positions:
            x, y = static.at[unit.location.province]
            out.append(_unit(unit, colours.get(unit.power, other), x, y + 6, False))
    for d in sorted(state.dislodged, key=lambda d: d.unit):
        if d.unit.location.province in board.positions:
            x, y = static.at[d.unit.location.province]
            out.append(_unit(d.unit, colours.get(d.unit.power, other), x + 22, y + 30, True))
    out.extend(_legend(powers, colours, state, board.height + 10))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(powers: tuple[str, ...], colours: dict[str, str], state: GameState,
            top: float) -> list[str]:
    """Each power's colour and centre count, and the terrain fills."""
    rows = []
    counts = Counter(state.owners.values())  # each power's centres
    for i, power in enumerate(powers):
        x, y = 12 + 230 * (i % 4), top + 22 * (i // 4)
        rows.append(
            f'<g class="legend-power" data-power={quoteattr(power)}>'
            f'<rect x="{x}" y="{y}" width="14" height="14" fill="{colours[power]}"/>'
            f'<text x="{x + 20}" y="{y + 12}" font-size="13">{escape(power)}: '
            f'{counts[power]}</text></g>')
    y = top + 22 * ((len(powers) + 3) // 4)
    keys = (("sea", TERRAIN_FILL[Terrain.SEA]), ("lake", TERRAIN_FILL[Terrain.LAKE]),
            ("land", TERRAIN_FILL[Terrain.LAND]), ("mountain", TERRAIN_FILL[Terrain.MOUNTAIN]),
            ("impassable", TERRAIN_FILL[Terrain.IMPASSABLE]), ("ice", ICE_FILL))
    for i, (word, fill) in enumerate(keys):
        x = 12 + 130 * i
        rows.append(f'<rect x="{x}" y="{y}" width="14" height="14" fill="{fill}" stroke="#555"/>'
                    f'<text x="{x + 20}" y="{y + 12}" font-size="13">{word}</text>')
    return rows
