"""How the code writes a frozen value: `@dataclass(frozen=True)`, the one idiom.

A frozen dataclass is equal and hashed by its fields, immutable, shown by its fields,
understood by mypy and by pattern matching; `dataclasses.replace` copies it with some fields
changed (`replace` below does the same, for a `Record` too). A class whose equality or order is
not its fields' own writes those methods in the class with `eq=False` (gm.engine.geo.Location:
no coast sorts first). Classes that keep caches or are filled in step by step (Calendar,
GameMap, the scenario reader's Case) are ordinary classes, not values.

Why dataclasses, measured: the engine once had a code-generating `@value` decorator (cheaper
to define than a dataclass) and plain classes written out on `Record` (native classes when
compiled with mypyc, see setup.py's COMPILED). mypyc compiles a dataclass as a native class
too, but its generated methods stay interpreted and a frozen one's `__init__` assigns each
field through `object.__setattr__`. Against the written-out classes, on every scenario file
(1692 cases), compiled: adjudication about 10% more CPU time (some 405 to 450 ms, warm; a whole
`gm scenario` run 8% more), `import gm.engine.game` 17 to 42 ms (importing dataclasses, and
some 0.5 ms to build each class); plain Python: adjudication about 4% more. One idiom is worth
that.

`Record` is left only for gm.engine.errors.OrderError; it derives equality (same class, equal
fields), the hash and the repr from `_values()`, as a dataclass does from its fields.
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
