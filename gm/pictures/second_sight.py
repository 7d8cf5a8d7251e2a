"""Which of the pictures' memos a thing enters: the second time it is met, not the first.

A variant's board, its names and most units are in picture after picture; a picture's title
(its game and its phase) is in that one picture alone. Memos that kept everything they met
filled with titles, each with its glyphs' outline and its Skia recording (some 12 kB of native
memory each), until they reached their bound and were emptied: a deadline's memory grew with
its games. Keeping a thing only when it has been met before keeps what recurs and nothing
else; what is met once costs what it did before it had a memo.
"""

from __future__ import annotations

from collections.abc import Hashable


class SecondSight:
    """The hashes of the last `bound` things met (a hash shared by two things only lets the
    second be kept at once: harmless)."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._met: set[int] = set()

    def again(self, key: Hashable) -> bool:
        """Whether `key` was met before (since the last `bound` were forgotten); it is met now."""
        h = hash(key)
        if h in self._met:
            return True
        if len(self._met) >= self.bound:
            self._met.clear()
        self._met.add(h)
        return False
