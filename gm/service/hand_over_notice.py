"""Telling the GM what a deadline waited for: a phase whose deadline passed while gm was down
(or while the mail server could not deliver to it) is processed only after the mail server
handed over what it held (gm.mail.lmtp, `HandOver`); the GM of each such game is told once per
phase what gm asked the mail server and how long it waited."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import TYPE_CHECKING

from gm.config import Config
from gm.mail.compose import build_subject
from gm.play.deadlines import show
from gm.play.render import render
from gm.service.clock import Clock
from gm.store import games as games_repo
from gm.store import outgoing
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.store.outgoing import Outgoing
from gm.variants import get_variant

if TYPE_CHECKING:
    from gm.mail.lmtp import HandOver  # loaded with an LMTP source only (gm.service.serve)


def tell_hand_over(db: Database, config: Config, clock: Clock,
                   waiting: list[tuple[str, datetime]], handed: HandOver) -> int:
    """Queue to the GM of each game in `waiting` (name, the time its phase waited for) one
    notice of `handed` for its open phase; how many were queued (once per phase)."""
    quiet = config.lmtp.quiet if config.lmtp is not None else 0.0
    waited = handed.said(quiet)
    queued = 0
    now = clock.now()
    with db.transaction() as session:
        for name, until in waiting:
            game = games_repo.find_game(session, name)
            if game is None:
                continue
            phase = phases_repo.current_phase(session, game.id)
            if phase is None or phase.adjudicated:
                continue
            shown = get_variant(game.variant).format_phase(phase.phase)
            digest = hashlib.sha256(game.gm_address.lower().encode()).hexdigest()[:12]
            body = render("report/handed-over-gm.txt.j2", game=game.name, phase=shown,
                          deadline=show(until, game.settings.timezone), waited=waited,
                          why=("passed while gm was not taking mail" if handed.at_start else
                               "came while the mail server still held mail for gm"),
                          service=config.display_name)
            new = outgoing.queue_once(session, Outgoing(
                (game.gm_address,), build_subject("deadline waited for the mail server",
                                                  game=game.name, phase=shown), body, game.id,
                message_id=f"<handover.{game.id}.{phase.id}.{digest}@{config.domain}>"),
                now=now)
            queued += new
    return queued
