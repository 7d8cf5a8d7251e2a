"""The calendar events of the mail a command sends about an open phase's deadline (the start
mail, SET DEADLINE <date>, PAUSE, RESUME; gm.play.calendar_event): each notice to one reader
gets the phase's event for that reader, and a reader with a time zone of their own (SET
TIMEZONE) reads the deadline in their time and in the game's at the top."""

from __future__ import annotations

import dataclasses

from gm.commands.handlers.common import refresh, variant_of
from gm.commands.handlers.context import Context
from gm.play import seats
from gm.play.calendar_event import (
    PhaseDeadline,
    deadline_event,
    sequence_of,
    time_line,
    with_sequence,
    with_time_line,
    with_time_line_html,
)
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.rows import Attachment, GameRecord, PhaseRecord


def with_events(ctx: Context, game: GameRecord, phase: PhaseRecord, since: int, *,
                moved: bool = False, cancel: bool = False) -> None:
    """The notices of `game` queued since `ctx.results.mail[since]` carry `phase`'s event:
    with `moved`, a new SEQUENCE (the deadline moved, or no longer holds); with `cancel`, the
    event cancelled (the game paused)."""
    if phase.deadline_at is None:
        return
    game = refresh(ctx, game)
    sequence = sequence_of(game.settings, phase.index) + (1 if moved else 0)
    if moved:
        game = games_repo.set_game_settings(ctx.session, game.id, dataclasses.replace(
            game.settings, extra=with_sequence(game.settings, phase.index, sequence)),
            now=ctx.now)
        if ctx.signed is not None and ctx.signed.game.id == game.id:
            ctx.signed.game = game
    name = variant_of(game).format_phase(phase.phase)
    deadline = PhaseDeadline(phase.index, phase.opened_at, name, phase.deadline_at, sequence)
    powers = {a.lower(): p.name for p in powers_repo.list_powers(ctx.session, game.id)
              for a in p.addresses}
    mail = ctx.results.mail
    for at in range(since, len(mail)):
        notice = mail[at]
        if notice.game_id != game.id or len(notice.recipients) != 1:
            continue
        address = notice.recipients[0]
        if address.lower() not in powers and address.lower() != game.gm_address.lower():
            continue  # an observer orders nothing: no deadline to keep
        event = deadline_event(game, deadline, address, powers.get(address.lower()),
                               now=ctx.now, cancel=cancel)
        body, html = notice.body, notice.html
        line = None if cancel else time_line(game.settings, address, name, deadline.deadline)
        if line is not None:
            body = with_time_line(body, line)
            html = None if html is None else with_time_line_html(html, line)
        mail[at] = dataclasses.replace(notice, body=body, html=html,
                                       attachments=(*notice.attachments, event))


def phase_event(ctx: Context, game: GameRecord, phase: PhaseRecord | None, address: str,
                power: str) -> tuple[Attachment, ...]:
    """The open `phase`'s event for a player just given `power` (gm.play.seats.phase_event),
    or nothing when it has no deadline."""
    return seats.phase_event(game, phase, address, power, now=ctx.now)
