"""The GM's lines on the game's failing addresses (SUMMARY, the GM's copy of each report):
"mail to Italy (anna@example.org) bouncing since Tue 2026-03-03 17:00 UTC"."""

from __future__ import annotations

from sqlalchemy.orm import Session

from gm.play.deadlines import show
from gm.store import address_failures
from gm.store.rows import GameRecord


def bouncing_lines(session: Session, game: GameRecord) -> list[str]:
    """One line per failing address the game's seats and GM still have."""
    return [f"mail to {f.power or 'the GM'} ({f.address}) bouncing since "
            f"{show(f.since, game.settings.timezone)}: {f.reason}"
            for f in address_failures.failing_in_game(session, game.id)]
