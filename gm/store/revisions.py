"""The schema revision this gm needs, read from the migration scripts without Alembic.

Importing Alembic costs more start-up time than everything else a `gm ingest` does, and the
schema check that every service command makes needs only the head revision: the one revision
no other script revises. Its id is read from the scripts' `revision` and `down_revision` lines;
when they do not name exactly one head, None says so and the caller asks Alembic
(gm.store.migrate), which also runs the migrations themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

from gm.paths import MIGRATIONS

VERSION_TABLE = "alembic_version"  # where Alembic keeps the database's revision
_REVISION = re.compile(r"""^revision\s*(?::[^=\n]*)?=\s*["']([^"'\n]+)["']\s*$""", re.M)
_DOWN_REVISION = re.compile(r"^down_revision\s*(?::[^=\n]*)?=(.*)$", re.M)
_QUOTED = re.compile(r"""["']([^"'\n]+)["']""")


def head_revision(versions: Path = MIGRATIONS / "versions") -> str | None:
    """The head revision of the scripts in `versions`, or None when they do not say plainly
    (a script without one `revision` and one `down_revision` line, several heads, none)."""
    revisions: set[str] = set()
    revised: set[str] = set()
    for script in versions.glob("*.py"):
        text = script.read_text(encoding="utf-8")
        revision = _REVISION.findall(text)
        down = _DOWN_REVISION.findall(text)
        if len(revision) != 1 or len(down) != 1:
            return None
        revisions.add(revision[0])
        revised.update(_QUOTED.findall(down[0]))
    heads = revisions - revised
    return heads.pop() if len(heads) == 1 else None
