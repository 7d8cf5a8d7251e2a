"""Errors the store raises for conditions its callers are expected to handle."""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's own errors."""


class NotFound(StoreError):
    """No row with the given key."""


class GameNameTaken(StoreError):
    """A game with this name (compared case-insensitively) exists already."""

    def __init__(self, name: str) -> None:
        super().__init__(f"a game named {name!r} exists already")
        self.name = name


class PhaseClosed(StoreError):
    """The phase was adjudicated already: its orders and results can no longer change."""


class PhaseStillOpen(StoreError):
    """A new phase cannot open while the game's current phase is not adjudicated."""


class SchemaError(StoreError):
    """The database schema is not the one this gm needs; the message says which command fixes it."""
