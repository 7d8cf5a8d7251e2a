"""Games of variants read from files (the tick and PROCESS ask here): a game records the hash
of its variant's file when it is created (games.variant_digest). Before the game is acted on,
the file now loaded is compared: unchanged, the game goes on; changed but the game's position
still fits, the new hash is recorded and the game goes on; changed so the position no longer
fits (a province removed under a unit), or gone, the tick pauses the game, tells the GM and
the operator why and logs a warning, and PROCESS refuses. Nothing of the game is changed but
its status."""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.render import render
from gm.store import audit, outgoing
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from gm.variants.registry import UnknownVariant, file_of, get_variant
from gm.variants.varfile import position_problems

log = logging.getLogger(__name__)
ACTOR = "gm tick"


def variant_problems(session: Session, game: GameRecord, *, now: datetime
                     ) -> tuple[list[str], str]:
    """Why the game cannot go on with its variant as loaded now (its file changed so the
    position no longer fits, or is gone), and the file's hash now; no problems if it can. A
    change that fits is recorded (the game's new hash)."""
    if game.variant_digest is None:
        return [], ""  # a built-in variant
    try:
        variant = get_variant(game.variant)
    except UnknownVariant:
        problems = [f"the variant {game.variant} is not loaded any more: its file is gone "
                    "from variants_dir or no longer loads (the service's log says why)"]
        return problems, "gone"
    found = file_of(variant.name)
    if found is None or found[1] == game.variant_digest:
        return [], game.variant_digest
    digest = found[1]
    phase = phases_repo.current_phase(session, game.id)
    state = phase.state if phase is not None else variant.start_state()
    problems = position_problems(variant, state)
    if not problems:
        games_repo.set_variant_digest(session, game.id, digest, now=now)
        log.info("game %s: variant file %s changed; the position still fits it",
                 game.name, found[0])
    return problems, digest


def paused_for_its_variant(session: Session, game: GameRecord, *, now: datetime,
                           service: str, domain: str, operator: str | None) -> bool:
    """Pause `game` if its variant file changed so its position no longer fits, or is gone,
    and tell its GM and the operator (`service`: the service's display name); True if it was
    paused now."""
    problems, digest = variant_problems(session, game, now=now)
    if not problems:
        return False
    games_repo.set_game_status(session, game.id, GameStatus.PAUSED, now=now)
    log.warning("game %s paused: its variant %s changed: %s", game.name, game.variant,
                "; ".join(problems))
    audit.record_action(session, actor=ACTOR, action="pause", now=now, game_id=game.id,
                        details={"why": "variant file changed", "problems": problems})
    body = render("report/variant-changed.txt.j2", game=game.name, variant=game.variant,
                  problems=problems, service=service)
    recipients = [game.gm_address, *([operator] if operator else [])]
    for address in dict.fromkeys(recipients):
        who = hashlib.sha256(f"{address.lower()} {digest}".encode()).hexdigest()[:16]
        outgoing.queue_once(session, Outgoing(
            (address,), build_subject("paused: its variant file changed", game=game.name),
            body, game.id, message_id=f"<variant.{game.id}.{who}@{domain}>"), now=now)
    return True
