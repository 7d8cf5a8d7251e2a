"""Phase reports: what happened in a phase, for every power, the GM and observers.

`phase_reports` gathers what the report says (every order of every power with its outcome and
reason, dislodged units and where they may retreat, centre owners and counts with builds or
removals due, the map's events in words, eliminations and victory, the next phase and its
deadline in the game's timezone and UTC, late powers, the press of the phase) into plain
values, and the templates in templates/report/ (named by audience: player, gm, observer; text
and HTML) turn them into mail. The map pictures (gm.pictures: the orders on the board, and the
position after the phase) go with every report as PNG, shown inside the HTML part, and as SVG
attachments for zooming; they are made once per game and phase.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from markupsafe import Markup

from gm.engine.army_fleet import unit_count
from gm.engine.game import GameStep, Needed, alive_powers, orders_needed
from gm.engine.phase import PhaseType
from gm.engine.results import OrderResult
from gm.engine.retreats import retreat_options
from gm.engine.rulebook import rulebook_of
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.mail.compose import build_subject, inline_content_id
from gm.pictures.files import undrawn_png
from gm.pictures.render import picture_pair
from gm.pictures.svg import render_map_svg
from gm.play.coming import ComingEvent, coming_events
from gm.play.deadlines import show
from gm.play.picture_choice import Mode
from gm.play.render import render
from gm.store.outgoing import Outgoing
from gm.store.press import GM_COPY, OBSERVERS
from gm.store.rows import Attachment, GameRecord, PressRecord, StoredResult

AUDIENCES = ("player", "gm", "observer")


@dataclass(frozen=True)
class ResultRow:
    order: str
    outcome: str
    reason: str


@dataclass(frozen=True)
class PlayedPhase:
    """One phase the step passed through: its orders' results (if played) and its events."""

    name: str
    played: bool
    by_power: tuple[tuple[str, tuple[ResultRow, ...]], ...]
    events: tuple[str, ...]


@dataclass(frozen=True)
class DislodgedRow:
    power: str
    unit: str
    attacker_from: str | None
    options: tuple[str, ...]


@dataclass(frozen=True)
class CentreRow:
    power: str
    count: int
    centres: tuple[str, ...]
    units: int
    builds: int = 0
    removals: int = 0
    build_sites: tuple[str, ...] = ()
    dislodged: int = 0  # units waiting to retreat, not counted in `units`


@dataclass(frozen=True)
class LateRow:
    """A power that had no orders in: its units held, or it fell into civil disorder;
    `stand_in`: the stand-in policy that gave its orders (gm.play.stand_in), if one did."""

    power: str
    disorder: bool
    stand_in: str = ""


@dataclass(frozen=True)
class PressRow:
    sender: str | None  # None: grey press (the GM's view names the sender anyway)
    to: tuple[str, ...]  # empty: everyone
    body: str


@dataclass(frozen=True)
class ReportView:
    """Everything a phase report says, for the templates."""

    game: str
    title: str
    phase: str
    processed: str
    played: tuple[PlayedPhase, ...]
    dislodged: tuple[DislodgedRow, ...]
    centres: tuple[CentreRow, ...]
    eliminated: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    next_phase: str | None
    deadline: str | None
    awaiting: tuple[str, ...]
    no_choice: tuple[str, ...]
    late: tuple[LateRow, ...]
    press: tuple[PressRow, ...] = ()
    timezone: str = "UTC"
    service: str = "gm"
    picture: str | None = None  # the SVG file of the position after the phase
    orders_picture: str | None = None  # the SVG file of the phase's orders, when drawn
    # the PNG pictures shown in the HTML part: (content id, caption) each
    pictures: tuple[tuple[str, str], ...] = ()
    # which pictures the reader chose (gm.play.picture_choice): inline, all (the SVGs attached
    # too) or none
    picture_mode: str = "all"
    bouncing: tuple[str, ...] = ()  # the GM's: addresses that bounce (gm.play.bouncing)
    extra: dict[str, str] = field(default_factory=dict)
    disorder: tuple[str, ...] = ()  # powers in civil disorder that would have a choice
    coming: tuple[ComingEvent, ...] = ()  # the variant's scheduled events of the coming year
    # the reader's draw votes and concessions that lapsed with the phase (gm.play.votes): to
    # a voter, what to send again; to the GM, every voter's
    votes: str = ""


