"""Compose an adjudicated phase's reports (gm.play.reports) for everyone who gets them: every
address of every power, then the GM and the game's observers, each address once."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from markupsafe import escape

from gm.play import votes as votes_of
from gm.play.adjudicate import Adjudication
from gm.play.calendar_reports import with_events
from gm.play.observers import observers
from gm.play.picture_choice import mode_for
from gm.play.reports import build_view, phase_reports
from gm.store.outgoing import Outgoing
from gm.store.rows import PressRecord

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def recipients(done: Adjudication) -> list[tuple[str, str | None, str]]:
    """Who gets the reports, as `(address, power or None, audience)`: each address once (letter
    case aside), a power's before the GM's and the GM's before the observers'."""
    found: list[tuple[str, str | None, str]] = []
    seen: set[str] = set()
    for power in done.powers:
        for address in power.addresses:
            if address.lower() not in seen:
                seen.add(address.lower())
                found.append((address, power.name, "player"))
    game = done.game
    for address, audience in [(game.gm_address, "gm"), *((a, "observer") for a in observers(game))]:
        if address.lower() not in seen:
            seen.add(address.lower())
            found.append((address, None, audience))
    return found


def compose_reports(done: Adjudication, press: Sequence[PressRecord], *,
                    service: str, bouncing: Sequence[str] = (),
                    session: Session | None = None) -> list[Outgoing]:
    """The reports of the adjudicated phase, one to each of its `recipients`, with the pictures
    each chose (SET PICTURES); `press`: the game's press (that of the phase goes with the
    reports); `service`: the service's name; `bouncing`: the GM's lines on failing addresses
    (gm.play.bouncing); `session`: where the game's history is read for the files the report
    that ends the game carries (gm.play.end_files)."""
    phase, step = done.phase, done.step
    nxt = done.next_phase
    view = build_view(done.variant, done.game, phase.state, step, now=done.at,
                      deadline=None if nxt is None else nxt.deadline_at, late=done.late,
                      service=service, playing=done.playing, stored=done.results)
    view = replace(view, bouncing=tuple(bouncing))
    first = step.reports[0] if step.reports else None
    sent = phase_reports(done.variant, view, step.state, recipients=recipients(done),
                         press=[p for p in press if p.phase_id == phase.id],
                         before=phase.state,
                         results=first.results if first is not None and first.played else (),
                         modes=lambda address: mode_for(done.game, address),
                         votes=lapsed_votes(done), game_id=done.game.id)
    reports = with_events(done, sent)  # the deadlines' calendar events
    if session is None or done.next_phase is not None:
        return reports
    from gm.play.end_files import EndFiles  # the game's files: only at its end
    from gm.play.played_game import played_game

    files = EndFiles(played_game(session, done.game.id, done=done))
    out = []
    for report, (_, power, audience) in zip(reports, recipients(done), strict=True):
        carried = files(power, audience)
        said = files_line(done.game.name, [a.filename for a in carried])
        out.append(replace(
            report, attachments=report.attachments + carried,
            body=report.body.replace("\n-- \n", f"\n{said}\n\n-- \n", 1),
            html=None if report.html is None else
            report.html.replace("<p>-- ", f"<p>{escape(said)}</p>\n<p>-- ", 1)))
    return out


def files_line(game: str, names: Sequence[str]) -> str:
    """What the mail ending a game says of the files it carries."""
    return textwrap.fill(f"The whole game is attached: {', '.join(names)} (HISTORY {game} "
                         "FILE, HTML or ANIMATION sends each again).", width=72)


def lapsed_votes(done: Adjudication) -> dict[str | None, str]:
    """What each voter's report (and, under None, the GM's) says of the draw votes and
    concessions cast in the adjudicated phase, which lapse with it (none if the game ended)."""
    if done.next_phase is None:
        return {}
    cast = votes_of.lapsed(done.game.settings, done.phase)
    following = done.variant.format_phase(done.next_phase.phase)
    notes: dict[str | None, str] = {
        power: votes_of.lapse_note(votes, done.name, following)
        for power, votes in cast.items()}
    if cast:
        notes[None] = votes_of.lapse_line(cast)
    return notes
