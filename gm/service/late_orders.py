"""Telling the GM of orders read late: messages that arrived while a phase was open, in time
for it, but reached gm only after the phase was adjudicated (the mail server held them longer
than the hand-over) keep their orders aside for that phase (gm.commands.handlers.order_arrival).
The GM gets one notice for the phase, however many powers' orders came so, once no more has
come for QUIET seconds, with the one command that processes the phase again with them
(REPROCESS); another notice only when more come later."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gm.config import Config
from gm.mail.compose import build_subject
from gm.play.deadlines import show
from gm.play.render import render
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outgoing
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.errors import NotFound
from gm.store.outgoing import Outgoing
from gm.variants import get_variant

QUIET = 10.0  # seconds without another late message before the GM is told
# how far back a tick looks for orders read late: ticks come every minute or so, so the GM has
# been told of older ones (however long they stay kept for REPROCESS)
LOOK_BACK = timedelta(days=1)


def tell_late_orders(session: Session, config: Config, now: datetime) -> int:
    """Queue the GM's notice for each phase with orders read late that it has not been told
    of yet; how many were queued."""
    queued = 0
    for phase_id in orders_repo.phases_with_late_sets(session, now - LOOK_BACK):
        late = orders_repo.late_sets(session, phase_id)
        if not late or now - max(s.submitted_at for s in late) < timedelta(seconds=QUIET):
            continue
        phase = phases_repo.get_phase(session, phase_id)
        game = games_repo.get_game(session, phase.game_id)
        variant = get_variant(game.variant)
        name = variant.format_phase(phase.phase)
        lines = []
        for order_set in late:
            arrived = order_set.submitted_at
            if order_set.inbound_id is not None:
                try:
                    record = inbound_repo.get_inbound(session, order_set.inbound_id)
                    arrived = record.arrived_at or record.received_at
                except NotFound:
                    pass
            lines.append(f"{order_set.power}: arrived "
                         f"{show(arrived, game.settings.timezone, seconds=True)}")
        body = render("report/late-orders-gm.txt.j2", game=game.name, phase=name,
                      lines=lines, service=config.display_name)
        new = outgoing.queue_once(session, Outgoing(
            (game.gm_address,), build_subject("orders read after their phase",
                                              game=game.name, phase=name), body, game.id,
            message_id=f"<late-orders.{game.id}.{phase.id}.{len(late)}@{config.domain}>"),
            now=now)
        queued += new
    return queued
