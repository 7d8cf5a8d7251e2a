"""Migrations: every revision walks down to base and back up, the migrated schema equals the
models, and the schema check and `gm db` say what to do, on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.util.exc import CommandError
from sqlalchemy import inspect, text

from gm.cli import main as cli_main
from gm.store import migrate, revisions
from gm.store.db import check_schema, make_engine, open_database
from gm.store.errors import SchemaError
from gm.store.models import Base

TABLES = {
    "games", "powers", "power_addresses", "phases", "order_sets", "order_lines",
    "inbound_messages", "outbound_messages", "outbound_attachments", "press_messages",
    "audit_log", "outbound_files", "outbound_bodies", "standby_offers", "address_changes",
    "join_requests", "orders_ahead", "inbox_reads", "address_failures", "mailbox_claims",
}


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _revision(url: str) -> str | None:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return migrate.current_revision(conn)
    finally:
        engine.dispose()


def test_walk_every_revision_down_to_base_and_up_again(db_url: str) -> None:
    revisions = list(reversed(migrate.known_revisions()))  # first to head
    assert revisions[-1] == migrate.head_revision()
    for rev in revisions:  # up one revision at a time
        migrate.upgrade(db_url, rev)
        assert _revision(db_url) == rev
    assert _tables(db_url) == TABLES
    for rev in reversed(revisions[:-1]):  # down one at a time
        migrate.downgrade(db_url, rev)
        assert _revision(db_url) == rev
    migrate.downgrade(db_url, "base")
    assert _revision(db_url) is None
    assert _tables(db_url) == set()
    migrate.upgrade(db_url, "head")
    assert _revision(db_url) == migrate.head_revision()
    assert _tables(db_url) == TABLES


def test_migrated_schema_matches_the_models(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
            # and the comparison does see a difference when there is one
            conn.execute(text("DROP INDEX ix_press_messages_game"))
            diff = compare_metadata(context, Base.metadata)
            assert [d[0] for d in diff] == ["add_index"]
    finally:
        engine.dispose()


def test_constraint_names_follow_the_naming_convention(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            checks = {c["name"] for c in insp.get_check_constraints("games")}
            uniques = {c["name"] for c in insp.get_unique_constraints("phases")}
            fks = {c["name"] for c in insp.get_foreign_keys("order_sets")}
    finally:
        engine.dispose()
    assert "ck_games_game_status" in checks
    assert uniques == {"uq_phases_game_id_phase_index"}
    assert fks == {
        "fk_order_sets_phase_id_phases",
        "fk_order_sets_power_id_powers",
        "fk_order_sets_inbound_id_inbound_messages",
    }


def test_schema_check_refuses_an_empty_database(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        with pytest.raises(SchemaError, match=r"no schema in .*: run `gm db upgrade`"):
            check_schema(engine)
    finally:
        engine.dispose()
    with pytest.raises(SchemaError, match="gm db upgrade"):
        open_database(db_url)


def test_schema_check_accepts_head(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        assert check_schema(engine) == migrate.head_revision()
    finally:
        engine.dispose()


def test_schema_check_names_an_unknown_revision(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
        with pytest.raises(SchemaError) as err:
            check_schema(engine)
    finally:
        engine.dispose()
    message = str(err.value)
    assert "database schema is at f00d" in message
    assert f"it needs {migrate.head_revision()}" in message


def _gm_db(*argv: str) -> int:
    """Run `gm db ...` as the `gm` command does."""
    return cli_main(["db", *argv])


def test_gm_db_upgrade_current_downgrade(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    head = migrate.head_revision()
    assert _gm_db("current", "--url", db_url) == 1
    assert "no schema; this gm needs" in capsys.readouterr().out
    assert _gm_db("upgrade", "--url", db_url) == 0
    assert f"upgraded from no schema to {head}" in capsys.readouterr().out
    assert _gm_db("upgrade", "--url", db_url) == 0
    assert f"already at {head}" in capsys.readouterr().out
    assert _gm_db("current", "--url", db_url) == 0
    assert f"at {head} (this gm's schema)" in capsys.readouterr().out
    assert _gm_db("downgrade", "base", "--url", db_url) == 0
    assert "no schema (base)" in capsys.readouterr().out
    assert _tables(db_url) == set()


def test_gm_db_upgrade_defaults_to_sqlite_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GM_DATABASE_URL", raising=False)
    monkeypatch.setenv("GM_DATA_DIR", str(tmp_path))
    assert _gm_db("upgrade") == 0
    url = f"sqlite:///{tmp_path}/gm.sqlite3"
    assert _revision(url) == migrate.head_revision()


def test_gm_db_upgrade_from_any_directory_creates_var(tmp_path: Path) -> None:
    """A fresh checkout: `python -m gm db upgrade` in an empty directory finds the migrations
    and creates ./var/gm.sqlite3 at the head revision."""
    env = {k: v for k, v in os.environ.items() if k not in ("GM_DATABASE_URL", "GM_DATA_DIR")}
    done = subprocess.run(
        [sys.executable, "-m", "gm", "db", "upgrade"], cwd=tmp_path, env=env,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "upgraded from no schema to" in done.stdout
    assert _revision(f"sqlite:///{tmp_path / 'var' / 'gm.sqlite3'}") == migrate.head_revision()


def test_gm_db_reports_errors_without_a_traceback(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _gm_db("downgrade", "nosuchrev", "--url", db_url) == 2
    assert "error: " in capsys.readouterr().err
    assert _gm_db("current", "--url", "mysql://host/db") == 2
    err = capsys.readouterr().err
    assert "unsupported database URL" in err and "Traceback" not in err


def test_head_revision_read_from_the_scripts_is_alembics_head() -> None:
    assert revisions.head_revision() == migrate.head_revision()


def _script(folder: Path, name: str, revision: str, down: str) -> None:
    (folder / f"{name}.py").write_text(
        f'"""{name}."""\n\nrevision: str = "{revision}"\ndown_revision: str | None = {down}\n')


def test_head_revision_is_none_unless_the_scripts_name_one_head(tmp_path: Path) -> None:
    _script(tmp_path, "a", "0001", "None")
    _script(tmp_path, "b", "0002", '"0001"')
    assert revisions.head_revision(tmp_path) == "0002"
    _script(tmp_path, "c", "0003", '"0001"')  # two heads: 0002 and 0003
    assert revisions.head_revision(tmp_path) is None
    _script(tmp_path, "d", "0004", '("0002", "0003")')  # a merge: one head again
    assert revisions.head_revision(tmp_path) == "0004"
    (tmp_path / "e.py").write_text("revision = compute()\n")
    assert revisions.head_revision(tmp_path) is None


def test_schema_check_at_head_needs_no_alembic(migrated_url: str) -> None:
    """The schema check every service command makes, at the head revision, is one query: it
    neither imports Alembic (start-up time) nor, on SQLite, waits for the write lock."""
    code = (
        "import sys\n"
        "from gm.store.db import open_database\n"
        f"open_database({migrated_url!r}).dispose()\n"
        "assert 'alembic' not in sys.modules, 'alembic imported'\n"
    )
    holder = make_engine(migrated_url)
    try:
        with holder.begin() as conn:  # a writer holds the lock (BEGIN IMMEDIATE on SQLite)
            conn.execute(text("UPDATE alembic_version SET version_num = version_num"))
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  timeout=20)
    finally:
        holder.dispose()
    assert done.returncode == 0, done.stderr


def test_schema_check_with_several_rows_asks_alembic(migrated_url: str) -> None:
    """The head among other revisions is not "at head": Alembic's own reading refuses it."""
    engine = make_engine(migrated_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO alembic_version (version_num) VALUES ('f00d')"))
        with pytest.raises(CommandError, match="more than one head"):
            check_schema(engine)
    finally:
        engine.dispose()