def _rows(results: Sequence[StoredResult]) -> tuple[tuple[str, tuple[ResultRow, ...]], ...]:
    by_power: dict[str, list[ResultRow]] = {}
    for r in results:
        by_power.setdefault(r.power, []).append(
            ResultRow(r.canonical or r.text, r.outcome.value, r.reason))
    return tuple((p, tuple(rows)) for p, rows in sorted(by_power.items()))


_NEEDED = threading.local()  # .recent: this thread's last few (variant, state, needed)


def needed_in(variant: Variant, state: GameState) -> dict[str, Needed]:
    """`orders_needed`, remembered for the last few states this thread asked about (by
    identity: a tick asks about the same state several times). Read only."""
    recent: list[tuple[Variant, GameState, dict[str, Needed]]] | None = getattr(
        _NEEDED, "recent", None)
    if recent is None:
        recent = _NEEDED.recent = []
    for v, st, needed in recent:
        if v is variant and st is state:
            return needed
    needed = orders_needed(variant, state)
    recent.insert(0, (variant, state, needed))
    del recent[4:]
    return needed


def has_choice(variant: Variant, state: GameState, power: str,
               needed: Mapping[str, Needed] | None = None) -> bool:
    """Does `power` have anything to decide in `state.phase`? Not when it has nothing to order,
    nor when it must remove every unit it has (the removals are forced). `needed`: the
    phase's `orders_needed`, if the caller has it."""
    want = (needed_in(variant, state) if needed is None else needed).get(power)
    if want is None:
        return False
    if state.phase.type is PhaseType.ADJUSTMENT and want.removals:
        return want.removals < len(state.units_of(power))
    return True


def choosers(variant: Variant, state: GameState, playing: Collection[str]) -> tuple[str, ...]:
    """The powers among `playing` that have a choice to make in `state.phase`."""
    needed = needed_in(variant, state)
    return tuple(p for p in variant.power_names
                 if p in playing and has_choice(variant, state, p, needed))


def stored_results(step: GameStep) -> tuple[tuple[StoredResult, ...], ...]:
    """The results of each phase `step` passed through, as they are stored and reported."""
    return tuple(tuple(StoredResult.of(r) for r in rep.results) for rep in step.reports)


