"""`@value`: frozen value classes, cheaper to define than `@dataclass(frozen=True)`.

A standard-library dataclass compiles five to nine methods per class when its module is
imported (about a millisecond a class); the engine defines dozens of small value classes and
every `gm` command imports them. `value` gives a class the same behaviour as
`@dataclass(frozen=True)` (or with `order=True`): an `__init__` taking the fields in order
(those of `value` base classes first) with their defaults, `__repr__`, `__eq__` and `__hash__`
over the fields for instances of exactly the same class, `__match_args__`, the four ordering
methods when asked, and `FrozenInstanceError` (an AttributeError) on assignment. Only
`__init__` is compiled; the other methods are shared functions over the class's fields.

Not supported (use a dataclass for these): `field(...)`, `__post_init__`, `ClassVar`,
`dataclasses.fields`. For `dataclasses.replace`, use this module's `replace` (which also
copies the value classes written out, see `replace`).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")

_MISSING = object()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen value."""


def _frozen_setattr(self: object, name: str, _value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _fields_of(cls: type) -> list[tuple[str, object]]:
    """(name, default or _MISSING) of every field, those of `value` base classes first."""
    found: dict[str, object] = {}
    for base in reversed(cls.__mro__[1:]):
        for name, default in base.__dict__.get("__value_fields__", ()):
            found[name] = default
    # The class's own annotations (not inspect's: importing inspect costs more than a class).
    for name in cls.__dict__.get("__annotations__", {}):  # noqa: RUF063
        found[name] = cls.__dict__.get(name, _MISSING)
    return list(found.items())


def _make_init(cls: type, fields: list[tuple[str, object]]) -> Callable[..., None]:
    """`__init__(self, <fields>)` storing each field: the compiled template for that many
    fields with the names put in (compiling source for every class costs more than a class
    otherwise does at import time)."""
    names = tuple(name for name, _ in fields)
    defaults = tuple(default for _, default in fields if default is not _MISSING)
    required = len(fields) - len(defaults)
    if any(default is _MISSING for _, default in fields[required:]):
        raise TypeError(f"{cls.__qualname__}: a field without a default follows one with it")
    template = _template(len(names))
    rename = dict(zip(_params(len(names)), names, strict=True))
    code = template.replace(
        co_varnames=("self", *names, "_value_d"),
        co_consts=tuple(rename.get(c, c) if isinstance(c, str) else c
                        for c in template.co_consts),
        co_filename=f"<value {cls.__qualname__}>",
        co_name="__init__",
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    init: Callable[..., None] = FunctionType(code, {}, "__init__", defaults or None)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


_TEMPLATES: dict[int, CodeType] = {}


def _params(n: int) -> tuple[str, ...]:
    return tuple(f"_value_p{i}" for i in range(n))


def _template(n: int) -> CodeType:
    """The code of `__init__(self, p0, ..., pn)` storing each parameter in the instance dict
    (quicker than object.__setattr__ per field), compiled once per number of fields (some
    tens of microseconds each)."""
    code = _TEMPLATES.get(n)
    if code is None:
        params = _params(n)
        body = "\n    _value_d = self.__dict__" + "".join(
            f"\n    _value_d[{p!r}] = {p}" for p in params)
        namespace: dict[str, Any] = {}
        exec(compile(f"def __init__(self{''.join(', ' + p for p in params)}):{body}",
                     "<value>", "exec"), namespace)
        code = namespace["__init__"].__code__
        if code.co_varnames != ("self", *params, "_value_d"):
            raise RuntimeError("unexpected layout of a value __init__")  # a new Python
        _TEMPLATES[n] = code
    return code


def _process(cls: type[T], order: bool) -> type[T]:
    fields = _fields_of(cls)
    names = tuple(name for name, _ in fields)
    cls.__value_fields__ = tuple(fields)  # type: ignore[attr-defined]
    key: Callable[[Any], tuple[Any, ...]]
    if len(names) == 1:
        get_one = attrgetter(names[0])

        def key(obj: Any) -> tuple[Any, ...]:
            return (get_one(obj),)
    elif names:
        key = attrgetter(*names)
    else:

        def key(obj: Any) -> tuple[Any, ...]:
            return ()

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(key(self) == key(other))
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __repr__(self: Any) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({inside})"

    methods: dict[str, Any] = {
        "__init__": _make_init(cls, fields),
        "__repr__": __repr__,
        "__eq__": __eq__,
        "__setattr__": _frozen_setattr,
        "__delattr__": _frozen_delattr,
    }
    if order:

        def __lt__(self: Any, other: Any) -> bool:
            if other.__class__ is self.__class__:
                return bool(key(self) < key(other))
            return NotImplemented

        def __le__(self: Any, other: Any) -> bool:
            if other.__class__ is self.__class__:
                return bool(key(self) <= key(other))
            return NotImplemented

        def __gt__(self: Any, other: Any) -> bool:
            if other.__class__ is self.__class__:
                return bool(key(self) > key(other))
            return NotImplemented

        def __ge__(self: Any, other: Any) -> bool:
            if other.__class__ is self.__class__:
                return bool(key(self) >= key(other))
            return NotImplemented

        methods.update(__lt__=__lt__, __le__=__le__, __gt__=__gt__, __ge__=__ge__)
    for name, method in methods.items():
        if name not in cls.__dict__:
            if name not in ("__setattr__", "__delattr__"):
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    # As a frozen dataclass: hashable by its fields unless the class defines its own hash.
    own_hash = cls.__dict__.get("__hash__", _MISSING)
    if own_hash is _MISSING or (own_hash is None and "__eq__" in cls.__dict__):
        __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
        cls.__hash__ = __hash__  # type: ignore[method-assign]
    setattr(cls, "__match_args__", names)  # noqa: B010
    return cls


@overload
def value(cls: type[T], /) -> type[T]: ...


@overload
def value(*, order: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def value(cls: type[T] | None = None, /, *, order: bool = False) -> Any:
    """Make `cls` a frozen value class (see the module docstring); `order=True` adds <, <=, >, >=
    comparing the fields in order."""
    if cls is None:
        return lambda c: _process(c, order)
    return _process(cls, order)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the value `obj` with some fields changed (as `dataclasses.replace`); TypeError
    for a name that is not a field. Works for `value` classes and for the value classes written
    out whose `__init__` takes the fields of `__match_args__` in that order."""
    names: tuple[str, ...] = getattr(type(obj), "__match_args__", ())
    unknown = sorted(set(changes).difference(names))
    if unknown or not names:
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(unknown) or '(none)'}")
    return type(obj)(*[changes.get(name, getattr(obj, name)) for name in names])
