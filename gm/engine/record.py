"""`Record`: the base of the engine's frozen value classes written out as plain classes.

Plain classes with `__slots__` and an explicit `__init__` compile to native classes (see
setup.py), where `@value` classes (gm.engine.values) cannot. A subclass lists its fields in
`__match_args__`, in the order its `__init__` takes them, and returns them from `_values()`;
`Record` derives equality (same class, equal fields), the hash and the repr from these, as
`@value` and `@dataclass(frozen=True)` do. The fields are `Final`: assigned only in `__init__`.
`gm.engine.values.replace` copies a record with some fields changed.
"""

from __future__ import annotations

from typing import Any, ClassVar


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
