"""The last few things made, kept by a key and shared by the threads (the painter's kept
layers, gm.pictures.layers, and boards' fills, gm.pictures.fills): a thing asked for again
is found; one made anew pushes out the least recently asked for past `size`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """Up to `size` things, by key, the least recently asked for pushed out first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The thing kept under `key`, else the one `make` makes (then kept; made outside
        the lock: two threads may make one at once, and the later is kept)."""
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
                return found
        made = make()
        with self.lock:
            self.kept[key] = made
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return made

    def peek(self, key: K) -> V | None:
        """The thing kept under `key`, if any (not counted as asked for)."""
        with self.lock:
            return self.kept.get(key)
