"""What adjudication says about each order, in words a player understands."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gm.engine.errors import OrderError
from gm.engine.orders import AnyOrder
from gm.engine.reason_words import words
from gm.engine.reasons import NOTHING, Reason
from gm.engine.state import GameState


class Outcome(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    ILLEGAL = "illegal"  # void: the unit holds (movement) or the order is ignored

    @property
    def word(self) -> str:
        return self.value


@dataclass(frozen=True)
class OrderResult:
    """One order's fate. `why` says why as a value (gm.engine.reasons), which readers take;
    `reason` is its words for reports ("bounced with A Mun (1 against 1)"), made from it by
    gm.engine.reason_words."""

    power: str
    order: AnyOrder | None
    text: str
    outcome: Outcome
    why: Reason = NOTHING
    dislodged_by: str | None = None  # the attacking unit, when this unit was dislodged
    details: tuple[str, ...] = field(default=())

    @property
    def reason(self) -> str:
        """The words of `why`, as the reports show them."""
        return words(self.why)


@dataclass(frozen=True)
class Submitted:
    """An order as submitted by a power: the text it wrote and what the parser made of it.

    `order` is None when the text could not be parsed; `error` then says why. Later submissions
    for the same unit replace earlier ones.
    """

    power: str
    text: str
    order: AnyOrder | None
    error: OrderError | None = None


@dataclass(frozen=True)
class PhaseOutcome:
    """The result of resolving one phase: the position after it (phase not yet advanced), one
    result per submitted order (plus one per unit that had no order), and map/centre events in
    words for reports."""

    state: GameState
    results: tuple[OrderResult, ...]
    events: tuple[str, ...] = ()
