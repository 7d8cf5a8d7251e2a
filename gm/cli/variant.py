"""`gm variant check FILE [--draw DIR]` and `gm variant list`: variant files for a GM or an
operator (the format: docs/variant-files.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.variants.varfile import VariantFile


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "variant",
        help="check a variant file, or list the variants",
        description="Check a variant file (every error with its line and what to write "
                    "instead; a summary; the board drawn), or list the variants the service "
                    "plays: the built-in ones and those of the configuration's variants_dir.",
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    check = sub.add_parser("check", help="check a variant file and summarise it",
                           description="Read FILE; print every error (FILE:LINE: what is wrong "
                                       "and what to write instead) or its warnings (FILE:LINE: "
                                       "warning: ...) and a summary of the variant with the "
                                       "rule options it read; "
                                       "with --draw, write its starting board as SVG and PNG "
                                       "into DIR. Exit status 0: good, 1: errors.")
    check.add_argument("file", type=Path, metavar="FILE", help="the variant file (.toml)")
    check.add_argument("--draw", type=Path, metavar="DIR",
                       help="write the board's pictures (SVG and PNG) into this folder")
    check.set_defaults(func=run_check)
    listing = sub.add_parser("list", help="list the built-in and the loaded variants",
                             description="List the built-in variants and those loaded from "
                                         "the configuration's variants_dir (or --dir), and any "
                                         "file there that does not load, with why.")
    listing.add_argument("--config", type=Path, metavar="FILE", help="service configuration")
    listing.add_argument("--dir", type=Path, metavar="DIR", help="a folder of variant files "
                         "(instead of the configuration's variants_dir)")
    listing.set_defaults(func=run_list)


def run_check(args: argparse.Namespace) -> int:
    from gm.variants.registry import register as register_variant
    from gm.variants.registry import taken_by
    from gm.variants.varfile import VariantFileErrors, read_variant

    try:
        read = read_variant(args.file, taken_by(args.file.resolve()))
    except VariantFileErrors as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{len(exc.problems)} error(s) in {args.file}")
        return 1
    for warning in (*read.warnings, *placement_warnings(read)):
        print(warning)
    print(summary(read))
    if args.draw is not None:
        why = register_variant(read.variant, read.path, read.digest)
        if why is not None:
            print(f"{args.file}:1: {why}")
            return 1
        for path in draw(read, args.draw):
            print(f"drawn: {path}")
    return 0


def summary(read: VariantFile) -> str:
    """What a checked variant holds, for a GM to compare with the rules they mean to play."""
    from gm.engine.units import NEUTRAL

    v = read.variant
    gmap = v.map
    land = sorted(p for p in gmap.provinces if gmap.is_land(p))
    water = sorted(p for p in gmap.provinces if gmap.is_water(p))
    other = sorted(p for p in gmap.provinces if not gmap.is_passable(p))
    borders = {tuple(sorted((a, b))) for a, near in gmap.borders.items() for b in near
               } - set(read.passages) - read.data.links
    lines = [
        f"{read.path}: variant {v.name} ({v.title}), good",
        f"aliases: {', '.join(v.aliases) or 'none'}",
        f"provinces: {len(gmap.provinces)} ({len(land)} land, {len(water)} water, "
        f"{len(other)} impassable)",
        f"centres: {len(gmap.centres)}: {', '.join(sorted(gmap.centres))}",
        "split coasts: " + (", ".join(f"{p} ({'/'.join(c)})" for p, c in
                                       sorted(gmap.coasts.items())) or "none"),
        f"borders: {len(borders)} (passages" + (" and links" if read.data.links else "")
        + " not counted)",
        "passages: " + (", ".join(f"{a}-{b}" for a, b in read.passages) or "none"),
        *(["borders only armies or only fleets cross: " + ", ".join(
            f"{a}-{b} ({kind})" for (a, b), kind in sorted(read.data.only.items()))]
          if read.data.only else []),
        *(["links: " + ", ".join(f"{a}-{b}" for a, b in sorted(read.data.links))]
          if read.data.links else []),
        *(["one-way: " + ", ".join(f"{a} to {b}" for a, b in sorted(read.data.one_way))]
          if read.data.one_way else []),
        f"powers: {len(v.powers)}",
    ]
    for p in v.powers:
        units = ", ".join(str(u.type.value) + " " + str(u.location)
                          for u in v.start_units if u.power == p.name)
        owns = v.start_owned.get(p.name, ())
        lines.append(f"  {p.name} ({p.adjective}, {p.letter}): homes "
                     f"{', '.join(v.homes.get(p.name, ())) or 'none'}; units {units or 'none'}"
                     + (f"; owns {', '.join(owns)}" if owns else ""))
    neutral = [f"{u.type.value} {u.location}" for u in v.start_units if u.power == NEUTRAL]
    if neutral:
        lines.append(f"neutral garrisons: {', '.join(neutral)}")
    lines += [
        f"start: {v.format_phase(v.start_phase)}",
        f"victory: {v.solo_centres} centres" if v.solo_centres else "victory: no centre solo",
        "rules: " + "; ".join(read.options),
        f"events: {len(v.scheduled)}",
        f"hash: {read.digest}",
    ]
    return "\n".join(lines)


def placement_warnings(read: VariantFile) -> list[str]:
    """A province's `unit x,y` or `label x,y` that falls outside its shape as the picture
    draws it (the picture then places the unit or name itself), at the province's line."""
    from gm.engine.topology import RingTopology
    from gm.pictures.geometry import build_board

    topo = read.variant.map.deriver
    if not isinstance(topo, RingTopology):
        return []
    b = build_board(topo)
    out = []
    for abbr, prov in sorted(topo.provinces.items()):
        for word, at, used in (("unit", prov.unit_position, b.units),
                               ("label", prov.label_position, b.labels)):
            if at is not None and abbr not in used:
                source, line = read.lines.get(abbr, (str(read.path), 1))
                near = "" if prov.position is None else (
                    f" (at {prov.position[0]:g},{prov.position[1]:g})")
                out.append(f"{source}:{line}: warning: {word} {at[0]:g},{at[1]:g} of {abbr} "
                           f"is not inside {abbr} as the picture draws it (--draw shows it): "
                           f"the picture places the {word} itself; move it nearer {abbr}'s "
                           f"position{near}")
    return out