def build_view(variant: Variant, game: GameRecord, before: GameState, step: GameStep, *,
               now: datetime, deadline: datetime | None, late: Sequence[LateRow],
               service: str, playing: Sequence[str],
               stored: Sequence[Sequence[StoredResult]] | None = None) -> ReportView:
    """The report of `step` (the adjudication of `before`); `deadline` is the next phase's.
    `stored`: `stored_results(step)`, if the caller has them."""
    after = step.state
    if stored is None:
        stored = stored_results(step)
    played = tuple(
        PlayedPhase(variant.format_phase(rep.phase), rep.played, _rows(results), rep.events)
        for rep, results in zip(step.reports, stored, strict=True)
    )
    gmap = variant.map_for(after)
    names = variant.hooks.display_names
    if names is not None:  # Geophysical rule 9: `F(BUR) C A(Bel)-Mar`: spaces are named as
        # the map now is, in the orders as in their reasons and the events
        played = tuple(replace(p, by_power=tuple(
            (power, tuple(replace(row, order=names(gmap, row.order),
                                  reason=names(gmap, row.reason)) for row in rows))
            for power, rows in p.by_power)) for p in played)
    dislodged = tuple(
        DislodgedRow(d.unit.power, str(d.unit), d.attacker_from,
                     tuple(str(loc) for loc in retreat_options(gmap, after, d)))
        for d in sorted(after.dislodged, key=lambda d: (d.unit.power, d.unit))
    )
    needed = needed_in(variant, after)
    centres = []
    for power in variant.power_names:
        owned = after.centres_of(power)
        units = unit_count(after, power)  # an A/F is two units (Abstraction2 rule 3)
        if not owned and not units and not any(d.unit.power == power for d in after.dislodged):
            continue
        row = CentreRow(power, len(owned), owned, units,
                        dislodged=sum(d.unit.power == power for d in after.dislodged))
        want = needed.get(power)
        if after.phase.type is PhaseType.ADJUSTMENT and want is not None:
            row = replace(row, builds=want.builds, removals=want.removals,
                          build_sites=want.build_sites)
        centres.append(row)
    gone = sorted(alive_powers(before) - alive_powers(after))
    deciding = tuple(p for p in variant.power_names
                     if p in playing and has_choice(variant, after, p, needed))
    # powers in civil disorder have their orders made by the rules (DATC 6.J); the others
    # that are not deciding have no choice to make
    disorder = tuple(p for p in sorted(needed) if p not in playing and p not in deciding
                     and has_choice(variant, after, p, needed))
    no_choice = tuple(p for p in sorted(needed) if p not in deciding and p not in disorder)
    return ReportView(
        # the header names the rulebook the game plays (gm.engine.rulebook)
        game=game.name, title=f"{variant.title}, {rulebook_of(before)} rulebook",
        phase=variant.format_phase(before.phase),
        processed=show(now, game.settings.timezone), played=played, dislodged=dislodged,
        centres=tuple(centres), eliminated=tuple(gone), finished=after.finished,
        winners=after.winners,
        next_phase=None if after.finished else variant.format_phase(after.phase),
        deadline=None if deadline is None else show(deadline, game.settings.timezone),
        awaiting=() if after.finished else deciding,
        no_choice=() if after.finished else no_choice, late=tuple(late),
        disorder=() if after.finished else disorder,
        timezone=game.settings.timezone, service=service, coming=coming_events(variant, after))




def _press_for(press: Sequence[PressRecord], audience: str,
               power: str | None) -> tuple[PressRow, ...]:
    rows = []
    for p in press:
        if audience == "observer" and not (p.broadcast or OBSERVERS in p.to_powers):
            continue
        if audience == "player" and not (p.broadcast or p.from_power == power
                                         or power in p.to_powers):
            continue
        if audience == "gm" and not (p.broadcast or p.from_power is None or not p.to_powers
                                     or "GM" in p.to_powers or GM_COPY in p.to_powers):
            continue  # the players' private press, which the GM did not get
        sender: str | None = p.from_power or "GM"
        if p.anonymous and audience != "gm" and p.from_power != power:
            sender = None
        # a power's press named the GM ("GM" stored; rows stored before that: no one else)
        named = [t for t in p.to_powers if t != GM_COPY]
        to = () if p.broadcast else (
            tuple("the GM" if t == "GM" else "the observers" if t == OBSERVERS else t
                  for t in named) or ("the GM",))
        rows.append(PressRow(sender, to, p.body))
    return tuple(rows)


def picture_name(game: str, phase: str) -> str:
    """`demo-spring-1901-movement.svg`: a file name for the picture of a phase."""
    return re.sub(r"[^a-z0-9]+", "-", f"{game} {phase}".lower()).strip("-") + ".svg"


def board_pictures(variant: Variant, state: GameState, game: str,
                   phase: str) -> tuple[Attachment, Attachment]:
    """The board `state` as a PNG (which every mail client shows; drawn when the mail is sent)
    and an SVG (to zoom), named for the game and `phase`: what the start mail and MAP attach."""
    svg = render_map_svg(variant, state, f"{game}: {phase}").encode("utf-8")
    name = picture_name(game, phase)
    return (undrawn_png(name.removesuffix(".svg") + ".png", svg),
            Attachment(name, "image/svg+xml", svg))


