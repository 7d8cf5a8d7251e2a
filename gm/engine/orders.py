"""Orders as typed frozen values.

An order names its unit the way the player did (`UnitSpec`: the type may be missing, the coast
may be missing); the engine's legality check (gm.engine.legality) resolves it against the board.
Every order prints as canonical text (`str(order)`) that the order parser reads back to an equal
value.

Each class is a frozen value written out (plain classes, which compile to native classes):
orders are `Record`s (gm.engine.record), equal, hashed and shown by their fields.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from gm.engine.geo import Location
from gm.engine.record import Ordered, Record
from gm.engine.units import UnitType


class UnitSpec(Ordered):
    """A unit as an order names it: `A Par`, `F Spa/sc`, or just `Par` (type left out). A frozen
    value, ordered by (type, location)."""

    __slots__ = ("location", "type")
    __match_args__: ClassVar[tuple[str, ...]] = ("type", "location")

    def __init__(self, type: UnitType | None, location: Location) -> None:
        self.type: Final = type
        self.location: Final = location

    def __repr__(self) -> str:
        return f"UnitSpec(type={self.type!r}, location={self.location!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is UnitSpec:
            return self.type is other.type and self.location == other.location
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.type, self.location))

    def _key(self) -> tuple[UnitType | None, Location]:
        return (self.type, self.location)

    def __str__(self) -> str:
        return str(self.location) if self.type is None else f"{self.type.value} {self.location}"

    @property
    def province(self) -> str:
        return self.location.province


class Order(Record):
    """Base of all unit orders (each a frozen value with a canonical `__str__`)."""

    __slots__ = ("unit",)
    __match_args__: ClassVar[tuple[str, ...]] = ("unit",)

    def __init__(self, unit: UnitSpec) -> None:
        self.unit: Final = unit

    def _values(self) -> tuple[object, ...]:
        return (self.unit,)


class Hold(Order):
    """`A Par H`: the unit stays where it is."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.unit} H"


class Move(Order):
    """`A Par - Bur`: move to `dest`; `via_convoy` when the player asked for a convoy."""

    __slots__ = ("dest", "via_convoy")
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "dest", "via_convoy")

    def __init__(self, unit: UnitSpec, dest: Location, via_convoy: bool = False) -> None:
        Order.__init__(self, unit)
        self.dest: Final = dest
        self.via_convoy: Final = via_convoy

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.dest, self.via_convoy)

    def __str__(self) -> str:
        return f"{self.unit} - {self.dest}" + (" via convoy" if self.via_convoy else "")


class SupportHold(Order):
    """`A Mar S A Par`: support `target` where it stands."""

    __slots__ = ("target",)
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "target")

    def __init__(self, unit: UnitSpec, target: UnitSpec) -> None:
        Order.__init__(self, unit)
        self.target: Final = target

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.target)

    def __str__(self) -> str:
        return f"{self.unit} S {self.target}"


class SupportMove(Order):
    """`A Mar S A Par - Bur`: support `target` moving to `dest`."""

    __slots__ = ("dest", "target")
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "target", "dest")

    def __init__(self, unit: UnitSpec, target: UnitSpec, dest: Location) -> None:
        Order.__init__(self, unit)
        self.target: Final = target
        self.dest: Final = dest

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.target, self.dest)

    def __str__(self) -> str:
        return f"{self.unit} S {self.target} - {self.dest}"


class Convoy(Order):
    """`F ENG C A Lon - Bre`: convoy the army `target` to `dest`."""

    __slots__ = ("dest", "target")
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "target", "dest")

    def __init__(self, unit: UnitSpec, target: UnitSpec, dest: Location) -> None:
        Order.__init__(self, unit)
        self.target: Final = target
        self.dest: Final = dest

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.target, self.dest)

    def __str__(self) -> str:
        return f"{self.unit} C {self.target} - {self.dest}"


class Retreat(Order):
    """`A Par R Bur`: a dislodged unit retreats to `dest`."""

    __slots__ = ("dest",)
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "dest")

    def __init__(self, unit: UnitSpec, dest: Location) -> None:
        Order.__init__(self, unit)
        self.dest: Final = dest

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.dest)

    def __str__(self) -> str:
        return f"{self.unit} R {self.dest}"


