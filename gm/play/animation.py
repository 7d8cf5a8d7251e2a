"""The game as an animated image: one frame per movement phase (its units, centre colours and
orders, the moves as arrows, failed ones crossed: the reports' orders picture), then the
position at the end (or now), as an animated WebP written by Pillow (which every current
browser and most mail programs show; lossy, so that ten years of a standard game stay under
1 MB: about 20 kB a frame at 640 pixels wide)."""

from __future__ import annotations

import io

from PIL import Image

from gm.engine.phase import PhaseType
from gm.pictures.png import render_png
from gm.pictures.render import results_from_stored
from gm.pictures.svg import render_map_svg
from gm.play.played_game import PlayedGame

WIDTH = 640  # pixels: a phone's screen, and the board's names still readable
FRAME_MS = 1400
LAST_MS = 4000  # the last frame stays longer before the loop begins again
QUALITY = 70


def frame_svgs(played: PlayedGame) -> list[str]:
    """The SVG of each frame: every played movement phase with its orders, then the
    position at the end (or the open phase's)."""
    variant, game = played.variant, played.game.name
    out = []
    for record in played.phases:
        if record.phase.type is not PhaseType.MOVEMENT or not record.adjudicated:
            continue
        results = results_from_stored(variant, record.state, record.results or ())
        out.append(render_map_svg(variant, record.state,
                                  f"{game}: {played.name_of(record)}", results=results))
    last = played.final if played.final is not None else (
        played.phases[-1].state if played.phases else None)
    if last is not None:
        title = (f"{game}: the end ({variant.format_phase(last.phase)})"
                 if played.final is not None else f"{game}: {variant.format_phase(last.phase)}")
        out.append(render_map_svg(variant, last, title))
    return out


def _frame(svg: str) -> Image.Image:
    width = float(svg.split('width="', 1)[1].split('"', 1)[0])
    png = render_png(svg, zoom=min(1.0, WIDTH / width), indexed=False)
    return Image.open(io.BytesIO(png)).convert("RGB")


def animation_webp(played: PlayedGame) -> bytes:
    """The animated WebP of the game (a still image when it has one frame)."""
    frames = [_frame(svg) for svg in frame_svgs(played)]
    size = frames[0].size
    frames = [f if f.size == size else _fit(f, size) for f in frames]
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_MS]
    frames[0].save(out, format="WEBP", save_all=True, append_images=frames[1:],
                   duration=durations, loop=0, quality=QUALITY, method=4)
    return out.getvalue()


def _fit(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`frame` on a white canvas of `size` (a legend taller or shorter than the first's)."""
    canvas = Image.new("RGB", size, "white")
    canvas.paste(frame.crop((0, 0, min(frame.width, size[0]), min(frame.height, size[1]))))
    return canvas


def animation_filename(game: str) -> str:
    return f"{game.lower()}-animation.webp"