def draw(read: VariantFile, folder: Path) -> list[Path]:
    """The starting board as SVG and PNG in `folder`; the files written."""
    from gm.pictures.files import file_stem
    from gm.pictures.png import svg_to_png
    from gm.pictures.render import render_phase_svg

    variant = read.variant
    folder.mkdir(parents=True, exist_ok=True)
    title = f"{variant.title}: {variant.format_phase(variant.start_phase)}"
    svg = render_phase_svg(variant, variant.start_state(), title)
    stem = file_stem(variant.name, "start")
    written = [folder / f"{stem}.svg", folder / f"{stem}.png"]
    written[0].write_text(svg, encoding="utf-8")
    written[1].write_bytes(svg_to_png(svg))
    return written


def run_list(args: argparse.Namespace) -> int:
    from gm.variants import registry

    folder = args.dir
    if folder is None:
        from gm.config import ConfigError, load_config

        try:
            folder = load_config(args.config, os.environ).variants_dir
        except ConfigError as exc:
            print(f"gm variant: {exc}", file=sys.stderr)
            return 2
    refused: tuple[tuple[Path, str], ...] = ()
    if folder is not None:
        refused = registry.load_directory(folder).refused
    for name in registry.names():
        variant = registry.get_variant(name)
        where = "built-in"
        found = registry.file_of(name)
        if found is not None:
            where = f"file {found[0]}"
        aliases = f"; aliases: {', '.join(variant.aliases)}" if variant.aliases else ""
        print(f"{name:<14} {variant.title} ({where}{aliases})")
    for path, why in refused:
        print(f"not loaded: {path}:\n  " + why.replace("\n", "\n  "))
    return 1 if refused else 0
