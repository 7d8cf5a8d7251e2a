"""Schema migrations (Alembic, scripts in migrations/): revisions, upgrade and downgrade."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from gm.paths import MIGRATIONS


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for migrations/; env.py takes the URL from `attributes`."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.attributes["url"] = url
    return cfg


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The revision this gm's models correspond to."""
    head = _scripts().get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {MIGRATIONS}")
    return head


def known_revisions() -> list[str]:
    """Every revision, from the head down to the first."""
    return [s.revision for s in _scripts().walk_revisions()]


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at, or None when it has no schema."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)
