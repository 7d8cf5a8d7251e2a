"""The Alembic environment and revisions of the schema, installed as the package gm.migrations."""
