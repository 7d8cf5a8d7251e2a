"""HISTORY <game> [<phase>], HISTORY <game> [FROM] <phase> TO <phase>, HISTORY <game> FROM
<phase>, HISTORY <game> LAST <n>: the results of a game's past phases, to catch up. njudge's
forms (njudge `data/history`) too: HISTORY alone after a sign-on (the signed-on game), HISTORY
[<game>] FROM <date> [TO <date>] [LINES <n>] (the phases open during that time), and HISTORY
[<game>] EXCLSTART <phase> [EXCLEND <phase>] [BROAD] (every phase but those).

Each phase shows its results and events and, to the game's players and GM (by their address or
sign-on), the broadcast press sent during it: by power only (never an address), grey press
without its sender except to the GM. A reply holds at most MAX_CHARS characters of phases; a
longer one is cut after a whole phase and says how to ask for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from lark import Token

from gm.commands.dates import DateProblem, DateWords, looking_back, read_date
from gm.commands.handlers.common import matches_phase, phase_text
from gm.commands.handlers.meant_game import meant_game, no_game_meant
from gm.commands.handlers.records import add_rendered, played_phases, standing
from gm.commands.reading import Draft, Invalid, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.play.render import render
from gm.store import press as press_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord, PhaseRecord, PressRecord, StoredResult
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

    game: str | None  # None: the signed-on game (njudge's HISTORY after a SIGNON)
    phase: PhaseRef | None = None  # the one phase, or the first of a range
    to: PhaseRef | None = None  # the last phase of a range
    onward: bool = False  # from `phase` to the latest
    last: int | None = None  # the last so many phases
    # njudge's forms: the phases open from `since` to `until` (None: from the start, to now),
    # at most `lines` lines; every phase but those from `exclude` to `exclude_to`
    dates: bool = False
    since: DateWords | None = None
    until: DateWords | None = None
    lines: int | None = None
    exclude: PhaseRef | None = None
    exclude_to: PhaseRef | None = None


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


def read_history_here(c: list[Any]) -> Draft:
    return Draft(lambda line: History(line, None))


def _game_and_rest(c: list[Any]) -> tuple[str | None, list[Any]]:
    """The game named first (a WORD), if any, and the other children."""
    if c and isinstance(c[0], Token) and c[0].type == "WORD":
        return game_name(c[0]), c[1:]
    return None, list(c)


def _lines_of(rest: list[Any]) -> int | None:
    found = [x for x in rest if isinstance(x, _Lines)]
    return found[0].count if found else None


@dataclass(frozen=True)
class _Lines:
    count: int


def read_history_lines(c: list[Token]) -> _Lines:
    count = int(str(c[0]))
    if count < 1:
        raise Invalid("LINES takes a number of lines from 1 up: HISTORY mygame LINES 500")
    return _Lines(count)


def _dates(rest: list[Any]) -> list[DateWords]:
    try:
        return [read_date(str(t).split()) for t in rest if isinstance(t, Token)]
    except DateProblem as problem:
        raise Invalid(str(problem)) from None


def read_history_dates(c: list[Any]) -> Draft:
    game, rest = _game_and_rest(c)
    dates, count = _dates(rest), _lines_of(rest)
    until = dates[1] if len(dates) > 1 else None
    return Draft(lambda line: History(line, game, dates=True, since=dates[0], until=until,
                                      lines=count))


def read_history_dates_to(c: list[Any]) -> Draft:
    game, rest = _game_and_rest(c)
    dates, count = _dates(rest), _lines_of(rest)
    return Draft(lambda line: History(line, game, dates=True, until=dates[0], lines=count))


def read_history_dates_lines(c: list[Any]) -> Draft:
    game, rest = _game_and_rest(c)
    count = _lines_of(rest)
    return Draft(lambda line: History(line, game, dates=True, lines=count))


def read_history_excl(c: list[Any]) -> Draft:
    game, rest = _game_and_rest(c)
    phases: list[PhaseRef] = [x for x in rest if not isinstance(x, Token)]
    end = phases[1] if len(phases) > 1 else None
    return Draft(lambda line: History(line, game, exclude=phases[0], exclude_to=end))


def read_history_from_here(c: list[Any]) -> Draft:
    """`HISTORY FROM S1902M [TO F1903M]` after a sign-on: the signed-on game's."""
    first, last = c[0], (c[1] if len(c) > 1 else None)
    return Draft(lambda line: History(line, None, first, to=last, onward=last is None))


def read_history_last_here(c: list[Any]) -> Draft:
    count = int(str(c[0]))
    return Draft(lambda line: History(line, None, last=count))


def read_history_last(c: list[Any]) -> Draft:
    game = game_name(c[0])
    count = int(str(c[1]))
    return Draft(lambda line: History(line, game, last=count))


