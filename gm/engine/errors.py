"""Order errors a player can cause, as values that quote the input."""

from __future__ import annotations

from enum import StrEnum

from gm.engine.values import value


class ErrorKind(StrEnum):
    UNREADABLE = "unreadable"  # the text is not an order (with line/column and what was expected)
    UNKNOWN_PROVINCE = "unknown province"  # a name the map does not know (with suggestions)
    AMBIGUOUS = "ambiguous"  # e.g. a fleet move to a split-coast province, coast not determined
    ILLEGAL = "illegal"  # readable but not allowed: not adjacent, no such unit, not yours, ...


@value
class OrderError:
    """Why an order was not accepted. `message` is a full sentence quoting `text`."""

    kind: ErrorKind
    text: str
    message: str
    suggestions: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.message
