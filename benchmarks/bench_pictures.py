"""How long one map picture takes: the SVG (gm.pictures.svg) and its PNG (painted with Skia,
gm.pictures.paint; and, for comparison, drawn by resvg, where Skia cannot load), for the
standard board with the Spring 1901 orders drawn, Abstraction2's start, and a 34-power Chaos II
position with its orders drawn. Goal: under 50 ms each.

    .venv/bin/python benchmarks/bench_pictures.py [--runs 10] [--write DIR]

--write DIR also writes each timed picture, and every variant's start position, as PNG and
SVG into DIR (for looking at them).

The PNG is timed without the remembered pictures of gm.pictures.png (render_png, which
svg_to_png calls the first time it sees an SVG). Each figure is the best of the runs
(wall-clock ms, and the process's CPU ms: on a busy machine the wall-clock figure grows with
the load, the CPU figure much less). The first picture of a variant also computes its board
(once per process); that time is shown apart. "pixels": the PNG's size; "resvg": the CPU ms
of the same PNG drawn by resvg. "new board": the CPU ms of the same picture with the owners of
two centres changed, another pair each time (a board not kept, as each game's own in a
deadline; the mean of the runs after the first).
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_chaos2 import orders as chaos_orders  # noqa: E402
from bench_chaos2 import position as chaos_position  # noqa: E402

from gm.engine.game import advance  # noqa: E402
from gm.engine.results import OrderResult, Submitted  # noqa: E402
from gm.engine.state import GameState  # noqa: E402
from gm.notation import parse_order  # noqa: E402
from gm.pictures.png import render_png, svg_to_png  # noqa: E402
from gm.pictures.svg import render_map_svg  # noqa: E402
from gm.variants import Variant, get_variant  # noqa: E402

SPRING_1901 = (
    "England: F Lon - ENG", "England: F Edi - NTH", "England: A Lvp - Yor",
    "France: A Par - Bur", "France: A Mar S A Par - Bur", "France: F Bre - MAO",
    "Germany: A Mun - Bur", "Germany: A Ber - Kie", "Germany: F Kie - Den",
    "Italy: A Ven H", "Italy: A Rom - Apu", "Italy: F Nap - ION",
    "Austria: A Vie - Gal", "Austria: A Bud - Ser", "Austria: F Tri - Alb",
    "Russia: A War - Gal", "Russia: A Mos - Ukr", "Russia: F Sev - BLA",
    "Russia: F StP/sc - BOT", "Turkey: F Ank - BLA", "Turkey: A Con - Bul",
    "Turkey: A Smy - Con",
)


def _standard(variant: Variant) -> tuple[GameState, tuple[OrderResult, ...]]:
    state = variant.start_state()
    submitted = []
    for line in SPRING_1901:
        power, text = (s.strip() for s in line.split(":", 1))
        order = parse_order(text, variant.map, state.phase.type)
        assert not isinstance(order, Exception)
        submitted.append(Submitted(power, text, order))
    return state, advance(variant, state, submitted).reports[0].results


def _best(work: Callable[[], object], runs: int) -> tuple[float, float]:
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return min(wall) * 1000, min(cpu) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--write", type=Path, metavar="DIR", help="write the pictures here")
    args = parser.parse_args()
    cases: list[tuple[str, Variant, GameState, tuple[OrderResult, ...]]] = []
    standard = get_variant("standard")
    cases.append(("standard, Spring 1901 orders", standard, *_standard(standard)))
    abstraction = get_variant("abstraction2")
    cases.append(("abstraction2, start", abstraction, abstraction.start_state(), ()))
    chaos = get_variant("chaos2")
    state = chaos_position(chaos, 60, 1)
    results = advance(chaos, state, chaos_orders(chaos, state, 1)).reports[0].results
    cases.append(("chaos2, 34 powers, 60 units, orders", chaos, state, results))
    print(f"{'picture':40s} {'board':>8s} {'SVG ms':>8s} {'PNG ms':>8s} {'(cpu)':>8s} "
          f"{'PNG kB':>7s} {'pixels':>10s} {'resvg':>8s} {'new board':>9s}")
    for name, variant, position, drawn in cases:
        start = time.perf_counter()
        svg = render_map_svg(variant, position, name, results=drawn)
        first = (time.perf_counter() - start) * 1000
        titles = iter(range(10**6))  # a new title each time: nothing remembered whole
        svg_ms, _ = _best(lambda v=variant, p=position, d=drawn, n=name, t=titles:
                          render_map_svg(v, p, f"{n} {next(t)}", results=d), args.runs)
        render_png(svg)  # the fonts, paints and names' outlines are made once per process
        png_ms, png_cpu = _best(lambda s=svg: render_png(s), max(3, args.runs // 3))
        _, resvg_cpu = _best(lambda s=svg: render_png(s, renderer="resvg"), 3)
        png = svg_to_png(svg)
        width, height = struct.unpack(">II", png[16:24])  # the PNG header's size
        new_cpu = _new_boards(variant, position, drawn, name, max(8, args.runs))
        print(f"{name:40s} {first:8.1f} {svg_ms:8.1f} {png_ms:8.1f} {png_cpu:8.1f} "
              f"{len(png) / 1024:7.0f} {f'{width}x{height}':>10s} {resvg_cpu:8.1f} "
              f"{new_cpu:9.1f}")
        if args.write is not None:
            _write(args.write, name, svg)
    if args.write is not None:
        from gm.variants.registry import names

        for variant_name in names():
            variant = get_variant(variant_name)
            _write(args.write, f"{variant_name} start", render_map_svg(
                variant, variant.start_state(), f"{variant.title}: the start"))
        print(f"pictures written to {args.write}")


def _new_boards(variant: Variant, state: GameState, drawn: tuple[OrderResult, ...], name: str,
                runs: int) -> float:
    """The mean CPU ms of the picture on `runs` boards not kept (two centres' owners changed,
    another pair each time), the first left out."""
    centres = sorted(variant.map.centres)
    powers = variant.power_names
    svgs = []
    for i in range(runs + 1):
        owners = {**state.owners, centres[i % len(centres)]: powers[i % len(powers)],
                  centres[(i * 7 + 3) % len(centres)]: powers[(i + 1) % len(powers)]}
        svgs.append(render_map_svg(variant, replace(state, owners=owners), f"{name} {i}",
                                   results=drawn))
    render_png(svgs[0])
    start = time.process_time()
    for svg in svgs[1:]:
        render_png(svg)
    return (time.process_time() - start) * 1000 / runs


def _write(folder: Path, name: str, svg: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    stem = "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
    (folder / f"{stem}.svg").write_text(svg, encoding="utf-8")
    (folder / f"{stem}.png").write_bytes(svg_to_png(svg))


if __name__ == "__main__":
    main()
