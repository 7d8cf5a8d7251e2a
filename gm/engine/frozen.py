"""How the code writes a frozen value: `@dataclass(frozen=True)`, the one idiom.

A frozen dataclass is equal and hashed by its fields, immutable, shown by its fields,
understood by mypy and by pattern matching; `dataclasses.replace` copies it with some fields
changed (`replace` below is the same, typed for any value). A class whose equality or order is
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
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass `obj` with some fields changed (as
    `dataclasses.replace`); TypeError for a name that is not a field. The class's `__init__`
    takes the fields of `__match_args__` in that order."""
    names: tuple[str, ...] = getattr(type(obj), "__match_args__", ())
    unknown = sorted(set(changes).difference(names))
    if unknown or not names:
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(unknown) or '(none)'}")
    return type(obj)(*[changes.get(name, getattr(obj, name)) for name in names])
