"""HISTORY <game> [<phase>], HISTORY <game> [FROM] <phase> TO <phase>, HISTORY <game> FROM
<phase>, HISTORY <game> LAST <n>: the results of a game's past phases, to catch up.

Each phase shows its results and events and, to the game's players and GM (by their address or
sign-on), the broadcast press sent during it: by power only (never an address), grey press
without its sender except to the GM. A reply holds at most MAX_CHARS characters of phases; a
longer one is cut after a whole phase and says how to ask for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.common import matches_phase, phase_text
from gm.commands.handlers.records import add_rendered, played_phases, standing
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play.render import render
from gm.store import press as press_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import PhaseRecord, PressRecord, StoredResult
    from gm.variants import Variant

MAX_CHARS = 30000  # of a reply's phases (a whole game of press may be far more)


@dataclass(frozen=True)
class _PressView:
    heading: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class _PhaseView:
    name: str
    open: bool
    results_by_power: list[tuple[str, list[StoredResult]]]
    events: tuple[str, ...]
    press: tuple[_PressView, ...] = ()


@dataclass(frozen=True)
class History(Command):
    """`HISTORY mygame`, `HISTORY mygame S1901M` (one phase), `HISTORY mygame S1901M TO
    F1902M` (`to`), `HISTORY mygame FROM S1902M` (`onward`), `HISTORY mygame LAST 4`."""

    game: str
    phase: PhaseRef | None = None  # the one phase, or the first of a range
    to: PhaseRef | None = None  # the last phase of a range
    onward: bool = False  # from `phase` to the latest
    last: int | None = None  # the last so many phases


def read_history(c: list[Any]) -> Draft:
    game = game_name(c[0])
    phase: PhaseRef | None = c[1] if len(c) > 1 else None
    return Draft(lambda line: History(line, game, phase))


def read_history_range(c: list[Any]) -> Draft:
    game = game_name(c[0])
    first, last = c[1], c[2]
    return Draft(lambda line: History(line, game, first, to=last))


def read_history_from(c: list[Any]) -> Draft:
    game = game_name(c[0])
    first = c[1]
    return Draft(lambda line: History(line, game, first, onward=True))


def read_history_last(c: list[Any]) -> Draft:
    game = game_name(c[0])
    count = int(str(c[1]))
    return Draft(lambda line: History(line, game, last=count))


def handle(ctx: Context, command: History) -> None:
    found = played_phases(ctx, "HISTORY", command.game, "history")
    if found is None:
        return
    game, variant, records = found
    chosen = _chosen(ctx, command, game.name, variant, records)
    if chosen is None:
        return
    who = standing(ctx, game)
    press: dict[int | None, list[PressRecord]] = {}
    for sent in press_repo.list_press(ctx.session, game.id):
        if sent.broadcast:
            press.setdefault(sent.phase_id, []).append(sent)
    withheld = who is None and any(r.id in press for r in chosen)
    if who is None:
        press = {}
    views = [_view(variant, r, press.get(r.id, ()), gm=who == "gm") for r in chosen]
    head = len(render("reply/history.txt.j2", game=game.name, title=variant.title, phases=[],
                      cut=None, withheld=False))
    kept: list[_PhaseView] = []
    size = 0
    for view in views:
        size += len(render("reply/history.txt.j2", game=game.name, title=variant.title,
                           phases=[view], cut=None, withheld=False)) - head
        if kept and size > MAX_CHARS:
            break
        kept.append(view)
    cut = None
    if len(kept) < len(views):
        rest = views[len(kept)].name
        cut = (f"(Cut here: a reply holds at most {MAX_CHARS} characters of history. "
               f"HISTORY {game.name} FROM {rest} gives the rest.)")
    add_rendered(ctx, render("reply/history.txt.j2", game=game.name, title=variant.title,
                              phases=kept, cut=cut, withheld=withheld))


def _chosen(ctx: Context, command: History, name: str, variant: Variant,
            records: list[PhaseRecord]) -> list[PhaseRecord] | None:
    """The phases `command` asks for; None after saying why there are none."""
    if command.last is not None:
        if command.last < 1:
            ctx.results.add(f"HISTORY: {command.line.text!r} asks for no phases; LAST takes a "
                            f"count from 1 to 99: HISTORY {name} LAST 4")
            return None
        return records[-command.last:]
    if command.phase is None:
        return records
    ends = [command.phase] + ([command.to] if command.to is not None else [])
    found: list[int] = []
    for ref in ends:
        at = next((i for i, r in enumerate(records) if matches_phase(variant, r, ref)), None)
        if at is None:
            ctx.results.add(f"HISTORY: {name} has no phase "
                            f"{phase_text(variant, ref)!r} (HISTORY {name} alone "
                            "lists every phase).")
            return None
        found.append(at)
    if command.to is None:
        return records[found[0]:] if command.onward else [records[found[0]]]
    first, last = min(found), max(found)
    return records[first:last + 1]


def _view(variant: Variant, record: PhaseRecord, press: Any, *, gm: bool) -> _PhaseView:
    by_power: dict[str, list[StoredResult]] = {}
    for result in record.results or ():
        by_power.setdefault(result.power, []).append(result)
    return _PhaseView(variant.format_phase(record.phase), not record.adjudicated,
                      sorted(by_power.items()), record.events or (),
                      tuple(_press_view(p, gm=gm) for p in press))


def _press_view(press: PressRecord, *, gm: bool) -> _PressView:
    """A broadcast as HISTORY shows it: by power, grey press unsigned but to the GM."""
    if press.from_power is None:
        heading = "Broadcast from the GM:"
    elif press.anonymous:
        heading = "Grey broadcast" + (f", sent by {press.from_power}:" if gm else ":")
    else:
        heading = f"Broadcast from {press.from_power}:"
    return _PressView(heading, tuple(press.body.splitlines()))


COMMAND = CommandSpec(
    value=History,
    keywords=("HISTORY",),
    rules={"history": read_history, "history_range": read_history_range,
           "history_from": read_history_from, "history_last": read_history_last},
    handle=handle,
    usage={
        "HISTORY": (
            "HISTORY needs a game and may name a phase or phases: HISTORY mygame, HISTORY mygame"
            " S1901M, HISTORY mygame Spring 1901, Movement, HISTORY mygame S1901M TO F1902M,"
            " HISTORY mygame FROM S1902M or HISTORY mygame LAST 4 (1 to 99 phases)"
        ),
    },
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 30, """\
    HISTORY <game>             the results of a game's past phases
    HISTORY <game> <phase>     one phase, for example:
                               HISTORY mygame S1901M
                               HISTORY mygame Spring 1901, Movement
    HISTORY <game> <phase> TO <phase>
                               the phases from one to another, for example:
                               HISTORY mygame S1901M TO F1902M
    HISTORY <game> FROM <phase>
                               the phases from one to the latest
    HISTORY <game> LAST <n>    the last n phases (1 to 99)
                               The game's players and GM also see the
                               broadcast press of each phase.
"""),
    ),
)