def handle(ctx: Context, command: History) -> None:
    name = command.game or meant_game(ctx)
    if name is None:
        no_game_meant(ctx, "HISTORY", "HISTORY mygame")
        return
    found = played_phases(ctx, "HISTORY", name, "history")
    if found is None:
        return
    game, variant, records = found
    chosen = _chosen(ctx, command, game, variant, records)
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
    size = lines = 0
    for view in views:
        text = render("reply/history.txt.j2", game=game.name, title=variant.title,
                      phases=[view], cut=None, withheld=False)
        size += len(text) - head
        lines += text.count("\n") - 2
        if kept and (size > MAX_CHARS or (command.lines is not None and lines > command.lines)):
            break
        kept.append(view)
    cut = None
    if len(kept) < len(views):
        rest = views[len(kept)].name
        why = (f"{MAX_CHARS} characters" if size > MAX_CHARS
               else f"the {command.lines} lines asked for (LINES)")
        cut = (f"(Cut here: a reply holds at most {why} of history. "
               f"HISTORY {game.name} FROM {rest} gives the rest.)")
    add_rendered(ctx, render("reply/history.txt.j2", game=game.name, title=variant.title,
                              phases=kept, cut=cut, withheld=withheld))


def _chosen(ctx: Context, command: History, game: GameRecord, variant: Variant,
            records: list[PhaseRecord]) -> list[PhaseRecord] | None:
    """The phases `command` asks for; None after saying why there are none."""
    name = game.name
    if command.dates:
        return _between(ctx, command, name, game.settings.timezone, records)
    if command.exclude is not None:
        return _excluding(ctx, command, variant, records)
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


def _between(ctx: Context, command: History, name: str, zone_name: str,
             records: list[PhaseRecord]) -> list[PhaseRecord] | None:
    """The phases open at some time from `since` to `until` in the game's time zone (njudge:
    the messages of that time; here from the start and to now where not given)."""
    try:
        since = None if command.since is None else looking_back(command.since, ctx.now,
                                                                 zone_name)
        until = None if command.until is None else looking_back(command.until, ctx.now,
                                                                 zone_name)
    except DateProblem as problem:
        ctx.results.add(f"HISTORY: {problem}")
        return None
    if since is not None and until is not None and until < since:
        ctx.results.add(f"HISTORY: {command.line.text!r} ends before it begins; give the "
                        f"earlier date after FROM: HISTORY {name} FROM Jan 1, 2026 TO "
                        "Feb 1, 2026")
        return None
    chosen = [r for r in records if _open_between(r, since, until, ctx.now)]
    if not chosen:
        ctx.results.add(f"HISTORY: no phase of {name} was open in that time "
                        f"({command.line.text}); HISTORY {name} alone lists every phase.")
        return None
    return chosen


def _open_between(record: PhaseRecord, since: datetime | None, until: datetime | None,
                  now: datetime) -> bool:
    closed = record.adjudicated_at or now
    return (since is None or closed >= since) and (until is None or record.opened_at <= until)


def _excluding(ctx: Context, command: History, variant: Variant,
               records: list[PhaseRecord]) -> list[PhaseRecord]:
    """Every phase but those from `exclude` to `exclude_to` (to the latest without it); a
    phase before the first counts as the first, after the last as past the end (njudge: no
    phase is checked; an EXCLSTART past the end gives the whole history)."""
    assert command.exclude is not None
    start = _position(variant, records, command.exclude, before=0)
    if command.exclude_to is None:
        return records[:start]
    end = _position(variant, records, command.exclude_to, before=-1)
    return records[:start] + records[end + 1:]


def _position(variant: Variant, records: list[PhaseRecord], ref: PhaseRef, *,
              before: int) -> int:
    """Where `ref` is among `records`: its index; `before` for a phase of a year before the
    first; past the end otherwise."""
    at = next((i for i, r in enumerate(records) if matches_phase(variant, r, ref)), None)
    if at is not None:
        return at
    return before if ref.year < records[0].phase.year else len(records)


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
           "history_from": read_history_from, "history_last": read_history_last,
           "history_here": read_history_here, "history_dates": read_history_dates,
           "history_dates_to": read_history_dates_to,
           "history_dates_lines": read_history_dates_lines, "history_excl": read_history_excl,
           "history_lines": read_history_lines, "history_from_here": read_history_from_here,
           "history_last_here": read_history_last_here},
    handle=handle,
    usage={
        "HISTORY": (
            "HISTORY needs a game and may name a phase or phases: HISTORY mygame, HISTORY mygame"
            " S1901M, HISTORY mygame Spring 1901, Movement, HISTORY mygame S1901M TO F1902M,"
            " HISTORY mygame FROM S1902M or HISTORY mygame LAST 4 (1 to 99 phases); or dates,"
            " as on njudge: HISTORY mygame FROM Jan 1, 2026 TO Feb 1, 2026 18:00 LINES 500;"
            " or the whole game as a file: HISTORY mygame FILE, HISTORY mygame HTML or"
            " HISTORY mygame ANIMATION"
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
    HISTORY <game> FROM <date> [TO <date>] [LINES <n>]
                               njudge's form: the phases open in that time (in
                               the game's time zone; Jan 1, 2026 18:00, 1 Jan
                               2026, 2026-01-01, Mon), at most n lines, cut
                               after a whole phase; without FROM, from the
                               start (njudge: a week ago), for example:
                               HISTORY mygame FROM Jan 1, 2026 TO Feb 1, 2026
    HISTORY <game> EXCLSTART <phase> [EXCLEND <phase>]
                               njudge's form: every phase but those from one
                               (to another, or to the latest)
    HISTORY                    after a SIGNON (or OBSERVE <game>) line: the game
                               signed on to; so too HISTORY FROM <date>, HISTORY
                               FROM <phase> [TO <phase>] and HISTORY LAST <n>
                               The game's players and GM also see the
                               broadcast press of each phase.
"""),
    ),
)
