"""What adjudication says about each order, in words a player understands."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gm.engine.errors import OrderError
from gm.engine.orders import AnyOrder
from gm.engine.reasons import Reason
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
    """One order's fate. `reason` is a short sentence for reports ("bounced with A Mun");
    `why`, for a void order, why as a value (gm.engine.reasons; `reason` then begins with its
    words, gm.engine.reason_words), which readers take rather than the words."""

    power: str
    order: AnyOrder | None
    text: str
    outcome: Outcome
    reason: str = ""
    dislodged_by: str | None = None  # the attacking unit, when this unit was dislodged
    details: tuple[str, ...] = ()
    why: Reason | None = field(default=None, compare=False)


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
