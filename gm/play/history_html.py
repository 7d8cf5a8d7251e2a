"""The whole game in one HTML file: every phase's board with its orders drawn and their
results, the supply centres of each power by year as a chart, and the press the reader may
see (gm.play.mila.visible_press). Self-contained (no script, font or picture is fetched: it
opens offline in any browser) and fitted to a phone's width.

The boards are gm's own SVG pictures (gm.pictures.svg), inline. To keep ten years of a
standard game near 1 MB rather than 2.5, the board is written once: each province's outline
once (a `<polygon id>` the pictures `<use>`), the map without owners (terrain, borders,
coasts, unowned centres) once and the names once, and each phase's picture holds only what
differs from that: the provinces tinted by their owner, the owned centres, the units and the
orders. The pictures' legend is written once, as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

from gm.engine.state import GameState
from gm.pictures.render import results_from_stored
from gm.pictures.svg import power_colour, render_map_svg
from gm.play.mila import Reader, ShownPress, visible_press
from gm.play.played_game import PlayedGame
from gm.store.rows import PhaseRecord, StoredResult

_POLYGON = re.compile(r'<polygon points="([^"]+)"')
_PROVINCE = re.compile(r'<g id="p-([^"]+)"[^>]*>(?:<title>[^<]*</title>)?<polygon points="([^"]+)"')
_SIZE = re.compile(r'<svg[^>]* width="([0-9.]+)" height="([0-9.]+)"')
# what the file leaves out of the pictures: the data attributes (for tests and tools reading
# one picture) and the provinces' ids, which would repeat in every phase
_LEAN = re.compile(r' (?:data-[a-z-]+="[^"]*"|id="p-[^"]*")')

_STYLE = """
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;
color:#1b1b1b;background:#f4f4f1}
main{max-width:1180px;margin:0 auto;padding:8px}
header,section,nav{background:#fff;border:1px solid #d6d6d0;border-radius:6px;padding:10px 12px;
margin:0 0 12px}
h1{font-size:1.4em;margin:0 0 4px}h2{font-size:1.15em;margin:0 0 6px}h3{font-size:1em;
margin:10px 0 4px}
svg.board{width:100%;height:auto;display:block;background:#fff}
nav a{display:inline-block;margin:2px 6px 2px 0;white-space:nowrap}
.cols{display:flex;flex-wrap:wrap;gap:4px 18px}.cols>div{min-width:15em;flex:1}
ul.orders{list-style:none;margin:0;padding:0}ul.orders li{margin:1px 0}
.ok{color:#1b5e20}.fail{color:#b00020}.void{color:#6d6d6d}
.press{border-left:4px solid #9bb7d4;padding:2px 8px;margin:6px 0;background:#f7f9fc}
.press pre{white-space:pre-wrap;font:inherit;margin:2px 0 0}
.key span.sw{display:inline-block;width:.9em;height:.9em;margin:0 4px -1px 10px;
border:1px solid #555}
table.counts{border-collapse:collapse;font-size:.9em}table.counts td,table.counts th{
border:1px solid #ddd;padding:1px 5px;text-align:right}
.top{float:right;font-size:.85em}
"""


def history_filename(game: str) -> str:
    return f"{game.lower()}-history.html"


# -- the shared board -------------------------------------------------------------------------
class _Regions:
    """One picture's lines in parts: the board under everything (provinces, borders, coasts),
    the centres, the units and orders, the names, the legend."""

    def __init__(self, svg: str) -> None:
        lines = svg.rstrip("\n").split("\n")
        self.open = lines[0]
        centres = next(i for i, ln in enumerate(lines) if ln.startswith('<g class="centres"'))
        units = next(i for i, ln in enumerate(lines) if ln.startswith('<g class="units"'))
        labels = next(i for i, ln in enumerate(lines) if ln.startswith('<g class="labels"'))
        end_labels = labels + lines[labels:].index("</g>")
        self.defs = lines[2]  # <defs>...</defs>: the patterns
        # the heading (wherever gm.pictures.svg puts it) and the frame the board starts after
        self.title = next(ln for ln in lines if ln.startswith('<text x="10" y="-9"'))
        page = next(i for i, ln in enumerate(lines) if ln.startswith('<rect y="-30"'))
        frame = next(i for i, ln in enumerate(lines) if i > page and ln.startswith("<rect "))
        self.board = [ln for ln in lines[frame + 1:centres] if ln != self.title]
        self.centres_open = lines[centres]
        self.centres = lines[centres + 1:units - 1]
        self.units = lines[units:labels]
        self.labels = lines[labels:end_labels + 1]
        size = _SIZE.search(self.open)
        self.width = float(size.group(1)) if size else 1000.0
        self.height = float(lines[frame].split('height="', 1)[1].split('"', 1)[0])


def _regions(svg: str) -> _Regions | None:
    """`svg` in parts, or None if it is not laid out as gm.pictures.svg writes it."""
    try:
        return _Regions(svg)
    except (StopIteration, ValueError, IndexError):
        return None


class SharedBoard:
    """The map written once (`defs`), and each phase's picture as what differs from it."""

    def __init__(self, played: PlayedGame) -> None:
        first = played.phases[0].state if played.phases else played.variant.start_state()
        bare = first.evolve(units=(), dislodged=(), owners={})
        self.base = _regions(render_map_svg(played.variant, bare, ""))
        self.points: dict[str, str] = {}
        self._board: set[str] = set()
        self._centres: set[str] = set()
        if self.base is None:  # not laid out as expected: each picture is written whole
            return
        for line in self.base.board:
            found = _PROVINCE.match(line)
            if found is not None:
                self.points[found.group(2)] = found.group(1)
        self._board = set(self.base.board)
        self._centres = set(self.base.centres)

    def _shapes(self, lines: Iterable[str]) -> list[str]:
        """`lines` with each province's outline named, not written again."""
        def named(found: re.Match[str]) -> str:
            province = self.points.get(found.group(1))
            return found.group(0) if province is None else f'<use href="#q-{province}"'
        return [_LEAN.sub("", _POLYGON.sub(named, line)) for line in lines]

    def defs(self) -> str:
        """The hidden SVG every picture draws from."""
        if self.base is None:
            return ""
        outlines = "".join(f'<polygon id="q-{p}" points="{pts}"/>'
                           for pts, p in self.points.items())
        return "\n".join([
            '<svg width="0" height="0" style="position:absolute" aria-hidden="true">',
            self.base.defs.replace("</defs>", outlines), '<g id="gm-board">',
            *self._shapes(self.base.board), self.base.centres_open, *self.base.centres, "</g>",
            "</g>", '<g id="gm-names">', *self.base.labels, "</g>", "</defs></svg>"])

    def picture(self, svg: str, label: str) -> str:
        """One phase's picture: the shared board, what differs from it, the names on top."""
        own = None if self.base is None else _regions(svg)
        if own is None:
            return svg.replace("<svg ", f'<svg class="board" aria-label="{escape(label)}" ', 1)
        board = [ln for ln in own.board if ln not in self._board]
        centres = [ln for ln in own.centres if ln not in self._centres]
        height = own.height + 30
        return "\n".join([
            f'<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 -30 '
            f'{own.width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif" '
            f'role="img" aria-label="{escape(label)}">',
            f'<rect y="-30" width="{own.width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
            own.title, '<use href="#gm-board"/>', *self._shapes(board),
            *([own.centres_open, *self._shapes(centres), "</g>"] if centres else []),
            *self._shapes(own.units),
            '<use href="#gm-names"/>', "</svg>"])


# -- the page ---------------------------------------------------------------------------------
def _anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _result_line(result: StoredResult) -> str:
    text = escape(result.canonical or result.text)
    outcome = result.outcome.value
    css = {"succeeds": "ok", "fails": "fail", "illegal": "void"}.get(outcome, "")
    word = {"illegal": "void"}.get(outcome, outcome)
    reason = f": {escape(result.reason)}" if result.reason else ""
    return f'<li>{text} <span class="{css}">{word}{reason}</span></li>'


def _results(played: PlayedGame, record: PhaseRecord) -> str:
    by_power: dict[str, list[StoredResult]] = {}
    for r in record.results or ():
        by_power.setdefault(r.power, []).append(r)
    if not by_power:
        return "<p>No orders were given.</p>" if record.adjudicated else \
            "<p>The phase is open: its orders are not shown before it is processed.</p>"
    cols = []
    for power in played.variant.power_names:
        rows = by_power.get(power)
        if rows:
            colour = power_colour(played.variant, power)
            cols.append(f'<div><h3><span style="color:{colour}">&#9632;</span> '
                        f'{escape(power)}</h3><ul class="orders">'
                        + "".join(_result_line(r) for r in rows) + "</ul></div>")
    return f'<div class="cols">{"".join(cols)}</div>'


def _press_html(shown: Sequence[ShownPress]) -> str:
    out = []
    for s in shown:
        sender = "Grey press" if s.sender is None else (
            "The GM" if s.sender == "GM" else escape(s.sender))
        to = "everyone" if not s.to else ", ".join(escape(t) for t in s.to)
        grey = " (grey)" if s.grey and s.sender is not None else ""
        out.append(f'<div class="press"><b>{sender}{grey}</b> to {to}, '
                   f'{s.sent_at:%Y-%m-%d %H:%M} UTC<pre>{escape(s.body)}</pre></div>')
    return "".join(out)


def _year_counts(played: PlayedGame) -> list[tuple[str, dict[str, int]]]:
    """The centres of each power at the start of each year (and at the end)."""
    out: list[tuple[str, dict[str, int]]] = []
    seen: set[int] = set()
    for record in played.phases:
        year = record.phase.year
        if year not in seen:
            seen.add(year)
            out.append((str(year), _counts(played, record.state)))
    if played.final is not None:
        out.append(("end", _counts(played, played.final)))
    return out


def _counts(played: PlayedGame, state: GameState) -> dict[str, int]:
    return {p: len(state.centres_of(p)) for p in played.variant.power_names}


def centre_chart(played: PlayedGame) -> str:
    """The supply centres by year: a line per power (SVG), and the numbers as a table."""
    years = _year_counts(played)
    powers = played.variant.power_names
    top = max([1, *(n for _, c in years for n in c.values())])
    width, height, left, bottom = 640, 260, 34, 22
    step = (width - left - 24) / max(1, len(years) - 1)

    def xy(i: int, n: int) -> str:
        y = 8 + (height - bottom - 8) * (1 - n / top)
        return f"{left + i * step:.1f},{y:.1f}"

    lines = []
    for power in powers:
        colour = power_colour(played.variant, power)
        points = " ".join(xy(i, c[power]) for i, (_, c) in enumerate(years))
        lines.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="2.5"><title>{escape(power)}</title></polyline>')
    ticks = "".join(
        f'<text x="{left + i * step:.1f}" y="{height - 6}" font-size="11" '
        f'text-anchor="middle">{escape(y)}</text>' for i, (y, _) in enumerate(years)
        if len(years) <= 16 or i % 2 == 0 or i == len(years) - 1)
    grid = "".join(
        f'<line x1="{left}" x2="{width - 10}" y1="{8 + (height - bottom - 8) * (1 - n / top):.1f}"'
        f' y2="{8 + (height - bottom - 8) * (1 - n / top):.1f}" stroke="#ddd"/>'
        f'<text x="{left - 4}" y="{12 + (height - bottom - 8) * (1 - n / top):.1f}" '
        f'font-size="11" text-anchor="end">{n}</text>'
        for n in sorted({0, top // 2, top}))
    chart = (f'<svg class="chart" viewBox="0 0 {width} {height}" style="width:100%;'
             f'max-width:{width}px;height:auto" role="img" aria-label="supply centres by year">'
             f'{grid}{"".join(lines)}{ticks}</svg>')
    head = "".join(f"<th>{escape(y)}</th>" for y, _ in years)
    rows = "".join(
        f'<tr><th style="text-align:left"><span style="color:'
        f'{power_colour(played.variant, p)}">&#9632;</span> {escape(p)}</th>'
        + "".join(f"<td>{c[p]}</td>" for _, c in years) + "</tr>" for p in powers)
    return (f"{chart}<div style=\"overflow-x:auto\"><table class=\"counts\"><tr><th></th>"
            f"{head}</tr>{rows}</table></div>")


def _outcome(played: PlayedGame) -> str:
    ending = played.ending
    if ending is not None:
        how, powers = ending
        if how == "draw":
            return f"Ended in a draw of {escape(', '.join(powers))}."
        if how == "concede":
            return f"Conceded to {escape(powers[0])}."
        return "Ended by the GM (TERMINATE)."
    if played.final is not None:
        if played.final.winners:
            return f"Won by {escape(' and '.join(played.final.winners))}."
        return "The game is over."
    return "The game is under way."


class HistoryPictures:
    """The pictures of a history file, the same for every reader: made once for all the
    copies of one game's file."""

    def __init__(self, played: PlayedGame) -> None:
        self.played = played
        self.board = SharedBoard(played)
        self._defs: str | None = None
        self._made: dict[int, str] = {}

    def defs(self) -> str:
        if self._defs is None:
            self._defs = self.board.defs()
        return self._defs

    def phase(self, record: PhaseRecord) -> str:
        if record.id not in self._made:
            played, variant = self.played, self.played.variant
            name = played.name_of(record)
            results = results_from_stored(variant, record.state, record.results or ()) \
                if record.adjudicated else ()
            svg = render_map_svg(variant, record.state, f"{played.game.name}: {name}",
                                 results=results)
            self._made[record.id] = self.board.picture(
                svg, f"the board of {name}" + (" with its orders" if results else ""))
        return self._made[record.id]

    def final(self) -> str:
        if -1 not in self._made:
            assert self.played.final is not None
            svg = render_map_svg(self.played.variant, self.played.final,
                                 f"{self.played.game.name}: the end")
            self._made[-1] = self.board.picture(svg, "the final position")
        return self._made[-1]


def history_html(played: PlayedGame, reader: Reader,
                 pictures: HistoryPictures | None = None) -> str:
    """The history file as `reader` may see it (`pictures`: those made for another copy)."""
    game, variant = played.game, played.variant
    pictures = pictures or HistoryPictures(played)
    shown = [s for p in played.press if (s := visible_press(p, reader)) is not None]
    first_id = played.phases[0].id if played.phases else None
    by_phase: dict[int | None, list[ShownPress]] = {}
    for s in shown:
        by_phase.setdefault(s.phase_id if s.phase_id is not None else first_id, []).append(s)
    sections = []
    toc = []
    for record in played.phases:
        name = played.name_of(record)
        anchor = _anchor(name)
        toc.append(f'<a href="#{anchor}">{escape(variant.calendar.short(record.phase))}</a>')
        picture = pictures.phase(record)
        press = by_phase.get(record.id, [])
        deadline = (f" Deadline {record.deadline_at:%Y-%m-%d %H:%M} UTC."
                    if record.deadline_at else "")
        events = "".join(f"<li>{escape(e)}</li>" for e in record.events or ())
        missed = played.missed.get(record.id, ())
        sections.append(
            f'<section id="{anchor}"><a class="top" href="#top">top</a><h2>{escape(name)}</h2>'
            f"{picture}{_results(played, record)}"
            + (f"<h3>What happened</h3><ul>{events}</ul>" if events else "")
            + (f"<p>No orders from {escape(', '.join(missed))}.</p>" if missed else "")
            + (f"<h3>Press</h3>{_press_html(press)}" if press else "")
            + f'<p style="font-size:.85em;color:#555">Opened {record.opened_at:%Y-%m-%d %H:%M}'
            f" UTC.{deadline}</p></section>")
    if played.final is not None:
        sections.append(f'<section id="the-end"><h2>The end</h2>{pictures.final()}'
                        f"<p>{_outcome(played)}</p></section>")
        toc.append('<a href="#the-end">end</a>')
    key = "".join(f'<span style="white-space:nowrap"><span class="sw" style="background:'
                  f'{power_colour(variant, p)}"></span>{escape(p)}</span> '
                  for p in variant.power_names)
    players = played.players_shown if reader.audience == "gm" or (
        reader.audience == "player" and not game.settings.quiet) else played.players_numbered
    seats = "".join(f"<li><b>{escape(p)}</b>: {escape('; '.join(lines))}</li>"
                    for p, lines in players.items())
    return "".join([
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(game.name)} ({escape(variant.title)}): the whole game</title>",
        f"<style>{_STYLE}</style></head><body><main id=\"top\">",
        pictures.defs(),
        f"<header><h1>{escape(game.name)}</h1><p>{escape(variant.title)}, "
        f"{len(played.phases)} phases. {_outcome(played)}</p>"
        f'<p class="key">{key}</p><p style="font-size:.85em">On the boards: an arrow is a '
        "move (red, dashed and crossed: it failed), a dashed line a support or convoy to the "
        "move it helps, a ring a hold; grey orders were void.</p>"
        f"<h3>Who played</h3><ul>{seats}</ul></header>",
        f'<nav><b>Phases:</b> {" ".join(toc)}</nav>',
        f"<section><h2>Supply centres</h2>{centre_chart(played)}</section>",
        *sections,
        "</main></body></html>\n",
    ])
