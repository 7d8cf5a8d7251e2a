"""Which rulebook a game plays: the 2000 rulebook (the default) or the 2023 rulebook.

Both are read as DATC v3.0 makes them precise. They differ in two places:
- Convoys to adjacent places (DATC 4.A.3; 6.G.8, 6.G.19): under both an army ordered to an
  adjacent province goes by convoy when a complete convoy is ordered and its order says "via
  convoy" or a fleet of its own power convoys it. Under 2000 (DATC v2.4) "via convoy" with no
  convoy ordered goes over land; under 2023 (DATC v3.0) it goes only by convoy, so it fails,
  and a convoy order that lies on no route the map allows without a shortcut is illegal and
  shows no intent.
- Civil-disorder removals (DATC 6.J): under 2000 the units farthest from the power's home
  centres go first, counted by moves the unit could make; under 2023 the units farthest from
  any supply centre the power owns, counted in provinces, land or sea, whatever the unit.

The choice is kept in the game state's `extra` under RULEBOOK_KEY (absent: 2000).
"""

from __future__ import annotations

from gm.engine.state import GameState

RULEBOOK_KEY = "rulebook"
RULEBOOK_2000 = "2000"
RULEBOOK_2023 = "2023"
RULEBOOKS = (RULEBOOK_2000, RULEBOOK_2023)
DEFAULT_RULEBOOK = RULEBOOK_2000


def rulebook_of(state: GameState) -> str:
    """The rulebook `state`'s game plays (DEFAULT_RULEBOOK unless set)."""
    return state.extra.get(RULEBOOK_KEY, DEFAULT_RULEBOOK)


def plays_2023(state: GameState) -> bool:
    return rulebook_of(state) == RULEBOOK_2023


def with_rulebook(state: GameState, rulebook: str) -> GameState:
    """`state` set to play `rulebook` (one of RULEBOOKS; ValueError otherwise). The default is
    not written down, so a 2000 game's state is what it always was."""
    if rulebook not in RULEBOOKS:
        raise ValueError(f"no rulebook {rulebook!r}: {' or '.join(RULEBOOKS)}")
    extra = {k: v for k, v in state.extra.items() if k != RULEBOOK_KEY}
    if rulebook != DEFAULT_RULEBOOK:
        extra[RULEBOOK_KEY] = rulebook
    return state.evolve(extra=extra)
