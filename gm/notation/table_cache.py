"""The order grammar's LALR table, kept in the user's cache directory between runs.

Building the table with Lark (importing Lark, analysing the grammar) costs more than reading
thousands of orders, so the table is stored as JSON under `$XDG_CACHE_HOME/gm` (default
`~/.cache/gm`), with the grammar text and the table format it was built from. A cache that is
missing, unreadable or out of date is rebuilt; one that cannot be written is simply not kept.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """Where gm keeps derived data: `$XDG_CACHE_HOME/gm`, else `~/.cache/gm`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gm"


def cached_json(kind: str, source: str, version: int, build: Callable[[], Any]) -> Any:
    """The JSON value `build()` makes from `source`, read from the cache when a value was
    stored for the same `kind`, `source` text and `version`; else built and stored."""
    # The file name is a checksum; the file holds the source itself, compared in full.
    checksum = zlib.crc32(f"{kind}\0{version}\0{source}".encode())
    path = cache_dir() / f"{kind}-{checksum:08x}.json"
    try:
        with path.open(encoding="utf-8") as f:
            found = json.load(f)
        if (
            isinstance(found, dict)
            and found.get("version") == version
            and found.get("source") == source
        ):
            return found["value"]
    except (OSError, ValueError, KeyError):
        pass
    value = build()
    _store(path, {"version": version, "source": source, "value": value})
    return value


def _store(path: Path, data: Any) -> None:
    """Write `data` to `path` atomically; a cache that cannot be written is not an error."""
    import tempfile  # only when writing: reading the cache should start fast

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
