"""Map pictures: the board drawn from the map data's border rings (geometry), the position and
the orders on it as SVG (svg), and PNG for mail clients that show no SVG (png)."""

from gm.pictures.render import picture_pair, render_phase_png, render_phase_svg
from gm.pictures.svg import render_map_svg

__all__ = ["picture_pair", "render_map_svg", "render_phase_png", "render_phase_svg"]