def report_pictures(
        variant: Variant, view: ReportView, after: GameState, before: GameState | None = None,
        results: Sequence[OrderResult] = ()) -> tuple[ReportView, tuple[Attachment, ...]]:
    """The report's pictures as attachments (the PNGs first: the HTML part shows them by
    content id, `gm.mail.compose.inline_content_id`), and the view naming them."""
    shown = view.next_phase or variant.format_phase(after.phase)
    pictures = picture_pair(variant, view.game, after if before is None else before, after,
                            results if before is not None else (), played=view.phase,
                            shown=shown)
    svgs = tuple(Attachment(f"{p.stem}.svg", "image/svg+xml", p.svg.encode("utf-8"))
                 for p in pictures)
    pngs = tuple(undrawn_png(f"{p.stem}.png", svg.data) for p, svg in zip(pictures, svgs,
                                                                            strict=True))
    view = replace(view, picture=svgs[-1].filename,
                   orders_picture=svgs[0].filename if len(svgs) > 1 else None, pictures=tuple(
        (inline_content_id(a.filename), p.caption) for a, p in zip(pngs, pictures, strict=True)))
    return view, pngs + svgs


def phase_reports(variant: Variant, view: ReportView, after: GameState, *,
                  recipients: Sequence[tuple[str, str | None, str]],
                  press: Sequence[PressRecord] = (), before: GameState | None = None,
                  results: Sequence[OrderResult] = (),
                  modes: Callable[[str], Mode] | None = None,
                  votes: Mapping[str | None, str] | None = None,
                  game_id: int | None = None) -> list[Outgoing]:
    """One report per recipient `(address, power or None, audience)` (of the game
    `game_id`); each audience's text is
    rendered once per distinct press and choice of pictures it sees. The pictures show
    `results` (the orders of the phase played from `before`) and the position after the phase;
    `modes`: which pictures each address chose (gm.play.picture_choice; None: all); `votes`:
    what the report tells each voting power (None: the GM) of its lapsed votes."""
    full, attachments = report_pictures(variant, view, after, before, results)
    subject = build_subject("results", game=view.game, phase=view.phase)
    bodies: dict[tuple[tuple[PressRow, ...], str], tuple[str, Markup]] = {}
    rendered: dict[tuple[str, tuple[PressRow, ...], str, str], tuple[str, str]] = {}
    out = []
    for address, power, audience in recipients:
        mode = "all" if modes is None else modes(address)
        rows = _press_for(press, audience, power)
        note = ("" if votes is None or audience == "observer"
                else votes.get(None if audience == "gm" else power, ""))
        key = (audience, rows, mode, note)
        if key not in rendered:
            v = replace(_pictures_shown(full, mode), press=rows, votes=note)
            if (rows, mode) not in bodies:  # the same for every audience seeing this press
                bodies[rows, mode] = (render("report/phase-body.txt.j2", r=v).rstrip("\n"),
                                      Markup(render("report/phase-body.html.j2", r=v)))
            text_body, html_body = bodies[rows, mode]
            rendered[key] = (render(f"report/phase-{audience}.txt.j2", r=v, body=text_body),
                             render(f"report/phase-{audience}.html.j2", r=v, body=html_body))
        text, html = rendered[key]
        carried = (attachments if mode == "all" else ()
                   if mode == "none" else tuple(a for a in attachments
                                                if a.content_type == "image/png"))
        out.append(Outgoing((address,), subject, text, game_id, html, carried))
    return out


def _pictures_shown(view: ReportView, mode: str) -> ReportView:
    """`view` (naming every picture) as a reader who chose `mode` sees it."""
    if mode == "none":
        return replace(view, picture_mode=mode, pictures=(), picture=None, orders_picture=None)
    return replace(view, picture_mode=mode)
