"""Why an order is void, as a value: a kind (`Void`) and the fields its words need (`Reason`).

The adjudicators say why an order is void with a `Reason` (OrderResult.why), never by words a
reader has to take apart again; gm.engine.reason_words is the one place that words a reason,
for the reports (`words`, "void: replaced by a later order") and for the reply refusing an
order on arrival (`refusal`, "replaced by a later order"). A Reason is kept with the stored
results as JSON (`to_json`, `from_json`).
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Reason:
    """Why an order is void: its kind and the fields it names (the others left empty)."""

    kind: Void
    power: str = ""
    unit: str = ""
    province: str = ""
    other: str = ""
    count: int = 0
    names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The kind and the fields given (JSON object)."""
        out: dict[str, Any] = {"kind": self.kind.value}
        for key, value in (("power", self.power), ("unit", self.unit),
                           ("province", self.province), ("other", self.other)):
            if value:
                out[key] = value
        if self.count:
            out["count"] = self.count
        if self.names:
            out["names"] = list(self.names)
        return out

    @staticmethod
    def from_json(data: object) -> Reason | None:
        """The reason `to_json` wrote, or None for anything else (a kind not known here)."""
        if not isinstance(data, dict):
            return None
        try:
            kind = Void(str(data.get("kind")))
        except ValueError:
            return None
        texts = {k: data.get(k, "") for k in ("power", "unit", "province", "other")}
        count, names = data.get("count", 0), data.get("names", [])
        if not all(isinstance(v, str) for v in texts.values()) or not isinstance(count, int) \
                or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return None
        return Reason(kind, texts["power"], texts["unit"], texts["province"], texts["other"],
                      count, tuple(names))


REPLACED = Reason(Void.REPLACED)
"""An earlier order for the same unit: an email judge keeps a power's latest order."""
