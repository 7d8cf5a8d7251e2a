"""What to write instead when a map's rings do not close (gm.engine.topology.check_rings): one
error with the fix rather than every point the mistake breaks.

- Four provinces written meeting at one point (A's ring `B D`, B's `C A`, C's `D B`, D's `A
  C`): a ring can only draw a point where three meet. The recipe: give one diagonal pair a
  border of no length (B and D: B's ring `C D A`, D's ring `A B C`), and, if the other pair
  must border across the point, `passage A C`.
- One ring with two neighbours the wrong way round, or written counterclockwise: the ring as
  it should be written.

Anything else is reported as check_rings says it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from gm.engine.topology import RingProblem, check_rings, is_edge

Rings = Mapping[str, tuple[str, ...]]
# a ring with one mistake is looked for among the rings the problems name, up to so many (each
# try checks every ring again), and up to so many such rings
_SUSPECTS = 40
_WORK = 400_000  # rings checked in all the tries together (a huge map gets few tries)
_LONGEST = 40  # entries of a ring tried (no real province has so many neighbours)
_MENDED_RINGS = 8
_POINT = re.compile(r"where (\S+), (\S+) and (\S+) meet")


def passage_problem(rings: Rings, a: str, b: str) -> str | None:
    """Why `passage a b` cannot be: a passage joins two provinces that meet at a point where
    four meet, so a's ring has some `X Y` where b's ring has `Y X`. None if they do."""
    mine = _pairs(rings[a])
    if any((y, x) in mine for x, y in _pairs(rings[b])):
        return None
    return (f"{a} and {b} do not meet at a point: a passage joins two provinces that meet only "
            f"where four meet (the ring of {a} has X Y where the ring of {b} has Y X, X and Y "
            f"the two provinces between them); leave the passage out, or, if {a} and {b} share "
            f"a border, list each in the other's ring")


def diagnose(rings: Rings, written: Mapping[str, Sequence[str]],
             problems: Sequence[RingProblem]) -> list[RingProblem]:
    """The problems to report for rings that do not close: four-province points and single
    misordered rings found and explained (with `written`, each ring's entries as the file
    writes them, coast pins included), the rest as found."""
    if not problems or any(not p.message.startswith("the ring of ")
                           or "does not close" not in p.message for p in problems):
        return list(problems)  # border problems come first: fix those before the points
    out: list[RingProblem] = []
    fixed = dict(rings)
    for four, message in _four_points(rings):
        out.append(RingProblem(four[0], message))
        a, b, c, d = four
        fixed[b] = _insert(fixed[b], c, a, d)
        fixed[d] = _insert(fixed[d], a, c, b)
    left = check_rings(fixed) if out else list(problems)
    budget = _WORK // max(len(rings), 1)  # tries: each checks every ring
    for _ in range(_MENDED_RINGS):
        suspects = [s for s in dict.fromkeys(_named(left))
                    if s in rings and len(rings[s]) <= _LONGEST]
        if not left or len(suspects) > _SUSPECTS:
            break  # mended, or too broken to guess at: every problem left as found
        best: tuple[str, tuple[str, ...], list[RingProblem], str] | None = None
        for p in suspects:
            for ring, how in _candidates(fixed[p]):
                budget -= 1
                if budget < 0:
                    return out + left
                after = check_rings({**fixed, p: ring})
                if p not in _named(after) and len(after) < len(left) and (
                        best is None or len(after) < len(best[2])):
                    best = (p, ring, after, how)
        if best is None:
            break
        p, ring, left, how = best
        out.append(RingProblem(p, _fix_message(p, rings[p], ring, written.get(p), how)))
        fixed[p] = ring
    return out + left


def _pairs(ring: Sequence[str]) -> set[tuple[str, str]]:
    return {(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))}


def _named(problems: Sequence[RingProblem]) -> list[str]:
    """The provinces problems speak of: the ring blamed and the three at the point."""
    names: list[str] = []
    for problem in problems:
        names.append(problem.province)
        found = _POINT.search(problem.message)
        if found:
            names += [n for n in found.groups() if not is_edge(n)]
    return names


def _four_points(rings: Rings) -> list[tuple[tuple[str, str, str, str], str]]:
    """Points where four provinces A, B, C, D (clockwise around the point) were written as
    meeting: A's ring has `B D`, B's `C A`, C's `D B` and D's `A C`, B and D not bordering."""
    found: list[tuple[tuple[str, str, str, str], str]] = []
    seen: set[frozenset[str]] = set()
    pairs = {p: _pairs(r) for p, r in rings.items()}
    having: dict[tuple[str, str], list[str]] = {}
    for p, corners in pairs.items():
        for pair in corners:
            having.setdefault(pair, []).append(p)
    for a in rings:
        for b, d in sorted(pairs[a]):
            if is_edge(b) or is_edge(d) or d in rings.get(b, ()):
                continue
            others = [c for c in having.get((d, b), ()) if c != a]
            if len(others) != 1:
                continue
            c = others[0]
            if (c, a) not in pairs[b] or (a, c) not in pairs[d]:
                continue
            key = frozenset((a, b, c, d))
            if key in seen:
                continue
            seen.add(key)
            found.append(((a, b, c, d), (
                f"{a}, {b}, {c} and {d} meet at one point, but a ring can only draw a point "
                f"where three provinces meet: give one diagonal pair a border of no length, "
                f"e.g. {b} and {d}: in the ring of {b} write {d} between {c} and {a} "
                f"({c} {d} {a}), in the ring of {d} write {b} between {a} and {c} "
                f"({a} {b} {c}); the rings of {a} and {c} stay as they are. If {a} and {c} "
                f"must border each other across the point, declare `passage {a} {c}`")))
    return found


def _insert(ring: tuple[str, ...], before: str, after: str, new: str) -> tuple[str, ...]:
    """`ring` with `new` written between the consecutive entries `before` and `after`."""
    for i, entry in enumerate(ring):
        if entry == before and ring[(i + 1) % len(ring)] == after:
            return (*ring[:i + 1], new, *ring[i + 1:])
    return ring


def _candidates(ring: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """The ring written the other way round, and with each two neighbours swapped."""
    out = [(tuple(reversed(ring)), "reversed")]
    n = len(ring)
    for i in range(n):
        j = (i + 1) % n
        swapped = list(ring)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out.append((tuple(swapped), f"{i} {j}"))
    return out


def _fix_message(p: str, ring: tuple[str, ...], fixed: tuple[str, ...],
                 written: Sequence[str] | None, how: str) -> str:
    """The error for a ring with one mistake, with the ring to write instead."""
    entries = list(written) if written is not None and len(written) == len(ring) else list(ring)
    if how == "reversed":
        text = " ".join(reversed(entries))
        return (f"the ring of {p} does not close: it runs counterclockwise, and a ring lists "
                f"the neighbours clockwise: write `ring {text}`")
    i, j = map(int, how.split())
    entries[i], entries[j] = entries[j], entries[i]
    return (f"the ring of {p} does not close: it has {ring[i]} and {ring[j]} the wrong way "
            f"round (clockwise around {p}, {fixed[i]} needs to come before {fixed[j]}): write "
            f"`ring {' '.join(entries)}`")
