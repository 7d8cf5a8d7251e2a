"""Map pictures for phase reports: a schematic SVG drawn from each province's position."""

from gm.pictures.svg import render_map_svg

__all__ = ["render_map_svg"]
