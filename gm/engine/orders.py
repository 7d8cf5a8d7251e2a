"""Orders as typed frozen values.

An order names its unit the way the player did (`UnitSpec`: the type may be missing, the coast
may be missing); the engine's legality check (gm.engine.legality) resolves it against the board.
Every order prints as canonical text (`str(order)`) that the order parser reads back to an equal
value.

Each class is a frozen dataclass (gm.engine.frozen says why), equal, hashed and shown by its
fields. The player's word for a kind of order is its class's name in lower case, or the one
`WORDS` gives (read by `order_word`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gm.engine.geo import Location
from gm.engine.phase import PhaseType
from gm.engine.units import UnitType


@dataclass(frozen=True, order=True)
class UnitSpec:
    """A unit as an order names it: `A Par`, `F Spa/sc`, or just `Par` (type left out). A frozen
    value, ordered by (type, location)."""

    type: UnitType | None
    location: Location

    def __str__(self) -> str:
        return str(self.location) if self.type is None else f"{self.type.value} {self.location}"

    @property
    def province(self) -> str:
        return self.location.province


@dataclass(frozen=True)
class Order:
    """Base of all unit orders (each a frozen value with a canonical `__str__`)."""

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


# -- orders of the variants (Variant.order_kinds names which a variant allows) ----------------
@dataclass(frozen=True)
class Embark(Order):
    """`A Lon boards F ENG` (kind "af"; Abstraction2 rule 3, Deluge II rule 8): the army boards
    the fleet in the adjacent sea `fleet` before movement, forming an A/F there."""

    fleet: Location

    def __str__(self) -> str:
        return f"{self.unit} boards F {self.fleet}"


@dataclass(frozen=True)
class Disembark(Order):
    """`A/F ENG disembarks Bre` (kind "af"): the army of the A/F `unit` lands in `dest`, a coastal
    province next to the A/F's sea (or next to the sea the A/F moves to in the same phase). It
    comes beside the fleet element's own order, which a power gives as usual for the A/F."""

    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} disembarks {self.dest}"


@dataclass(frozen=True)
class Transform(Order):
    """`A Bre transforms` (kind "transform"; Deluge II rule 2): the army becomes a fleet where it
    stands at the end of the phase unless dislodged; `coast` names the coast in a province with
    more than one (`A Spa transforms to F Spa/sc`)."""

    coast: Location | None = None

    def __str__(self) -> str:
        return f"{self.unit} transforms" + (f" to F {self.coast}" if self.coast else "")


@dataclass(frozen=True)
class KeepFleet(Order):
    """`F ION no change` (kind "keep fleet"; Sahara rule 2): if this fleet is stranded inland this
    season it is disbanded instead of becoming an army. Given beside the fleet's movement order."""

    def __str__(self) -> str:
        return f"{self.unit} no change"


@dataclass(frozen=True)
class Exchange:
    """`Exchange Bel Den for Hol Kie with Germany` (kind "exchange"; Abstraction2 rule 6): this
    power gives `give` to `partner` and receives `receive`; both powers must order it."""

    partner: str
    give: tuple[str, ...]
    receive: tuple[str, ...]

    def __str__(self) -> str:
        return f"Exchange {' '.join(self.give)} for {' '.join(self.receive)} with {self.partner}"


@dataclass(frozen=True)
class DesignateHome:
    """`Home Bel` (kind "home"; Chaos II rules 4-5): make an owned centre a home centre."""

    province: str

    def __str__(self) -> str:
        return f"Home {self.province}"


@dataclass(frozen=True)
class Alliance:
    """`Alliance Paris Berlin` (kind "alliance"; Chaos II rule 6): the other members of the
    alliance this power declares, named as the player wrote them (the variant resolves them)."""

    powers: tuple[str, ...]

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


@dataclass(frozen=True, order=True)
class GeoTarget:
    """A space (`Mos`) or, with `other`, the border between two spaces (`Mun-Ber`). Ordered by
    (province, other)."""

    province: str
    other: str | None = None

    @property
    def is_border(self) -> bool:
        return self.other is not None

    @property
    def key(self) -> tuple[str, ...]:
        """The same for `Mun-Ber` and `Ber-Mun`."""
        return tuple(sorted((self.province, self.other))) if self.other else (self.province,)

    def __str__(self) -> str:
        return f"{self.province}-{self.other}" if self.other else self.province


@dataclass(frozen=True)
class GeoEvent:
    """`Erode Mos`, `Earthquake Mun-Ber`, `Ice advance BAR` (kind "geo"; Geophysical rule 2)."""

    kind: GeoKind
    target: GeoTarget

    def __str__(self) -> str:
        return f"{self.kind.value} {self.target}"


@dataclass(frozen=True)
class SupportEvent:
    """`Support Turkish Erode Mos` (kind "geo"; rule 3): this power's event supports `power`'s
    `event`. `power` is as the player wrote it (name or adjective); the variant resolves it."""

    power: str
    event: GeoEvent

    def __str__(self) -> str:
        return f"Support {self.power} {self.event}"


@dataclass(frozen=True)
class CreateCentre:
    """`Create centre Bur` (kind "geo"; rule 7): in a Spring, instead of an event."""

    province: str

    def __str__(self) -> str:
        return f"Create centre {self.province}"


@dataclass(frozen=True)
class Stabilize:
    """`2 Stabilize Mos`, `Stabilize Mun-Ber` (kind "geo"; rules 1b, 3)."""

    target: GeoTarget
    count: int = 1

    def __str__(self) -> str:
        return ("" if self.count == 1 else f"{self.count} ") + f"Stabilize {self.target}"


PowerOrder = (
    Exchange | DesignateHome | Alliance | GeoEvent | SupportEvent | CreateCentre | Stabilize
)
"""Orders given by a power as a whole, not by one of its units."""

AnyOrder = Order | Waive | PowerOrder


WORDS: dict[type, str] = {
    SupportHold: "support",
    SupportMove: "support",
    Remove: "removal",
    KeepFleet: "keep fleet",
    DesignateHome: "home",
    GeoEvent: "geophysical event",
    SupportEvent: "support of an event",
    CreateCentre: "centre creation",
}
"""The player's word for the kinds of order whose class name is not it."""


def order_word(order: object) -> str:
    """The player's word for `order`'s kind ("support", "removal", "geophysical event"): its
    class's in `WORDS`, or its class's name in lower case ("move", "build", "exchange")."""
    return WORDS.get(type(order)) or type(order).__name__.lower()
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)

PHASE_ORDERS: dict[PhaseType, tuple[type, ...]] = {
    # the variants' unit orders of the movement phase: boarding and landing (Abstraction2 rule
    # 3), transforming (Deluge II rule 2), keeping a fleet (Sahara rule 2)
    PhaseType.MOVEMENT: (*MOVEMENT_ORDERS, Embark, Disembark, Transform, KeepFleet),
    PhaseType.RETREAT: RETREAT_ORDERS,
    # "A Par disband" in an adjustment phase is a removal (gm.engine.legality)
    PhaseType.ADJUSTMENT: (*ADJUSTMENT_ORDERS, Disband),
}
"""The unit orders (and waivers) each kind of phase takes (Rulebook: orders by phase)."""
