"""A game's full record as one JSON document: settings, powers, every phase with the state
before it, every submission, the results and events, and the press.

Player addresses and password hashes are left out (the record can be published); grey press
keeps its sender, so the record is the GM's view.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.variants import get_variant

FORMAT = "gm-game-record/1"


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def game_record(session: Session, game_id: int) -> dict[str, Any]:
    """The whole record of the game (JSON-ready values)."""
    game = games_repo.get_game(session, game_id)
    variant = get_variant(game.variant)
    sets = orders_repo.order_sets_for_game(session, game_id)
    phases = []
    for p in phases_repo.history(session, game_id):
        phases.append({
            "index": p.index,
            "phase": variant.format_phase(p.phase),
            "season": p.phase.season,
            "year": p.phase.year,
            "type": p.phase.type.value,
            "state": p.state.to_json(),
            "opened_at": _when(p.opened_at),
            "deadline_at": _when(p.deadline_at),
            "adjudicated_at": _when(p.adjudicated_at),
            "orders": [
                {"power": s.power, "submitted_at": _when(s.submitted_at), "valid": s.valid,
                 "lines": [{"text": ln.text, "canonical": ln.canonical, "error": ln.error}
                           for ln in s.lines]}
                for s in sets.get(p.id, [])
            ],
            "results": None if p.results is None else [r.to_json() for r in p.results],
            "events": None if p.events is None else list(p.events),
        })
    index_of = {p.id: p.index for p in phases_repo.history(session, game_id)}
    return {
        "format": FORMAT,
        "game": {
            "name": game.name,
            "variant": game.variant,
            "title": variant.title,
            "status": game.status.value,
            "settings": game.settings.to_json(),
            "created_at": _when(game.created_at),
        },
        "powers": [
            {"name": p.name, "status": p.status.value, "players": len(p.addresses)}
            for p in powers_repo.list_powers(session, game_id)
        ],
        "phases": phases,
        "press": [
            {"phase_index": index_of.get(m.phase_id) if m.phase_id is not None else None,
             "from": m.from_power or "GM", "to": "everyone" if m.broadcast else list(m.to_powers),
             "grey": m.anonymous, "body": m.body, "sent_at": _when(m.sent_at)}
            for m in press_repo.list_press(session, game_id)
        ],
    }
