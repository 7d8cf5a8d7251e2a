"""Map pictures: the board drawn from the map data's border rings (geometry), the position and
the orders on it as SVG (svg), a picture as a file (files), a phase's pictures (render), and
PNG for mail clients that show no SVG (png, which loads the painter: import it only to draw)."""
