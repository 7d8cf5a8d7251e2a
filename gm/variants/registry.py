"""Variants by name (any case): `standard`, `deluge2` or `Deluge II`, `sahara`, `abstraction2`,
`chaos2`, `geophysical`, and their other aliases.

Every variant is built from its file by gm.variants.varfile. The built-in ones are the files in
gm/variants/data (`<name>.toml`: the one list of them; each names its rules, a hook set of
gm.variants.hook_sets); a variant is only built when first asked for, and only its file's name
and aliases are read before. Variants read from other files are added with `load_directory`
(the configuration's `variants_dir`, when the service starts) and are found by name and alias
after the built-in ones.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gm.engine.variant import Variant
from gm.paths import VARIANT_DATA

FIRST = "standard"  # listed first; the other built-in variants follow by name
_PLAIN_NAME = re.compile(r"[a-z0-9][a-z0-9 _-]{0,63}")  # what a built-in variant's file is named


log = logging.getLogger(__name__)

# Variants read from files, by canonical name (after the built-in ones), with their file's hash.
_loaded: dict[str, Variant] = {}
_digests: dict[str, str] = {}
_paths: dict[str, Path] = {}


@dataclass(frozen=True)
class Loaded:
    """What `load_directory` did: the variants it loaded and the files it refused, why."""

    names: tuple[str, ...]
    refused: tuple[tuple[Path, str], ...]


class UnknownVariant(LookupError):
    """A variant name that no variant answers to; the message lists the known ones."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"there is no variant called {name!r}; known variants: {', '.join(names())}"
        )
        self.name = name


def _key(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").split())


@cache
def _built_in() -> dict[str, tuple[str, ...]]:
    """The built-in variants' canonical names -> their aliases, read from their files (each
    named after its variant: the name is checked against the file's `name`)."""
    found: dict[str, tuple[str, ...]] = {}
    paths = sorted(VARIANT_DATA.glob("*.toml"), key=lambda p: (p.stem != FIRST, p.stem))
    for path in paths:
        declared = tomllib.loads(path.read_text(encoding="utf-8"))
        if declared.get("name") != path.stem:
            raise ValueError(f"{path}: a built-in variant's file is named after its variant")
        found[path.stem] = tuple(declared.get("aliases", ()))
    return found


def _built_in_file(key: str) -> Path | None:
    """The file of the built-in variant whose canonical name is `key`, or None (no file is
    parsed: the quick way for a canonical name, as most mail gives it)."""
    if not _PLAIN_NAME.fullmatch(key):
        return None  # no file is named so (and a name from mail is never a path)
    path = VARIANT_DATA / f"{key}.toml"
    try:
        return path if path.is_file() else None
    except OSError:  # a name the file system refuses
        return None


def names() -> tuple[str, ...]:
    """The canonical names of all variants: the built-in ones, then those loaded from files."""
    return (*_built_in(), *_loaded)


def file_of(name: str) -> tuple[Path, str] | None:
    """The file a loaded variant was read from and its hash when read; None for built-ins."""
    if name not in _loaded:
        return None
    return _paths[name], _digests[name]


def load_directory(folder: Path) -> Loaded:
    """Read every `*.toml` variant file in `folder` and add the good ones; a file that fails to
    load is logged and skipped, and the others still load. A file unchanged since it was read
    is kept as read; files changed or gone are read again or dropped."""
    from gm.variants.varfile import VariantFileErrors, file_digest, read_variant

    loaded: list[str] = []
    refused: list[tuple[Path, str]] = []
    try:
        files = sorted(folder.glob("*.toml"))
    except OSError as exc:
        log.error("variants_dir %s cannot be read: %s", folder, exc)
        files = []
    before = {p: n for n, p in _paths.items() if p.parent == folder}
    for path, name in before.items():
        try:
            same = path in files and file_digest(path) == _digests[name]
        except OSError:
            same = False
        if not same:
            _forget(name)
    for path in files:
        if path in before and before[path] in _loaded:
            loaded.append(before[path])  # unchanged since it was read
            continue
        try:
            read = read_variant(path, taken_by(path))
        except VariantFileErrors as exc:
            refused.append((path, str(exc)))
            log.error("variant file %s is not loaded:\n%s", path, exc)
            continue
        except Exception as exc:  # a file must never take the service down
            refused.append((path, f"{path}:1: cannot be loaded: {exc!r}"))
            log.exception("variant file %s is not loaded", path)
            continue
        why = register(read.variant, path, read.digest)
        if why is not None:
            refused.append((path, f"{path}:1: {why}"))
            log.error("variant file %s is not loaded: %s", path, why)
            continue
        loaded.append(read.variant.name)
        log.info("variant %s loaded from %s", read.variant.name, path)
        for warning in read.warnings:
            log.warning("variant file %s", warning)
    return Loaded(tuple(loaded), tuple(refused))


def taken_by(path: Path) -> Callable[[str], str | None]:
    """For the file at `path`: the variant (built-in, or loaded from another file) that already
    answers to a name, or None; a file's name and aliases must be its own (read_variant and
    `gm variant check` refuse the file, as loading does)."""

    def other(name: str) -> str | None:
        canonical = canonical_name(name)
        if canonical is None or (canonical in _loaded and _paths[canonical] == path):
            return None
        if path.resolve() == (VARIANT_DATA / f"{canonical}.toml").resolve():
            return None  # a built-in variant's own file
        return canonical

    return other


def register(variant: Variant, path: Path, digest: str) -> str | None:
    """Add a variant read from a file; why not (a name or alias taken), or None."""
    taken = [n for n in (variant.name, *variant.aliases)
             if (c := canonical_name(n)) is not None and c != variant.name]
    if _built_in_file(variant.name) is not None or (
            variant.name in _loaded and _paths[variant.name] != path):
        taken.insert(0, variant.name)
    if taken:
        return (f"the name or alias {taken[0]!r} is taken by another variant; give the file's "
                "variant names of its own")
    _loaded[variant.name] = variant
    _paths[variant.name] = path
    _digests[variant.name] = digest
    return None


def _forget(name: str) -> None:
    for table in (_loaded, _paths, _digests):
        table.pop(name, None)


def canonical_name(name: str) -> str | None:
    """`Standard` -> `standard`; None if no variant has that name or alias."""
    key = _key(name)
    if _built_in_file(key) is not None:
        return key
    for canonical, aliases in _built_in().items():
        if key in (_key(a) for a in aliases):
            return canonical
    for canonical, variant in _loaded.items():
        if key == _key(canonical) or key in (_key(a) for a in variant.aliases):
            return canonical
    return None


def get_variant(name: str) -> Variant:
    """The variant called `name` (canonical name or alias, any case); UnknownVariant if none."""
    canonical = canonical_name(name)
    if canonical is None:
        raise UnknownVariant(name)
    if canonical in _loaded:
        return _loaded[canonical]
    return _build(canonical)


@cache
def _build(canonical: str) -> Variant:
    """The built-in variant `canonical`, from its file."""
    from gm.variants.varfile import read_variant

    path = _built_in_file(canonical)
    assert path is not None, canonical
    return read_variant(path).variant


def forget_loaded() -> None:
    """Drop every variant loaded from a file (the built-in ones stay)."""
    for name in list(_loaded):
        _forget(name)
