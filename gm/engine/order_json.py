"""Orders as JSON values, written and read without the order grammar or a map.

An order read once from a player's text is kept in this form beside the text (gm.store), and
read back as the same value (`decode(encode(order)) == order`) by every later reader:
adjudication, the pictures, the tick, the power's later messages. The form names everything
as the order does (canonical province abbreviations, lower-case coasts), so it does not
depend on the board: `{"kind": "Move", "unit": {"type": "A", "at": "Par"}, "to": "Bur"}`.

`decode` raises ValueError on anything it does not know (a kind of a later version, a field
missing): the reader then falls back to the order's canonical text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gm.engine.geo import Location
from gm.engine.orders import (
    Alliance,
    AnyOrder,
    Build,
    Convoy,
    CreateCentre,
    DesignateHome,
    Disband,
    Disembark,
    Embark,
    Exchange,
    GeoEvent,
    GeoKind,
    GeoTarget,
    Hold,
    KeepFleet,
    Move,
    Order,
    Remove,
    Retreat,
    Stabilize,
    SupportEvent,
    SupportHold,
    SupportMove,
    Transform,
    UnitSpec,
    Waive,
)
from gm.engine.units import UnitType

Value = dict[str, Any]


def _location(at: Location) -> str:
    return str(at)


def _read_location(data: object) -> Location:
    if not isinstance(data, str) or not data:
        raise ValueError(f"not a location: {data!r}")
    province, slash, coast = data.partition("/")
    if not province or (slash and not coast):
        raise ValueError(f"not a location: {data!r}")
    return Location(province, coast or None)


def _unit(unit: UnitSpec) -> Value:
    return {"type": None if unit.type is None else unit.type.value,
            "at": _location(unit.location)}


def _read_unit(data: object) -> UnitSpec:
    if not isinstance(data, Mapping):
        raise ValueError(f"not a unit: {data!r}")
    kind = data.get("type")
    return UnitSpec(None if kind is None else UnitType(kind), _read_location(data.get("at")))


def _target(target: GeoTarget) -> Value:
    return {"province": target.province, "other": target.other}


def _read_target(data: object) -> GeoTarget:
    if not isinstance(data, Mapping):
        raise ValueError(f"not a space or border: {data!r}")
    return GeoTarget(_text(data, "province"), _optional_text(data, "other"))


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key!r} is not a text: {value!r}")
    return value


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{key!r} is not a text: {value!r}")
    return value


def _texts(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key!r} is not a list of texts: {value!r}")
    return tuple(value)


def _event(event: GeoEvent) -> Value:
    return {"event": event.kind.value, "target": _target(event.target)}


def _read_event(data: object) -> GeoEvent:
    if not isinstance(data, Mapping):
        raise ValueError(f"not an event: {data!r}")
    return GeoEvent(GeoKind(_text(data, "event")), _read_target(data.get("target")))


def encode(order: AnyOrder) -> Value:
    """`order` as a JSON object (its kind, then its fields); TypeError for a kind this
    module does not know (a test keeps every kind of gm.engine.orders known)."""
    kind = type(order).__name__
    if isinstance(order, Order):
        out: Value = {"kind": kind, "unit": _unit(order.unit)}
        if isinstance(order, Hold | Disband | Build | Remove | KeepFleet):
            pass
        elif isinstance(order, Move):
            out["to"] = _location(order.dest)
            if order.via_convoy:
                out["via_convoy"] = True
        elif isinstance(order, SupportHold):
            out["target"] = _unit(order.target)
        elif isinstance(order, SupportMove | Convoy):
            out["target"] = _unit(order.target)
            out["to"] = _location(order.dest)
        elif isinstance(order, Retreat | Disembark):
            out["to"] = _location(order.dest)
        elif isinstance(order, Embark):
            out["fleet"] = _location(order.fleet)
        elif isinstance(order, Transform):
            out["coast"] = None if order.coast is None else _location(order.coast)
        else:
            raise TypeError(f"no JSON form for the order kind {kind}")
        return out
    if isinstance(order, Waive):
        return {"kind": kind}
    if isinstance(order, Exchange):
        return {"kind": kind, "partner": order.partner, "give": list(order.give),
                "receive": list(order.receive)}
    if isinstance(order, DesignateHome | CreateCentre):
        return {"kind": kind, "province": order.province}
    if isinstance(order, Alliance):
        return {"kind": kind, "powers": list(order.powers)}
    if isinstance(order, GeoEvent):
        return {"kind": kind, **_event(order)}
    if isinstance(order, SupportEvent):
        return {"kind": kind, "power": order.power, "supported": _event(order.event)}
    if isinstance(order, Stabilize):
        return {"kind": kind, "target": _target(order.target), "count": order.count}
    raise TypeError(f"no JSON form for the order kind {kind}")


def _unit_order(make: Callable[[UnitSpec, Mapping[str, Any]], AnyOrder]
                ) -> Callable[[Mapping[str, Any]], AnyOrder]:
    return lambda data: make(_read_unit(data.get("unit")), data)


def _count(data: Mapping[str, Any]) -> int:
    count = data.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ValueError(f"not a count: {count!r}")
    return count


_READERS: dict[str, Callable[[Mapping[str, Any]], AnyOrder]] = {
    "Hold": _unit_order(lambda u, d: Hold(u)),
    "Move": _unit_order(lambda u, d: Move(u, _read_location(d.get("to")),
                                          d.get("via_convoy") is True)),
    "SupportHold": _unit_order(lambda u, d: SupportHold(u, _read_unit(d.get("target")))),
    "SupportMove": _unit_order(lambda u, d: SupportMove(u, _read_unit(d.get("target")),
                                                        _read_location(d.get("to")))),
    "Convoy": _unit_order(lambda u, d: Convoy(u, _read_unit(d.get("target")),
                                              _read_location(d.get("to")))),
    "Retreat": _unit_order(lambda u, d: Retreat(u, _read_location(d.get("to")))),
    "Disband": _unit_order(lambda u, d: Disband(u)),
    "Build": _unit_order(lambda u, d: Build(u)),
    "Remove": _unit_order(lambda u, d: Remove(u)),
    "Embark": _unit_order(lambda u, d: Embark(u, _read_location(d.get("fleet")))),
    "Disembark": _unit_order(lambda u, d: Disembark(u, _read_location(d.get("to")))),
    "Transform": _unit_order(lambda u, d: Transform(
        u, None if d.get("coast") is None else _read_location(d.get("coast")))),
    "KeepFleet": _unit_order(lambda u, d: KeepFleet(u)),
    "Waive": lambda d: Waive(),
    "Exchange": lambda d: Exchange(_text(d, "partner"), _texts(d, "give"),
                                   _texts(d, "receive")),
    "DesignateHome": lambda d: DesignateHome(_text(d, "province")),
    "CreateCentre": lambda d: CreateCentre(_text(d, "province")),
    "Alliance": lambda d: Alliance(_texts(d, "powers")),
    "GeoEvent": _read_event,
    "SupportEvent": lambda d: SupportEvent(_text(d, "power"), _read_event(d.get("supported"))),
    "Stabilize": lambda d: Stabilize(_read_target(d.get("target")), _count(d)),
}


def decode(data: object) -> AnyOrder:
    """The order `encode` wrote as `data`; ValueError if `data` is not such an object."""
    if not isinstance(data, Mapping):
        raise ValueError(f"not an order: {data!r}")
    reader = _READERS.get(str(data.get("kind")))
    if reader is None:
        raise ValueError(f"no order kind {data.get('kind')!r}")
    try:
        return reader(data)
    except (TypeError, KeyError) as exc:
        raise ValueError(f"not an order: {data!r} ({exc})") from exc


def decoded(data: object) -> AnyOrder | None:
    """`decode`, or None where `data` is None or not an order this module reads."""
    if data is None:
        return None
    try:
        return decode(data)
    except ValueError:
        return None