class Disband(Order):
    """`A Par D`: a dislodged unit is disbanded."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.unit} D"


class Build(Order):
    """Build the unit `unit` (type and location given)."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"Build {self.unit}"


class Remove(Order):
    """`Remove A Par`: remove the unit in an adjustment phase."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"Remove {self.unit}"


class Waive(Record):
    """Decline one build."""

    __slots__ = ()

    def __str__(self) -> str:
        return "Waive"


# -- orders of the variants (Variant.order_kinds names which a variant allows) ----------------
class Embark(Order):
    """`A Lon boards F ENG` (kind "af"; Abstraction2 rule 3, Deluge II rule 8): the army boards
    the fleet in the adjacent sea `fleet` before movement, forming an A/F there."""

    __slots__ = ("fleet",)
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "fleet")

    def __init__(self, unit: UnitSpec, fleet: Location) -> None:
        Order.__init__(self, unit)
        self.fleet: Final = fleet

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.fleet)

    def __str__(self) -> str:
        return f"{self.unit} boards F {self.fleet}"


class Disembark(Order):
    """`A/F ENG disembarks Bre` (kind "af"): the army of the A/F `unit` lands in `dest`, a coastal
    province next to the A/F's sea (or next to the sea the A/F moves to in the same phase). It
    comes beside the fleet element's own order, which a power gives as usual for the A/F."""

    __slots__ = ("dest",)
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "dest")

    def __init__(self, unit: UnitSpec, dest: Location) -> None:
        Order.__init__(self, unit)
        self.dest: Final = dest

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.dest)

    def __str__(self) -> str:
        return f"{self.unit} disembarks {self.dest}"


class Transform(Order):
    """`A Bre transforms` (kind "transform"; Deluge II rule 2): the army becomes a fleet where it
    stands at the end of the phase unless dislodged; `coast` names the coast in a province with
    more than one (`A Spa transforms to F Spa/sc`)."""

    __slots__ = ("coast",)
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "coast")

    def __init__(self, unit: UnitSpec, coast: Location | None = None) -> None:
        Order.__init__(self, unit)
        self.coast: Final = coast

    def _values(self) -> tuple[object, ...]:
        return (self.unit, self.coast)

    def __str__(self) -> str:
        return f"{self.unit} transforms" + (f" to F {self.coast}" if self.coast else "")


class KeepFleet(Order):
    """`F ION no change` (kind "keep fleet"; Sahara rule 2): if this fleet is stranded inland this
    season it is disbanded instead of becoming an army. Given beside the fleet's movement order."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.unit} no change"


class Exchange(Record):
    """`Exchange Bel Den for Hol Kie with Germany` (kind "exchange"; Abstraction2 rule 6): this
    power gives `give` to `partner` and receives `receive`; both powers must order it."""

    __slots__ = ("give", "partner", "receive")
    __match_args__: ClassVar[tuple[str, ...]] = ("partner", "give", "receive")

    def __init__(self, partner: str, give: tuple[str, ...], receive: tuple[str, ...]) -> None:
        self.partner: Final = partner
        self.give: Final = give
        self.receive: Final = receive

    def _values(self) -> tuple[object, ...]:
        return (self.partner, self.give, self.receive)

    def __str__(self) -> str:
        return f"Exchange {' '.join(self.give)} for {' '.join(self.receive)} with {self.partner}"


class DesignateHome(Record):
    """`Home Bel` (kind "home"; Chaos II rules 4-5): make an owned centre a home centre."""

    __slots__ = ("province",)
    __match_args__: ClassVar[tuple[str, ...]] = ("province",)

    def __init__(self, province: str) -> None:
        self.province: Final = province

    def _values(self) -> tuple[object, ...]:
        return (self.province,)

    def __str__(self) -> str:
        return f"Home {self.province}"


class Alliance(Record):
    """`Alliance Paris Berlin` (kind "alliance"; Chaos II rule 6): the other members of the
    alliance this power declares, named as the player wrote them (the variant resolves them)."""

    __slots__ = ("powers",)
    __match_args__: ClassVar[tuple[str, ...]] = ("powers",)

    def __init__(self, powers: tuple[str, ...]) -> None:
        self.powers: Final = powers

    def _values(self) -> tuple[object, ...]:
        return (self.powers,)

    def __str__(self) -> str:
        # Names of several words (`St Petersburg`) are separated by commas so they read back.
        if not any(len(p.split()) > 1 for p in self.powers):
            return "Alliance " + " ".join(self.powers)
        return "Alliance " + ", ".join(self.powers) + ("," if len(self.powers) == 1 else "")


class GeoKind(StrEnum):
    """Geophysical rule 2's events."""

    UPLIFT = "Uplift"
    ERODE = "Erode"
    OROGENESIS = "Orogenesis"
    EARTHQUAKE = "Earthquake"
    ICE_ADVANCE = "Ice advance"
    ICE_RETREAT = "Ice retreat"


