"""The phase reports' calendar events (gm.play.calendar_event): each report carries the event of
the phase it opens (its deadline, SEQUENCE 0: the phase is new), and, when the phase reported
ended before its deadline, that phase's event cancelled; a player with a time zone of their own
(SET TIMEZONE) reads the next deadline in their time and in the game's at the top."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gm.play.adjudicate import Adjudication
from gm.play.calendar_event import (
    PhaseDeadline,
    deadline_event,
    sequence_of,
    time_line,
    with_time_line,
    with_time_line_html,
)
from gm.store.outgoing import Outgoing


def with_events(done: Adjudication, mails: Sequence[Outgoing]) -> list[Outgoing]:
    """`mails` (the reports of `done`, one recipient each) with their calendar events."""
    game = done.game
    nxt = done.next_phase
    opening = None
    if nxt is not None and nxt.deadline_at is not None:
        opening = PhaseDeadline(nxt.index, nxt.opened_at, done.variant.format_phase(nxt.phase),
                                nxt.deadline_at, 0)
    ended = done.phase
    closing = None
    # ended early (a phase resolved as it opened too: its event went with the report before)
    if ended.deadline_at is not None and done.at < ended.deadline_at:
        closing = PhaseDeadline(ended.index, ended.opened_at, done.name, ended.deadline_at,
                                sequence_of(game.settings, ended.index) + 1)
    powers = {a.lower(): p.name for p in done.powers for a in p.addresses}
    out = []
    for mail in mails:
        if len(mail.recipients) != 1:
            out.append(mail)
            continue
        address = mail.recipients[0]
        power = powers.get(address.lower())
        if power is None and address.lower() != game.gm_address.lower():
            out.append(mail)  # an observer orders nothing: no deadline to keep
            continue
        events = []
        if closing is not None:
            events.append(deadline_event(game, closing, address, power, now=done.at,
                                         cancel=True))
        if opening is not None:
            events.append(deadline_event(game, opening, address, power, now=done.at))
            line = time_line(game.settings, address, opening.phase, opening.deadline)
            if line is not None:
                mail = replace(mail, body=with_time_line(mail.body, line),
                               html=None if mail.html is None
                               else with_time_line_html(mail.html, line))
        out.append(replace(mail, attachments=(*events, *mail.attachments)))
    return out
