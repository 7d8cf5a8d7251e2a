"""Orders as typed frozen values.

An order names its unit the way the player did (`UnitSpec`: the type may be missing, the coast
may be missing); the engine's legality check (gm.engine.legality) resolves it against the board.
Every order prints as canonical text (`str(order)`) that the order parser reads back to an equal
value.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.engine.geo import Location
from gm.engine.units import UnitType


@dataclass(frozen=True, order=True)
class UnitSpec:
    """A unit as an order names it: `A Par`, `F Spa/sc`, or just `Par` (type left out)."""

    type: UnitType | None
    location: Location

    def __str__(self) -> str:
        return str(self.location) if self.type is None else f"{self.type.value} {self.location}"

    @property
    def province(self) -> str:
        return self.location.province


@dataclass(frozen=True)
class Order:
    """Base of all orders. Subclasses are frozen dataclasses with a canonical `__str__`."""

    unit: UnitSpec


@dataclass(frozen=True)
class Hold(Order):
    """`A Par H`: the unit stays where it is."""

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True)
class Move(Order):
    """`A Par - Bur`: move to `dest`; `via_convoy` when the player asked for a convoy."""

    dest: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.dest}" + (" via convoy" if self.via_convoy else "")


@dataclass(frozen=True)
class SupportHold(Order):
    """`A Mar S A Par`: support `target` where it stands."""

    target: UnitSpec

    def __str__(self) -> str:
        return f"{self.unit} S {self.target}"


@dataclass(frozen=True)
class SupportMove(Order):
    """`A Mar S A Par - Bur`: support `target` moving to `dest`."""

    target: UnitSpec
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} S {self.target} - {self.dest}"


@dataclass(frozen=True)
class Convoy(Order):
    """`F ENG C A Lon - Bre`: convoy the army `target` to `dest`."""

    target: UnitSpec
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.target} - {self.dest}"


@dataclass(frozen=True)
class Retreat(Order):
    """`A Par R Bur`: a dislodged unit retreats to `dest`."""

    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} R {self.dest}"


@dataclass(frozen=True)
class Disband(Order):
    """`A Par D`: a dislodged unit is disbanded."""

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True)
class Build(Order):
    """Build the unit `unit` (type and location given)."""

    def __str__(self) -> str:
        return f"Build {self.unit}"


@dataclass(frozen=True)
class Remove(Order):
    """`Remove A Par`: remove the unit in an adjustment phase."""

    def __str__(self) -> str:
        return f"Remove {self.unit}"


@dataclass(frozen=True)
class Waive:
    """Decline one build."""

    def __str__(self) -> str:
        return "Waive"


AnyOrder = Order | Waive
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)
