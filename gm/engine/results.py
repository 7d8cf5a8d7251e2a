"""What adjudication says about each order, in words a player understands."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from gm.engine.errors import OrderError
from gm.engine.orders import AnyOrder
from gm.engine.record import Record
from gm.engine.state import GameState


class Outcome(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    ILLEGAL = "illegal"  # void: the unit holds (movement) or the order is ignored

    @property
    def word(self) -> str:
        return self.value


class OrderResult(Record):
    """One order's fate. `reason` is a short sentence for reports ("bounced with A Mun")."""

    __slots__ = ("details", "dislodged_by", "order", "outcome", "power", "reason", "text")
    __match_args__: ClassVar[tuple[str, ...]] = (
        "power", "order", "text", "outcome", "reason", "dislodged_by", "details")

    def __init__(
        self,
        power: str,
        order: AnyOrder | None,
        text: str,
        outcome: Outcome,
        reason: str = "",
        dislodged_by: str | None = None,  # the attacking unit, when this unit was dislodged
        details: tuple[str, ...] = (),
    ) -> None:
        self.power: Final = power
        self.order: Final = order
        self.text: Final = text
        self.outcome: Final = outcome
        self.reason: Final = reason
        self.dislodged_by: Final = dislodged_by
        self.details: Final = details

    def _values(self) -> tuple[object, ...]:
        return (self.power, self.order, self.text, self.outcome, self.reason, self.dislodged_by,
                self.details)


class Submitted(Record):
    """An order as submitted by a power: the text it wrote and what the parser made of it.

    `order` is None when the text could not be parsed; `error` then says why. Later submissions
    for the same unit replace earlier ones.
    """

    __slots__ = ("error", "order", "power", "text")
    __match_args__: ClassVar[tuple[str, ...]] = ("power", "text", "order", "error")

    def __init__(
        self, power: str, text: str, order: AnyOrder | None, error: OrderError | None = None
    ) -> None:
        self.power: Final = power
        self.text: Final = text
        self.order: Final = order
        self.error: Final = error

    def _values(self) -> tuple[object, ...]:
        return (self.power, self.text, self.order, self.error)


class PhaseOutcome(Record):
    """The result of resolving one phase: the position after it (phase not yet advanced), one
    result per submitted order (plus one per unit that had no order), and map/centre events in
    words for reports."""

    __slots__ = ("events", "results", "state")
    __match_args__: ClassVar[tuple[str, ...]] = ("state", "results", "events")

    def __init__(
        self, state: GameState, results: tuple[OrderResult, ...], events: tuple[str, ...] = ()
    ) -> None:
        self.state: Final = state
        self.results: Final = results
        self.events: Final = events

    def _values(self) -> tuple[object, ...]:
        return (self.state, self.results, self.events)
