"""Order errors a player can cause, as values that quote the input."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from gm.engine.record import Record


class ErrorKind(StrEnum):
    UNREADABLE = "unreadable"  # the text is not an order (with line/column and what was expected)
    UNKNOWN_PROVINCE = "unknown province"  # a name the map does not know (with suggestions)
    AMBIGUOUS = "ambiguous"  # e.g. a fleet move to a split-coast province, coast not determined
    ILLEGAL = "illegal"  # readable but not allowed: not adjacent, no such unit, not yours, ...


class OrderError(Record):
    """Why an order was not accepted. `message` is a full sentence quoting `text`."""

    __slots__ = ("kind", "message", "suggestions", "text")
    __match_args__: ClassVar[tuple[str, ...]] = ("kind", "text", "message", "suggestions")

    def __init__(
        self, kind: ErrorKind, text: str, message: str, suggestions: tuple[str, ...] = ()
    ) -> None:
        self.kind: Final = kind
        self.text: Final = text
        self.message: Final = message
        self.suggestions: Final = suggestions

    def _values(self) -> tuple[object, ...]:
        return (self.kind, self.text, self.message, self.suggestions)

    def __str__(self) -> str:
        return self.message
