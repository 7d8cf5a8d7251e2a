"""Coast labels for land provinces with two or more separate coasts.

A land province's coasts are the maximal runs of water around its border ring (see
gm.engine.topology). When there are two or more, each needs a label a player can write
("Spa/nc"). The map data may pin labels to ring slots (the standard split coasts: Spa nc/sc,
StP nc/sc, Bul ec/sc); every other coast, including those that appear during play when terrain
changes, is named by compass direction from the province's centre towards the water it touches.
Labels are distinct within a province and depend only on the current terrain, so the same
terrain always gives the same labels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

# Compass labels with their directions on the board (x to the east, y to the south).
CARDINAL: tuple[tuple[str, tuple[float, float]], ...] = (
    ("nc", (0.0, -1.0)),
    ("ec", (1.0, 0.0)),
    ("sc", (0.0, 1.0)),
    ("wc", (-1.0, 0.0)),
)
_D = math.sqrt(0.5)
INTERCARDINAL: tuple[tuple[str, tuple[float, float]], ...] = (
    ("nec", (_D, -_D)),
    ("sec", (_D, _D)),
    ("swc", (-_D, _D)),
    ("nwc", (-_D, -_D)),
)
COMPASS = dict(CARDINAL + INTERCARDINAL)


@dataclass(frozen=True)
class CoastRun:
    """One coast of a land province, as the labeller sees it.

    `pins` are the labels the map data pins to the run's ring slots (one per pinned slot, in ring
    order); `direction` points from the province's centre towards the water of the run (any
    length; (0, 0) when unknown).
    """

    pins: tuple[str, ...]
    direction: tuple[float, float]


def _angle_cost(direction: tuple[float, float], label: str) -> float:
    """How far (radians) a label's compass direction is from `direction`."""
    dx, dy = direction
    if dx == 0.0 and dy == 0.0:
        return 0.0
    lx, ly = COMPASS[label]
    dot = (dx * lx + dy * ly) / math.hypot(dx, dy)
    return math.acos(max(-1.0, min(1.0, dot)))


def _best_assignment(
    runs: Sequence[int], directions: Sequence[tuple[float, float]], free: Sequence[str]
) -> dict[int, str]:
    """Give each run a distinct label from `free`, minimising the total angular error.

    Ties go to the first permutation in label order, so the result is deterministic.
    """
    best: tuple[float, tuple[str, ...]] | None = None
    for labels in permutations(free, len(runs)):
        cost = sum(_angle_cost(directions[r], lab) for r, lab in zip(runs, labels, strict=True))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, labels)
    assert best is not None
    return dict(zip(runs, best[1], strict=True))


def label_coasts(runs: Sequence[CoastRun]) -> tuple[str, ...]:
    """Distinct labels for the coasts of one province, in the order of `runs`.

    1. Pinned labels first: a label pinned in several runs goes to the run with the most slots
       pinned to it (the first such run on a tie); a run keeps at most one pinned label.
    2. The other runs get compass labels not yet used: the four cardinal ones (nc, ec, sc, wc)
       while they suffice, else the eight-point compass, chosen to fit the runs' directions best;
       beyond eight coasts, numbered labels (c9, c10, ...).
    """
    labels: list[str | None] = [None] * len(runs)
    taken: set[str] = set()
    candidates: dict[str, list[tuple[int, int]]] = {}
    for i, run in enumerate(runs):
        for label in dict.fromkeys(run.pins):
            candidates.setdefault(label, []).append((-run.pins.count(label), i))
    for label in sorted(candidates, key=lambda lab: min(candidates[lab])):
        for _, i in sorted(candidates[label]):
            if labels[i] is None:
                labels[i] = label
                taken.add(label)
                break
    rest = [i for i, lab in enumerate(labels) if lab is None]
    if rest:
        directions = [run.direction for run in runs]
        free = [lab for lab, _ in CARDINAL if lab not in taken]
        if len(free) < len(rest):
            free += [lab for lab, _ in INTERCARDINAL if lab not in taken]
        if len(free) >= len(rest):
            if len(rest) <= 5:
                assignment = _best_assignment(rest, directions, free)
            else:  # many coasts: greedy, nearest free label in run order
                assignment = {}
                pool = list(free)
                for i in rest:
                    costs = [(_angle_cost(directions[i], lab), k) for k, lab in enumerate(pool)]
                    assignment[i] = pool.pop(min(costs)[1])
        else:
            assignment = {}
            n = len(COMPASS)
            pool = list(free)
            for i in rest:
                if pool:
                    assignment[i] = pool.pop(0)
                else:
                    n += 1
                    while f"c{n}" in taken:
                        n += 1
                    assignment[i] = f"c{n}"
        for i, lab in assignment.items():
            labels[i] = lab
    return tuple(lab for lab in labels if lab is not None)