class GeoTarget(Record):
    """A space (`Mos`) or, with `other`, the border between two spaces (`Mun-Ber`). Ordered by
    (province, other)."""

    __slots__ = ("other", "province")
    __match_args__: ClassVar[tuple[str, ...]] = ("province", "other")

    def __init__(self, province: str, other: str | None = None) -> None:
        self.province: Final = province
        self.other: Final = other

    def _values(self) -> tuple[object, ...]:
        return (self.province, self.other)

    def _key(self) -> tuple[object, ...]:
        return self._values()

    @property
    def is_border(self) -> bool:
        return self.other is not None

    @property
    def key(self) -> tuple[str, ...]:
        """The same for `Mun-Ber` and `Ber-Mun`."""
        return tuple(sorted((self.province, self.other))) if self.other else (self.province,)

    def __str__(self) -> str:
        return f"{self.province}-{self.other}" if self.other else self.province


class GeoEvent(Record):
    """`Erode Mos`, `Earthquake Mun-Ber`, `Ice advance BAR` (kind "geo"; Geophysical rule 2)."""

    __slots__ = ("kind", "target")
    __match_args__: ClassVar[tuple[str, ...]] = ("kind", "target")

    def __init__(self, kind: GeoKind, target: GeoTarget) -> None:
        self.kind: Final = kind
        self.target: Final = target

    def _values(self) -> tuple[object, ...]:
        return (self.kind, self.target)

    def __str__(self) -> str:
        return f"{self.kind.value} {self.target}"


class SupportEvent(Record):
    """`Support Turkish Erode Mos` (kind "geo"; rule 3): this power's event supports `power`'s
    `event`. `power` is as the player wrote it (name or adjective); the variant resolves it."""

    __slots__ = ("event", "power")
    __match_args__: ClassVar[tuple[str, ...]] = ("power", "event")

    def __init__(self, power: str, event: GeoEvent) -> None:
        self.power: Final = power
        self.event: Final = event

    def _values(self) -> tuple[object, ...]:
        return (self.power, self.event)

    def __str__(self) -> str:
        return f"Support {self.power} {self.event}"


class CreateCentre(Record):
    """`Create centre Bur` (kind "geo"; rule 7): in a Spring, instead of an event."""

    __slots__ = ("province",)
    __match_args__: ClassVar[tuple[str, ...]] = ("province",)

    def __init__(self, province: str) -> None:
        self.province: Final = province

    def _values(self) -> tuple[object, ...]:
        return (self.province,)

    def __str__(self) -> str:
        return f"Create centre {self.province}"


class Stabilize(Record):
    """`2 Stabilize Mos`, `Stabilize Mun-Ber` (kind "geo"; rules 1b, 3)."""

    __slots__ = ("count", "target")
    __match_args__: ClassVar[tuple[str, ...]] = ("target", "count")

    def __init__(self, target: GeoTarget, count: int = 1) -> None:
        self.target: Final = target
        self.count: Final = count

    def _values(self) -> tuple[object, ...]:
        return (self.target, self.count)

    def __str__(self) -> str:
        return ("" if self.count == 1 else f"{self.count} ") + f"Stabilize {self.target}"


PowerOrder = (
    Exchange | DesignateHome | Alliance | GeoEvent | SupportEvent | CreateCentre | Stabilize
)
"""Orders given by a power as a whole, not by one of its units."""

AnyOrder = Order | Waive | PowerOrder
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)
