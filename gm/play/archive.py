"""The static web archive: every game as plain files any web server (or a browser, from the
folder) shows, written under the configured `[web] archive_dir` after each processed phase
and by `gm archive GAME DIR`.

    DIR/index.html                      the games: variant, state, latest phase
    DIR/<game>/index.html               the game: outcome, centres by year, its phases,
                                        who played (numbered), its files
    DIR/<game>/<phase>.html, .svg       a phase: its board with the orders drawn, the
                                        results, what happened, the public press
    DIR/<game>/<game>-record.json       the record (gm.play.mila), the public copy
    DIR/<game>/<game>-history.html      the one-file history (gm.play.history_html)

Nothing secret is written (public pages feed spammers): no address of any player or GM
(players are "player 1", "player 2"), no press but white press sent to everyone (no partial
or grey press), and no orders of a phase not yet processed (the open phase shows its board
only). A game's files are written again when its stamp (status, phases, last processing)
changes; a file is rewritten only when its content changed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from sqlalchemy.orm import Session

from gm.pictures.render import results_from_stored
from gm.pictures.svg import power_colour, render_map_svg
from gm.play.history_html import centre_chart, history_filename, history_html
from gm.play.mila import Reader, ShownPress, record_bytes, record_filename, visible_press
from gm.play.played_game import PlayedGame, played_game
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.rows import GameRecord, PhaseRecord, StoredResult
from gm.store.statuses import GameStatus

PUBLIC = Reader("public")
STAMP = ".stamp"
LISTED = ".listed"  # the variant's title and the game's state line, for the index

_STYLE = """<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;
color:#1b1b1b;background:#f4f4f1}main{max-width:1180px;margin:0 auto;padding:8px}
section{background:#fff;border:1px solid #d6d6d0;border-radius:6px;padding:10px 12px;
margin:0 0 12px}h1{font-size:1.4em;margin:4px 0}h2{font-size:1.15em;margin:0 0 6px}
img.board{width:100%;height:auto;display:block}table{border-collapse:collapse}
td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}
.ok{color:#1b5e20}.fail{color:#b00020}.void{color:#6d6d6d}ul.orders{list-style:none;padding:0}
.press{border-left:4px solid #9bb7d4;padding:2px 8px;margin:6px 0;background:#f7f9fc}
.press pre{white-space:pre-wrap;font:inherit;margin:2px 0 0}</style>"""


def slug(text: str) -> str:
    """A file or folder name of `text`: letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "game"


def _write(path: Path, data: bytes) -> bool:
    """Write `data` to `path` unless it holds that already (atomically: a reader never sees
    half a file); whether it was written."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.part")
    part.write_bytes(data)
    os.replace(part, path)
    return True


def _page(title: str, body: str, *, up: str | None = None) -> bytes:
    back = f'<p><a href="{up}">&larr; back</a></p>' if up else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>'
            f"{escape(title)}</title>{_STYLE}</head><body><main>{back}{body}</main></body>"
            "</html>\n").encode()


def stamp_of(game: GameRecord, current: PhaseRecord) -> str:
    """What changes when a game's archive must be written again: its state, its last phase
    (a new one opened, or processed at the end, or another after a ROLLBACK) and any change
    to the game."""
    done = current.adjudicated_at.isoformat() if current.adjudicated_at else "-"
    return (f"{game.status.value} {current.id} {current.index} {done} "
            f"{game.updated_at.isoformat()}")


# -- one game ---------------------------------------------------------------------------------
def _results(played: PlayedGame, record: PhaseRecord) -> str:
    if not record.adjudicated:
        return ("<p>This phase is open: its orders are shown once it has been processed.</p>")
    by_power: dict[str, list[StoredResult]] = {}
    for r in record.results or ():
        by_power.setdefault(r.power, []).append(r)
    rows = []
    for power in played.variant.power_names:
        for r in by_power.get(power, ()):
            css = {"succeeds": "ok", "fails": "fail", "illegal": "void"}[r.outcome.value]
            word = "void" if r.outcome.value == "illegal" else r.outcome.value
            reason = f": {escape(r.reason)}" if r.reason else ""
            rows.append(f"<tr><td>{escape(power)}</td><td>{escape(r.canonical or r.text)}</td>"
                        f'<td class="{css}">{word}{reason}</td></tr>')
    if not rows:
        return "<p>No orders.</p>"
    return f"<table><tr><th>power</th><th>order</th><th>result</th></tr>{''.join(rows)}</table>"


def _press(shown: Sequence[ShownPress]) -> str:
    return "".join(
        f'<div class="press"><b>{"The GM" if s.sender == "GM" else escape(s.sender or "")}'
        f"</b> to everyone, {s.sent_at:%Y-%m-%d %H:%M} UTC<pre>{escape(s.body)}</pre></div>"
        for s in shown)


def phase_files(played: PlayedGame) -> dict[str, bytes]:
    """Each phase's page and board, by file name."""
    variant, name = played.variant, played.game.name
    shown = [s for p in played.press if (s := visible_press(p, PUBLIC)) is not None]
    first_id = played.phases[0].id if played.phases else None
    files: dict[str, bytes] = {}
    names = [slug(variant.calendar.short(r.phase)) for r in played.phases]
    for i, record in enumerate(played.phases):
        long_name = played.name_of(record)
        results = results_from_stored(variant, record.state, record.results or ()) \
            if record.adjudicated else ()
        files[f"{names[i]}.svg"] = render_map_svg(
            variant, record.state, f"{name}: {long_name}", results=results).encode("utf-8")
        press = [s for s in shown if (s.phase_id if s.phase_id is not None else first_id)
                 == record.id]
        steps = " ".join(
            ([f'<a href="{names[i - 1]}.html">&larr; {escape(names[i - 1].upper())}</a>']
             if i else []) +
            ([f'<a href="{names[i + 1]}.html">{escape(names[i + 1].upper())} &rarr;</a>']
             if i + 1 < len(names) else []))
        events = "".join(f"<li>{escape(e)}</li>" for e in record.events or ())
        body = (f"<h1>{escape(name)}: {escape(long_name)}</h1><p>{steps}</p>"
                f'<section><img class="board" src="{names[i]}.svg" alt="the board of '
                f'{escape(long_name)}"></section><section><h2>Orders and results</h2>'
                f"{_results(played, record)}</section>"
                + (f"<section><h2>What happened</h2><ul>{events}</ul></section>" if events
                   else "")
                + (f"<section><h2>Press</h2>{_press(press)}</section>" if press else ""))
        files[f"{names[i]}.html"] = _page(f"{name}: {long_name}", body, up="index.html")
    return files


def game_files(played: PlayedGame) -> dict[str, bytes]:
    """Every file of a game's folder, by name."""
    game, variant = played.game, played.variant
    files = phase_files(played)
    record_name = record_filename(game.name)
    history_name = history_filename(game.name)
    files[record_name] = record_bytes(played, PUBLIC)
    files[history_name] = history_html(played, PUBLIC).encode("utf-8")
    links = " ".join(
        f'<a href="{slug(variant.calendar.short(r.phase))}.html">'
        f"{escape(variant.calendar.short(r.phase))}</a>" for r in played.phases)
    players = "".join(f"<li><b>{escape(p)}</b>: {escape('; '.join(lines))}</li>"
                      for p, lines in played.players_numbered.items())
    outcome = _state_line(played)
    key = " ".join(f'<span style="color:{power_colour(variant, p)}">&#9632;</span> '
                   f"{escape(p)}" for p in variant.power_names)
    body = (f"<h1>{escape(game.name)}</h1><section><p>{escape(variant.title)}. "
            f"{escape(outcome)}</p><p>{key}</p>"
            f'<p>The whole game: <a href="{history_name}">{escape(history_name)}</a> (one file, '
            f'every phase) and <a href="{record_name}">{escape(record_name)}</a> (the record, '
            "MILA saved-game JSON).</p></section>"
            f"<section><h2>Phases</h2><p>{links}</p></section>"
            f"<section><h2>Supply centres</h2>{centre_chart(played)}</section>"
            f"<section><h2>Who played</h2><ul>{players}</ul></section>")
    files["index.html"] = _page(f"{game.name} ({variant.title})", body, up="../index.html")
    return files


def _state_line(played: PlayedGame) -> str:
    if played.ending is not None:
        how, powers = played.ending
        return {"draw": f"Ended in a draw of {', '.join(powers)}.",
                "concede": f"Conceded to {powers[0] if powers else '?'}.",
                "terminate": "Ended by the GM."}[how]
    if played.final is not None:
        winners = " and ".join(played.final.winners)
        return f"Won by {winners}." if winners else "The game is over."
    if not played.phases:
        return "Not started."
    return f"Now: {played.name_of(played.phases[-1])} ({played.game.status.value})."


@dataclass(frozen=True)
class Listed:
    """A game as the archive's index lists it."""

    folder: str
    name: str
    variant: str
    state: str


def write_game(folder: Path, played: PlayedGame, stamp: str = "") -> int:
    """Write the game's folder; the number of files written (unchanged ones are not)."""
    written = sum(_write(folder / name, data) for name, data in game_files(played).items())
    keep = game_files_names(played)
    for old in folder.iterdir():  # phases undone by a ROLLBACK
        if old.is_file() and old.name not in keep and not old.name.startswith("."):
            old.unlink()
    _write(folder / LISTED, f"{played.variant.title}\n{_state_line(played)}".encode())
    if stamp:
        _write(folder / STAMP, stamp.encode("utf-8"))
    return written


def game_files_names(played: PlayedGame) -> set[str]:
    names = {"index.html", record_filename(played.game.name),
             history_filename(played.game.name)}
    for r in played.phases:
        short = slug(played.variant.calendar.short(r.phase))
        names |= {f"{short}.html", f"{short}.svg"}
    return names


def write_index(root: Path, games: Sequence[Listed]) -> bool:
    rows = "".join(f'<tr><td><a href="{g.folder}/index.html">{escape(g.name)}</a></td>'
                   f"<td>{escape(g.variant)}</td><td>{escape(g.state)}</td></tr>"
                   for g in games)
    body = ("<h1>Games</h1><section><table><tr><th>game</th><th>variant</th><th>state</th>"
            f"</tr>{rows}</table></section>")
    return _write(root / "index.html", _page("Games", body))


# -- every game -------------------------------------------------------------------------------
def update_archive(session: Session, root: Path, *, only: str | None = None,
                   force: bool = False) -> list[str]:
    """Write the archive under `root`: each started game whose stamp changed (`force`: every
    one; `only`: that game alone, by name), and the index. The games written."""
    written: list[str] = []
    listed: list[Listed] = []
    games = [g for g in games_repo.list_games(session) if g.status is not GameStatus.FORMING]
    current = phases_repo.current_phases(session, [g.id for g in games])
    for game in games:
        last = current.get(game.id)
        if last is None:
            continue
        folder = slug(game.name)
        stamp = stamp_of(game, last)
        path = root / folder
        old = (path / STAMP).read_text(encoding="utf-8") if (path / STAMP).is_file() else ""
        chosen = only is None or game.name.lower() == only.lower()
        if chosen and (force or old != stamp):
            played = played_game(session, game.id)
            write_game(path, played, stamp)
            written.append(game.name)
            listed.append(Listed(folder, game.name, played.variant.title, _state_line(played)))
        elif (path / LISTED).is_file():
            title, _, state = (path / LISTED).read_text(encoding="utf-8").partition("\n")
            listed.append(Listed(folder, game.name, title, state))
    write_index(root, sorted(listed, key=lambda g: g.name.lower()))
    return written
