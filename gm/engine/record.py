"""Frozen values, the one way the code writes them, and `Record`, the one exception.

A frozen value is a `@dataclass(frozen=True)`: equal and hashed by its fields, immutable,
understood by mypy, `dataclasses.replace` copies it with some fields changed.

The exception: the values the adjudication builds for every order (locations, units, unit
specs, phases, orders, results, order errors) are written out as plain classes on `Record`
(or `Ordered`): `__slots__`, an `__init__` assigning `Final` fields, `__match_args__` naming
the fields in the order `__init__` takes them, `_values()` returning them. Their modules are
compiled with mypyc (setup.py's COMPILED), where these become native classes built in C. A
dataclass compiles to a native class too, but its generated methods stay interpreted Python and
a frozen one's `__init__` assigns each field through `object.__setattr__`: building one took ten
times as long, and the adjudication benchmark (every scenario file, compiled) took 46% longer
with Location, Unit and Phase alone as frozen dataclasses. `Record` derives equality (same class,
equal fields), the hash and the repr from `_values()`, as a dataclass does from its fields.
`replace` below copies a record or a dataclass with some fields changed.
"""
from __future__ import annotations

from typing import Any, ClassVar, TypeVar

T = TypeVar("T")


class Ordered:
    """A value ordered by `_key()` (<, <=, >, >=), as `@dataclass(order=True)` orders by its
    fields; a class that does not define `_key` is not ordered (TypeError)."""

    __slots__ = ()

    def _key(self) -> tuple[Any, ...]:
        raise TypeError(f"{type(self).__name__} values are not ordered")

    def __lt__(self, other: Ordered) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Ordered) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Ordered) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Ordered) -> bool:
        return self._key() >= other._key()


class Record(Ordered):
    """A frozen value: equal to a record of the same class with equal fields."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self) and isinstance(other, Record):
            return self._values() == other._values()
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        # Written out: compiled, a subclass would otherwise derive it from `__eq__` itself.
        if type(other) is type(self) and isinstance(other, Record):
            return self._values() != other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={got!r}"
                           for name, got in zip(self.__match_args__, self._values(), strict=True))
        return f"{type(self).__qualname__}({inside})"


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record or dataclass `obj` with some fields changed (as
    `dataclasses.replace`); TypeError for a name that is not a field. The class's `__init__`
    takes the fields of `__match_args__` in that order."""
    names: tuple[str, ...] = getattr(type(obj), "__match_args__", ())
    unknown = sorted(set(changes).difference(names))
    if unknown or not names:
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(unknown) or '(none)'}")
    return type(obj)(*[changes.get(name, getattr(obj, name)) for name in names])
