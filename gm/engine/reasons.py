"""Why an order had its result, as a value: a kind (`Void` for the void orders, `Fate` for all
the others) and the fields its words need (`Reason`).

The adjudicators give every result a `Reason` (OrderResult.why), never words a reader has to
take apart again; gm.engine.reason_words is the one place that words a reason, for the reports
(`words`, "void: replaced by a later order", "bounced with A Mun (1 against 1)") and for the
reply refusing an order on arrival (`refusal`, "replaced by a later order"). A reason may be
followed by others (`parts`: "bounced ...; dislodged by ..."). A Reason is kept with the stored
results as JSON (`to_json`, `from_json`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class Void(StrEnum):
    """The kinds of void orders, each with the rule that makes it void."""

    # an email judge keeps a power's latest order for a unit (gm.engine.legality)
    REPLACED = "replaced"
    # adjustments (rules: one removal a unit, a power's count, one build a site)
    ALREADY_REMOVED = "already removed"  # unit
    REMOVE_ONLY = "remove only"  # power, count
    BUILD_ONLY = "build only"  # power, count
    ALREADY_BUILT = "already built"  # province
    # a support or convoy the supported or convoyed unit's own order does not match
    SUPPORT_DID_NOT_HOLD = "support: did not hold"  # unit, province (where it moved)
    SUPPORT_MOVED_ELSEWHERE = "support: moved elsewhere"  # unit, province, other (supported)
    SUPPORT_DID_NOT_MOVE = "support: did not move"  # unit, province (supported to)
    CONVOY_MOVED_ELSEWHERE = "convoy: moved elsewhere"  # unit, province, other (convoyed to)
    CONVOY_DID_NOT_MOVE = "convoy: did not move"  # unit, province (convoyed to)
    # Geophysical rule 1a: one event per movement phase
    EVENT_REPLACED = "event replaced"
    # Chaos II rules 4 to 6
    DECLARATION_REPLACED = "declaration replaced"
    ALLIANCE_NOT_IN_WINTER = "alliance not in a Winter"
    NO_SUCH_POWER = "no such power"  # names
    HOME_NOT_IN_WINTER = "home not in a Winter"
    NOT_A_CENTRE = "not a centre"  # province
    ALREADY_HOME = "already a home"  # province, power
    NOT_OWNED = "not owned"  # power, province
    NOT_OWNED_LAST_WINTER = "not owned last Winter"  # power, province
    HOME_STATUS_LOST = "home status lost"  # province
    HOMES_USED = "designations used"  # power


class Fate(StrEnum):
    """The kinds of every other result: carried out, failed, or refused as an order error.
    Fields as noted (`convoy`: the move went by convoy; `count` against `against`: the
    strengths)."""

    NOTHING = "nothing"  # no reason given
    REFUSED_ON_ARRIVAL = "refused on arrival"  # an order refused by the reply to its message
    POWER_UNKNOWN = "no power called"  # other (the name written), names (the variant's title)
    POWER_UNNAMED = "no power named"  # names (the variant's title)
    STATED = "stated"  # other: the sentence a variant's rule text gives, as it gives it
    NO_ORDER = "no order"  # parts: what became of the unit without an order
    ORDER_ERROR = "order error"  # other: the ErrorCode, facts: its fields (gm.engine.errors)
    AMBIGUOUS = "ambiguous"  # as ORDER_ERROR, an ambiguous order (a coast not determined)
    UNREADABLE = "unreadable"
    # movement (gm.engine.movement)
    HOLDS = "holds"
    MOVES = "moves"  # province, convoy
    MOVES_CIRCULAR = "moves in a circle"  # province, convoy
    MOVES_DISLODGING = "moves, dislodging"  # province, convoy, unit
    NO_CONVOY_ROUTE = "no convoy route"
    CONVOY_PARADOX_MOVE = "convoy failed: paradox"  # names (the fleets)
    CONVOY_FLEETS_DISLODGED = "convoy fleets dislodged"  # names (the fleets)
    OWN_UNIT = "own unit"  # unit
    SHIELDED = "cannot be dislodged there"  # unit
    FAILED_TO_MOVE = "failed to move"  # province
    BOUNCED = "bounced"  # unit, count, against
    OUTMATCHED = "outmatched"  # unit, count (its strength), against (the move's)
    SUPPORTS = "supports"  # unit
    SUPPORTS_MOVE = "supports a move"  # unit, province
    SUPPORT_CUT_BY = "support cut by"  # unit
    SUPPORT_CUT = "support cut"  # by dislodgement: a DISLODGED part follows
    CONVOY_PARADOX = "convoy paradox"
    CONVOY_DISRUPTED = "convoy disrupted"
    CONVOY_NOT_USED = "convoy not used"  # unit
    CONVOYS = "convoys"  # unit, province
    CONVOYS_IN_VAIN = "convoys in vain"  # unit, province
    DISLODGED = "dislodged"  # unit (the attacker, where it came from), power, convoy
    HOLDER_HOLDS = "the unit holds"  # unit (a unit whose orders were all illegal); parts
    # retreats (gm.engine.retreats)
    RETREATS = "retreats"  # province
    RETREATS_CLASHED = "retreats clashed"  # names (the others), province
    DISBANDED = "disbanded"
    UNIT_DISBANDED = "unit disbanded"  # unit
    NO_RETREAT_ORDER = "no retreat order"
    NO_RETREAT_PLACE = "no place to retreat to"
    # adjustments (gm.engine.adjustments)
    # the variants' own (gm.variants, each with its rule)
    UNIT_FATE = "the unit's fate"  # unit; parts: what became of it ("A Par holds")
    BECOMES = "becomes"  # unit (the fleet an army becomes: Transform)
    # Deluge II rule 2 (Transform): unit, province; names, the coasts to choose from
    NOT_AN_ARMY = "not an army"  # unit
    NOT_COASTAL = "not coastal"  # province
    COAST_NOT_SAID = "coast not said"  # province, names
    NOT_A_COAST = "not a coast"  # other (the coast said), province, names
    # Chaos II rule 6: alliances
    ALLIANCE_ALONE = "alliance of one"
    ALLIANCE_NOT_DECLARED = "alliance not declared"  # names (the powers that did not)
    ALLIANCE_OTHERS_NAMED = "alliance names others"  # names (the powers that named others)
    ALLIANCE_TOO_MANY = "alliance too large"  # count (members), against (powers left), other
    ALLIANCE_TOO_SMALL = "alliance too small"  # count (their centres), against (needed)
    DISLODGED_ONLY = "dislodged, no more said"
    ALLIANCE_TALLIES = "alliance tallies"  # names (the members), count (their centres)
    HOME_AGAIN_START = "starting centre a home again"  # province, power
    HOME_AGAIN = "home again"  # province, power
    BECOMES_HOME = "becomes a home"  # province, power, count (designations left)
    EXCHANGE_NOT_ORDERED = "exchange not ordered"  # power (the partner)
    EXCHANGE_DIFFERENT = "different exchange"  # power (the partner)
    EXCHANGE_PARTNER_CANNOT = "partner cannot exchange"  # power (the partner)
    EXCHANGES = "exchanges"  # power, other (the partner), names (given), more (received)
    EXCHANGE_NOT_IN_PHASE = "exchange not in this phase"
    # Abstraction2 rule 6: why a power's own side of an exchange cannot be carried out
    EXCHANGE_NO_SUCH_POWER = "exchange: no such power"  # other (the partner as written)
    EXCHANGE_WITH_ITSELF = "exchange with itself"
    EXCHANGE_CENTRES_UNNAMED = "exchange: centres not named"
    EXCHANGE_UNEQUAL = "exchange: unequal"  # count (given), against (received)
    EXCHANGE_NAMED_TWICE = "exchange: a centre named twice"
    EXCHANGE_NOT_A_CENTRE = "exchange: not a centre"  # province
    EXCHANGE_NOT_OWNED = "exchange: not owned"  # power, province
    EXCHANGE_OCCUPIED = "exchange: still occupied"  # power, province, unit
    NO_CHANGE_NOT_NOW = "no change not now"
    NO_UNIT = "no unit"  # power, province
    NOT_A_FLEET = "not a fleet"  # unit
    KEEPS_FLEET = "keeps a fleet"  # unit
    FROZEN_CONVOY = "frozen, no convoy"  # province, unit
    DESTROYED_BEFORE = "destroyed before movement"  # province, other (how)
    EVENTS_NOT_NOW = "events in movement only"
    # Geophysical rules 1 to 3, 7, 8: why an event, a stabilisation or a fleet's order is refused
    OFF_THE_BOARD = "not on the board"  # province (its full name)
    NO_SUCH_SPACE = "no such space"  # province
    NO_SHARED_BORDER = "no shared border"  # province, other
    EARTHQUAKE_ON_A_SPACE = "earthquake on a space"
    EVENT_ON_A_BORDER = "event on a border"  # other (the event's kind)
    UPLIFT_NOT_WATER = "uplift not on water"  # province, other (its terrain)
    ERODE_NOT_LAND = "erosion not on land"  # province, other (its terrain)
    OROGENESIS_NOT_LAND = "orogenesis not on land"  # province, other (its terrain)
    ALREADY_ICED = "already iced"  # province
    ICE_OUT_OF_REACH = "ice out of reach"  # province
    NOT_ICED = "not iced"  # province
    ICE_SURROUNDED = "surrounded by ice"  # province
    CREATE_NOT_IN_SPRING = "centre created outside a Spring"
    CREATE_NOT_ON_LAND = "centre created off land"  # province, other (its terrain)
    ALREADY_A_CENTRE = "already a centre"  # province
    SUPPORT_NO_SUCH_POWER = "event support: no such power"  # other (the power as written)
    SUPPORT_OWN_EVENT = "support of its own event"
    STABILISE_NONE = "stabilisation count below 1"
    STABILISE_ALLOWANCE = "stabilisations used up"  # power, count (centres), other (ordered)
    # a stabilisation cut down to the allowance: power, count (kept), against (ordered), other
    # (centres owned), province (already ordered: STABILISE_TRIMMED_AFTER); its result follows
    STABILISE_TRIMMED = "stabilisation trimmed"
    STABILISE_TRIMMED_AFTER = "stabilisation trimmed after others"
    OVERCOME_BY = "overcome by"  # parts: the events (AN_EVENT_OF_STRENGTH)
    HOLDS_AGAINST = "holds against"  # parts: the events (AN_EVENT)
    NO_EVENT_THERE = "no event there"
    AN_EVENT = "an event"  # power, other (the event)
    AN_EVENT_OF_STRENGTH = "an event and its strength"  # power, other (the event), count, against
    ENGULFED_BY_ICE = "engulfed by ice"  # unit
    INTO_ICE = "into ice"  # province, unit
    # Geophysical rule 3: count, the event's strength, against, the stabilisations against it
    EVENT_SUCCEEDS = "event succeeds"  # count, against
    EVENT_NO_CHANGE = "event fails"  # count, against
    SUPPORT_ADDS_SUCCEEDS = "support adds, event succeeds"  # power, other (event), count, against
    SUPPORT_ADDS_FAILS = "support adds, event fails"  # power, other (event), count, against
    NOTHING_TO_SUPPORT = "nothing to support"  # power, other (the event it ordered)
    NO_EVENT_TO_SUPPORT = "no event to support"  # power
    NEUTRAL_CENTRE = "a neutral centre"
    BUILD_KIND_ONLY = "build kind only"  # unit, other (armies or fleets), province
    REMOVED = "removed"  # unit
    WAIVED = "waived"
    BUILDS = "builds"  # unit
    # civil disorder (DATC 6.J): count, the moves from `other` (-1: `other` out of reach)
    DISORDER = "civil disorder"  # count, other
    # the A/F rules (Abstraction2 rule 3): names, the fleet that stays
    RETREATS_ABOARD = "retreats aboard"  # province
    RETREATS_AS_FLEET = "retreats as a fleet"  # province
    AF_ARMY_REMOVED = "army of A/F removed"  # unit, names
    AF_REMOVED = "A/F removed"  # unit
    AF_DISORDER_ARMY = "army of A/F removed by civil disorder"  # unit, names, count, other
    AF_DISORDER = "A/F removed by civil disorder"  # count, other
    BOARDS = "boards"  # province (the fleet's place)
    BOARD_CLASH = "boarders clash"  # names (the armies), province (the sea)
    CIRCULAR_STAND = "circular reasoning"
    AF_STAYS = "A/F stays"  # province (where its army did not land)
    STAYS_ABOARD = "stays aboard"  # province (the sea)
    LANDS = "lands"  # province
    LANDS_DISLODGING = "lands, dislodging"  # province, unit
    ARMY_STAYS_ABOARD = "the army stays aboard"
    CARRIER_DID_NOT_REACH = "carrier did not reach"  # unit, province
    LANDING_EXCEPTED = "landing excepted"
    CARRIES_ABOARD = "carries, stays aboard"  # unit, province (not landed in), other (the sea)
    DISLODGED_BY_LANDING = "dislodged by a landing"  # unit (the army), province (from)


Kind = Void | Fate
Facts = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Reason:
    """Why an order had its result: its kind and the fields it names (the others left empty),
    then the reasons that follow it (`parts`)."""

    kind: Kind
    power: str = ""
    unit: str = ""
    province: str = ""
    other: str = ""
    count: int = 0
    names: tuple[str, ...] = ()
    against: int = 0
    convoy: bool = False
    facts: Facts = ()
    parts: tuple[Reason, ...] = ()
    more: tuple[str, ...] = ()

    @property
    def is_void(self) -> bool:
        """Whether the order is void (a `Void` kind): not carried out, or its help not given."""
        return isinstance(self.kind, Void)

    def then(self, *more: Reason) -> Reason:
        """This reason followed by `more`."""
        return replace(self, parts=self.parts + more)

    @staticmethod
    def stated(text: str) -> Reason:
        """A sentence a variant's rule text gives as it is (Fate.STATED; "": Fate.NOTHING)."""
        return Reason(Fate.STATED, other=text) if text else NOTHING

    def to_json(self) -> dict[str, Any]:
        """The kind and the fields given (JSON object)."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if isinstance(self.kind, Fate):
            out["fate"] = True
        for key, value in (("power", self.power), ("unit", self.unit),
                           ("province", self.province), ("other", self.other)):
            if value:
                out[key] = value
        if self.count:
            out["count"] = self.count
        if self.names:
            out["names"] = list(self.names)
        if self.against:
            out["against"] = self.against
        if self.convoy:
            out["convoy"] = True
        if self.facts:
            out["facts"] = [list(pair) for pair in self.facts]
        if self.parts:
            out["parts"] = [part.to_json() for part in self.parts]
        if self.more:
            out["more"] = list(self.more)
        return out

    @staticmethod
    def from_json(data: object) -> Reason | None:
        """The reason `to_json` wrote, or None for anything else (a kind not known here)."""
        if not isinstance(data, dict):
            return None
        try:
            kind: Kind = (Fate if data.get("fate") is True else Void)(str(data.get("kind")))
        except ValueError:
            return None
        texts = {k: data.get(k, "") for k in ("power", "unit", "province", "other")}
        count, names, against = data.get("count", 0), data.get("names", []), data.get("against", 0)
        facts, parts, more = data.get("facts", []), data.get("parts", []), data.get("more", [])
        if not all(isinstance(v, str) for v in texts.values()) or not isinstance(count, int) \
                or not isinstance(names, list) or not all(isinstance(n, str) for n in names) \
                or not isinstance(against, int) or not isinstance(facts, list) \
                or not all(isinstance(f, list) and len(f) == 2
                           and all(isinstance(x, str) for x in f) for f in facts) \
                or not isinstance(parts, list) or not isinstance(more, list) \
                or not all(isinstance(m, str) for m in more):
            return None
        read = [Reason.from_json(part) for part in parts]
        if any(part is None for part in read):
            return None
        return Reason(kind, texts["power"], texts["unit"], texts["province"], texts["other"],
                      count, tuple(names), against, data.get("convoy") is True,
                      tuple((f[0], f[1]) for f in facts),
                      tuple(part for part in read if part is not None), tuple(more))


NOTHING = Reason(Fate.NOTHING)
"""No reason given."""

REPLACED = Reason(Void.REPLACED)
"""An earlier order for the same unit: an email judge keeps a power's latest order."""

UNREADABLE = Reason(Fate.UNREADABLE)
"""An order that could not be read, with no error to say why."""
