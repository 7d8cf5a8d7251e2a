"""A Lark LALR parser built once per grammar and kept in the user's cache directory.

Building the command grammar's parser (analysing the grammar, making its LALR table) takes a
fifth of a second at each start of `gm serve` or `gm ingest`; Lark saves a built parser and
loads it back (`Lark(..., cache=path)`) in a tenth of that. The file lives where the order
grammar's table does (gm.notation.table_cache.cache_dir: `$XDG_CACHE_HOME/gm` or `~/.cache/gm`)
and is named after a hash of the grammar text, the options and the Lark and Python versions, so
a changed grammar never finds an old parser; Lark also checks a hash of the grammar and options
stored in the file, and builds anew when it differs or the file cannot be read (a file another
process is still writing is cut short, which unpickling refuses). A cache directory that cannot
be written only costs the build.
"""

from __future__ import annotations

import hashlib
import os
import sys
from typing import Any

import lark
from lark import Lark

from gm.notation.table_cache import cache_dir


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """`Lark(grammar, parser="lalr", **options)`, loaded from the cache when it was built
    before for the same grammar text and options (`name` starts the file's name)."""
    described = "\0".join([grammar, lark.__version__, sys.version.split()[0],
                           *sorted(f"{k}={v!r}" for k, v in options.items()
                                   if k != "transformer")])
    digest = hashlib.sha256(described.encode("utf-8")).hexdigest()[:32]
    path = cache_dir() / f"{name}-lark-{digest}.pickle"
    if not path.is_file():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            writable = os.access(path.parent, os.W_OK)
        except OSError:
            writable = False
        if not writable:
            return Lark(grammar, parser="lalr", **options)
    return Lark(grammar, parser="lalr", cache=str(path), **options)
